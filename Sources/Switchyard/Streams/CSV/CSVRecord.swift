/// One CSV record as `String`s, owned (keep it, send it to another task), with header lookup.
public struct CSVRecord: Sendable, Hashable, RandomAccessCollection, CustomStringConvertible {
    /// The fields, in file order.
    public var fields: [String]
    /// The 1-based line the record starts on.
    public var line: Int
    /// The file's header, when it has one.
    public var header: CSVHeader?

    /// A record with these fields.
    public init(fields: [String], line: Int, header: CSVHeader? = nil) {
        self.fields = fields
        self.line = line
        self.header = header
    }

    /// Copies a borrowed record.
    public init(_ view: CSVRecordView) {
        self.init(fields: view.strings(), line: view.line, header: view.header)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { fields.count }
    /// The field at `position` (0-based). O(1).
    public subscript(position: Int) -> String { fields[position] }

    /// The field named `name` in the header, or nil. O(1) expected.
    public subscript(name: String) -> String? {
        guard let index = header?.index(of: name), index < fields.count else { return nil }
        return fields[index]
    }

    public var description: String { "line \(line): " + fields.joined(separator: " | ") }
}
