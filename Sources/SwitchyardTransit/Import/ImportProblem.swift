/// A record that was not imported, and why: the file, the line it starts on, the field, and the reason.
public struct ImportProblem: Sendable, Hashable, CustomStringConvertible {
    /// The GTFS file, e.g. `stop_times.txt`.
    public let file: String
    /// The line the record starts on (1 is the header).
    public let line: Int
    /// The field concerned, if one is.
    public let field: String?
    /// What is wrong, e.g. `'8:5:00' is not a time (H:MM:SS)`.
    public let reason: String

    /// A problem with the record of `file` starting on `line`.
    public init(file: String, line: Int, field: String?, reason: String) {
        self.file = file
        self.line = line
        self.field = field
        self.reason = reason
    }

    public var description: String {
        "\(file):\(line): \(field.map { "field \($0): " } ?? "")\(reason)"
    }
}
