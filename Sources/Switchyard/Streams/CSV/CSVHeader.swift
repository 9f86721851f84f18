/// The field names from a CSV file's first record, with O(1) lookup by name.
///
/// When a name occurs twice, lookups find the first; `names` keeps them all, in order. Two headers are equal when
/// their names are.
public struct CSVHeader: Sendable, Hashable, RandomAccessCollection, CustomStringConvertible {
    /// The names, in file order.
    public let names: [String]
    /// What the header line held that the reader's options tolerate (names decoded from another encoding, or
    /// repaired UTF-8).
    public let quirks: CSVQuirks
    private let positionsByName: [String: Int]

    /// A header with these names.
    public init(_ names: [String], quirks: CSVQuirks = []) {
        self.names = names
        self.quirks = quirks
        var indices: [String: Int] = [:]
        for (index, name) in names.enumerated() where indices[name] == nil { indices[name] = index }
        positionsByName = indices
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { names.count }
    public subscript(position: Int) -> String { names[position] }

    /// The 0-based position of the first field called `name`, or nil. O(1) expected.
    public func index(of name: String) -> Int? { positionsByName[name] }

    public var description: String { names.joined(separator: ",") }

    public static func == (lhs: CSVHeader, rhs: CSVHeader) -> Bool { lhs.names == rhs.names }
    public func hash(into hasher: inout Hasher) { hasher.combine(names) }
}
