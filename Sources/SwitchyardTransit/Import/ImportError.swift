/// Why an import could not start or had to stop. Every case names what it concerns — the feed, the file, the line
/// and field, or the database — and the database is left consistent (only whole batches are ever committed).
public struct ImportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// The feed path is neither a readable directory nor a zip archive, or cannot be read.
        case unreadableFeed = "unreadable_feed"
        /// The zip archive is damaged (bad central directory, CRC mismatch, truncated data).
        case corruptArchive = "corrupt_archive"
        /// A file GTFS requires is missing or empty (0 bytes, or no header line), or neither calendar file has any.
        case missingFile = "missing_file"
        /// A required file's header lacks a required field, so none of its records can be imported. (An optional
        /// file's records are each skipped instead, listed with the reason, and the rest of the feed imported.)
        case missingField = "missing_field"
        /// A record stopped the import: with `--strict`, the first record that would be skipped; in any mode, a record
        /// over the length limit, or a header with more extra columns than are kept.
        case malformedRecord = "malformed_record"
        /// A file is in an encoding the importer cannot read (UTF-16, told by its byte order mark).
        case unsupportedEncoding = "unsupported_encoding"
        /// More records were skipped than ``ImportOptions/maximumSkipped`` allows.
        case tooManySkipped = "too_many_skipped"
        /// The database cannot be opened or written.
        case database
        /// `--resume` without an import to resume, or with a feed that changed since.
        case cannotResume = "cannot_resume"
        /// The database already holds an import and neither resume nor replace was asked for.
        case databaseNotEmpty = "database_not_empty"
        /// Another import into the same database is running (it holds the database's import lock).
        case databaseBusy = "database_busy"
    }

    /// What went wrong.
    public let kind: Kind
    /// The file concerned, when one is: its path as the import reads it (`feed.zip/stops.txt`, `feed/stops.txt`).
    public let file: String?
    /// The 1-based line in ``file``, when known.
    public let line: Int?
    /// The explanation, without the location (which ``message`` adds).
    public let reason: String

    /// An error of `kind` explained by `reason`, in `file` at `line` when given.
    public init(_ kind: Kind, _ reason: String, file: String? = nil, line: Int? = nil) {
        self.kind = kind
        self.reason = reason
        self.file = file
        self.line = line
    }

    /// `FILE:LINE: reason` (the parts known), naming the feed, file, line, field or database concerned.
    public var message: String {
        guard let file else { return reason }
        return "\(file)\(line.map { ":\($0)" } ?? ""): \(reason)"
    }

    public var description: String { message }

    /// A failed import as one line of JSON, the last line `--progress json` prints when an import fails:
    /// `{"state": "failed", "database": …, "error": {"kind": …, "message": …, "file": …, "line": …},
    /// "files": {…}}`, the files as far as `status` (the import record) has them, `{}` without one.
    public func summaryJSON(database: String, status: ImportStatus?) -> String {
        // Strings, integers and booleans only: never throws.
        (try? JSONLineEncoder.encode(FailedImport(error: self, database: database, status: status))) ?? "{}"
    }
}

/// The last line of `--progress json` when an import fails (see ``ImportError/summaryJSON(database:status:)``).
private struct FailedImport: Encodable {
    var error: ImportError
    var database: String
    var status: ImportStatus?

    private enum CodingKeys: String, CodingKey { case state, database, error, files }
    private enum ErrorKeys: String, CodingKey { case kind, message, file, line }
    private enum FileKeys: String, CodingKey { case records, imported, skipped, warnings, complete }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ImportState.failed.rawValue, forKey: .state)
        try container.encode(database, forKey: .database)
        var details = container.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error)
        try details.encode(error.kind.rawValue, forKey: .kind)
        try details.encode(error.message, forKey: .message)
        try details.encode(error.file, forKey: .file)  // null when none
        try details.encode(error.line, forKey: .line)
        var files = container.nestedContainer(keyedBy: NamedKey.self, forKey: .files)
        for file in status?.files ?? [] {
            var entry = files.nestedContainer(keyedBy: FileKeys.self, forKey: NamedKey(file.name))
            try entry.encode(file.records, forKey: .records)
            try entry.encode(file.rows, forKey: .imported)
            try entry.encode(file.skipped, forKey: .skipped)
            try entry.encode(file.warnings, forKey: .warnings)
            try entry.encode(file.state == .complete, forKey: .complete)
        }
    }
}
