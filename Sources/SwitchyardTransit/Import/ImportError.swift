/// Why an import could not start or had to stop. Every case names what it concerns — the feed, the file, the line
/// and field, or the database — and the database is left consistent (only whole batches are ever committed).
public struct ImportError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The feed path is neither a readable directory nor a zip archive, or cannot be read.
        case unreadableFeed
        /// The zip archive is damaged (bad central directory, CRC mismatch, truncated data).
        case corruptArchive
        /// A file GTFS requires is missing (or neither calendar file is present).
        case missingFile
        /// A file's header lacks a required field, so none of its records can be imported.
        case missingField
        /// `--strict`: a malformed record stopped the import.
        case malformedRecord
        /// The database cannot be opened or written.
        case database
        /// `--resume` without an import to resume, or with a feed that changed since.
        case cannotResume
        /// The database already holds an import and neither resume nor replace was asked for.
        case databaseNotEmpty
        /// Another import into the same database is running (it holds the database's import lock).
        case databaseBusy
    }

    /// What went wrong.
    public let kind: Kind
    /// The full explanation, naming the feed, file, line, field or database concerned.
    public let message: String

    /// An error of `kind` explained by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
