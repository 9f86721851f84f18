/// What a database's import record says right now: safe to read from another process while an import runs
/// (WAL readers see the last committed batch and never block the writer or fail because of it).
///
/// ```swift
/// let status = try ImportStatus.read("vbb.sqlite")
/// print(status.state, status.files.map { "\($0.name): \($0.rows)" })
/// ```
public struct ImportStatus: Sendable, Hashable {
    /// One file's committed state.
    public struct File: Sendable, Hashable {
        /// The GTFS file name, e.g. `stop_times.txt`.
        public var name: String
        /// ``ImportFileState/pending``, ``ImportFileState/loading`` or ``ImportFileState/complete``.
        public var state: ImportFileState
        /// Rows committed to its table, as of the last committed batch.
        public var rows: Int
        /// Records read (committed or skipped), as of the last committed batch.
        public var records: Int
        /// Records skipped, as of the last committed batch.
        public var skipped: Int
        /// Warnings (about imported records and about the file), as of the last committed batch.
        public var warnings: Int
        /// The file's size in bytes.
        public var size: Int
    }

    /// The feed the import reads.
    public var feed: String
    /// Where the import stands. A killed import reads ``ImportState/loading`` until resumed.
    public var state: ImportState
    /// Every imported file, in import order.
    public var files: [File]
    /// Files in the feed that are not imported.
    public var ignoredFiles: [String]
    /// Where the feed was downloaded from, when the import was given one (``ImportOptions/source``).
    public var source: FeedSource? = nil

    /// Whether the import finished: every table complete, indexed and checked.
    public var isComplete: Bool { state == .complete }

    /// Reads the import record of the database at `path`, which must exist. **Blocks** on SQLite.
    ///
    /// The connection is opened for writing but only queries (`PRAGMA query_only`): a read-only connection
    /// cannot checkpoint, so it would leave the WAL files of a finished import behind when it closes.
    /// - Throws: ``ImportError`` (`.database`) if the database cannot be read or holds no import record.
    public static func read(_ path: String) throws -> ImportStatus {
        do {
            let database = try SQLiteConnection(path: path, creates: false)
            try database.execute("PRAGMA query_only = 1")
            guard let header = try ImportRecord.header(database) else {
                throw ImportError(.database, "\(path) holds no Switchyard import")
            }
            return ImportStatus(
                header: header, files: try ImportRecord.files(database), source: try ImportRecord.source(database))
        } catch let error as SQLiteError {
            throw ImportError(.database, "\(path): \(error.message)")
        }
    }

    /// One line of JSON: `{"state": …, "feed": …, "files": {"stops.txt": {"state": …, "rows": N, "records": N,
    /// "skipped": N, "warnings": N}, …}}`, members in that order, escaped as ``ImportSummary/json`` is.
    public var json: String {
        (try? JSONLineEncoder.encode(self)) ?? "{}"  // strings and integers only: never throws
    }
}

extension ImportStatus: Encodable {
    private enum CodingKeys: String, CodingKey { case state, feed, files }
    private enum FileKeys: String, CodingKey { case state, rows, records, skipped, warnings }

    /// The members of ``json``, in its order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state.rawValue, forKey: .state)
        try container.encode(feed, forKey: .feed)
        var files = container.nestedContainer(keyedBy: NamedKey.self, forKey: .files)
        for file in self.files {
            var entry = files.nestedContainer(keyedBy: FileKeys.self, forKey: NamedKey(file.name))
            try entry.encode(file.state.rawValue, forKey: .state)
            try entry.encode(file.rows, forKey: .rows)
            try entry.encode(file.records, forKey: .records)
            try entry.encode(file.skipped, forKey: .skipped)
            try entry.encode(file.warnings, forKey: .warnings)
        }
    }
}

@_spi(ImportDestinations)
extension ImportStatus {
    /// The status an import record with `header` and `files` describes (ignored files apart).
    public init(header: ImportHeader, files: [ImportFileRecord], source: FeedSource?) {
        self.init(
            feed: header.feed, state: header.state,
            files: files.filter { $0.state != .ignored }.map {
                File(
                    name: $0.file, state: $0.state, rows: $0.imported, records: $0.records, skipped: $0.skipped,
                    warnings: $0.warnings, size: $0.size)
            },
            ignoredFiles: files.filter { $0.state == .ignored }.map(\.file), source: source)
    }
}
