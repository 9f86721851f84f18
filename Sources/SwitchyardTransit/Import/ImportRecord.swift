/// The import record: the bookkeeping tables that say what an import has committed, written in the same
/// transactions as the rows they describe, so that they are never out of step with the data.
///
/// - `_switchyard_import` (one row): the feed, its fingerprint, the batch size, and the `state`:
///   `loading` (rows are being added; also what a killed import leaves), `interrupted` (stopped on request),
///   `failed`, `indexing` (indexes and checks), `complete` (``ImportState``).
/// - `_switchyard_import_files` (one row per file): `state` (`pending`, `loading`, `complete`, `ignored`:
///   ``ImportFileState``),
///   `records` read, rows `imported`, records `skipped`, `warnings`, and `last_line`, the line of the last record
///   committed (a resumed import skips records up to it).
/// - `_switchyard_import_problems`: every record not imported (severity `error`) and the first
///   ``ImportProblem/listedWarnings`` warnings of each kind per file (severity `warning`: the record was imported),
///   with file, line, field, kind and reason.
/// - `_switchyard_import_counts`: how many problems of each kind each file had (every one, listed or not).
/// - `_switchyard_import_checks`: after loading, the referential and duplicate-key checks (counts, examples).
/// - `_switchyard_import_source` (one row, or none for a local feed): the URL a downloaded feed came from, its
///   `etag`, `last_modified`, `size` and `checksum` (``FeedSource``).
///
/// Readers of a database whose import is not `complete` see whole batches only, and can tell from these tables
/// which files are complete.
@_spi(ImportDestinations)
public enum ImportRecord {
    public static let importTable = "_switchyard_import"
    public static let filesTable = "_switchyard_import_files"
    public static let problemsTable = "_switchyard_import_problems"
    public static let checksTable = "_switchyard_import_checks"
    public static let countsTable = "_switchyard_import_counts"
    public static let sourceTable = "_switchyard_import_source"
    /// Every table of the record.
    public static let tables = [importTable, filesTable, problemsTable, countsTable, checksTable, sourceTable]
    /// Between a check's examples in `_switchyard_import_checks.examples` (a character no identifier holds).
    public static let exampleSeparator = "\u{1F}"

    /// A check's examples, from their recorded text.
    public static func examples(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: "\u{1F}").map(String.init)
    }

    typealias FileState = ImportFileRecord

    typealias Header = ImportHeader

    /// Creates the bookkeeping tables and records the feed, its files, and the feed's own warnings (files named in
    /// another case).
    static func create(
        _ database: SQLiteConnection, feed: GTFSFeed, batchSize: Int, encoding: ImportOptions.Encoding,
        source: FeedSource?
    ) throws {
        try database.transaction {
            try database.execute(
                """
                CREATE TABLE \(importTable) (id INTEGER PRIMARY KEY CHECK (id = 1), feed TEXT NOT NULL,
                    fingerprint TEXT NOT NULL, state TEXT NOT NULL, batch_size INTEGER NOT NULL,
                    encoding TEXT NOT NULL DEFAULT 'auto',
                    started_at TEXT NOT NULL, updated_at TEXT NOT NULL, finished_at TEXT);
                CREATE TABLE \(filesTable) (file TEXT PRIMARY KEY, position INTEGER NOT NULL, state TEXT NOT NULL,
                    records INTEGER NOT NULL DEFAULT 0, imported INTEGER NOT NULL DEFAULT 0,
                    skipped INTEGER NOT NULL DEFAULT 0, warnings INTEGER NOT NULL DEFAULT 0,
                    last_line INTEGER NOT NULL DEFAULT 0,
                    size INTEGER NOT NULL DEFAULT 0, ignored_columns TEXT NOT NULL DEFAULT '');
                CREATE TABLE \(problemsTable) (file TEXT NOT NULL, line INTEGER NOT NULL, field TEXT,
                    severity TEXT NOT NULL, kind TEXT NOT NULL, reason TEXT NOT NULL);
                CREATE TABLE \(countsTable) (file TEXT NOT NULL, kind TEXT NOT NULL, severity TEXT NOT NULL,
                    count INTEGER NOT NULL, PRIMARY KEY (file, kind));
                CREATE TABLE \(checksTable) (name TEXT PRIMARY KEY, count INTEGER NOT NULL, examples TEXT NOT NULL);
                CREATE TABLE \(sourceTable) (id INTEGER PRIMARY KEY CHECK (id = 1), url TEXT NOT NULL, etag TEXT,
                    last_modified TEXT, size INTEGER NOT NULL, checksum TEXT);
                """)
            if let source {
                try database.run(
                    "INSERT INTO \(sourceTable) (id, url, etag, last_modified, size, checksum) VALUES (1, ?, ?, ?, ?, ?)",
                    [
                        .text(source.url), source.etag.map { .text($0) } ?? .null,
                        source.lastModified.map { .text($0) } ?? .null, .integer(source.size),
                        source.checksum.map { .text($0) } ?? .null,
                    ])
            }
            try database.run(
                """
                INSERT INTO \(importTable) (id, feed, fingerprint, state, batch_size, encoding, started_at, updated_at)
                VALUES (1, ?, ?, 'loading', ?, ?, datetime('now'), datetime('now'))
                """,
                [.text(feed.path), .text(feed.fingerprint), .integer(Int64(batchSize)), .text(encoding.rawValue)])
            let start = ImportRecordStart(feed)
            for file in start.files {
                try database.run(
                    "INSERT INTO \(filesTable) (file, position, state, size) VALUES (?, ?, ?, ?)",
                    [
                        .text(file.name), .integer(Int64(file.position)), .text(file.state.rawValue),
                        .integer(Int64(file.size)),
                    ])
            }
            for problem in start.problems {
                try insert(problem, database)
                try database.run(
                    "INSERT INTO \(countsTable) VALUES (?, ?, 'warning', 1)",
                    [.text(problem.file), .text(problem.kind.rawValue)])
                try database.run(
                    "UPDATE \(filesTable) SET warnings = warnings + 1 WHERE file = ?", [.text(problem.file)])
            }
        }
    }

    static func insert(_ problem: ImportProblem, _ database: SQLiteConnection) throws {
        try database.run(
            "INSERT INTO \(problemsTable) (file, line, field, severity, kind, reason) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(problem.file), .integer(Int64(problem.line)), problem.field.map { .text($0) } ?? .null,
                .text(problem.severity.rawValue), .text(problem.kind.rawValue), .text(problem.reason),
            ])
    }

    /// Whether the database's import record has the tables and columns this version writes (an import begun by
    /// an earlier version cannot be resumed by this one).
    static func isCurrent(_ database: SQLiteConnection) throws -> Bool {
        try database.tableExists(countsTable)
    }

    /// Where the imported feed was downloaded from, if it was (and the record is recent enough to say).
    static func source(_ database: SQLiteConnection) throws -> FeedSource? {
        guard try database.tableExists(sourceTable),
            let row = try database.rows(
                "SELECT url, etag, last_modified, size, checksum FROM \(sourceTable) WHERE id = 1"
            ).first
        else { return nil }
        return FeedSource(
            url: row[0].text ?? "", etag: row[1].text, lastModified: row[2].text, size: row[3].integer ?? 0,
            checksum: row[4].text)
    }

    /// The import's header row, or nil if the database holds no import record.
    static func header(_ database: SQLiteConnection) throws -> Header? {
        guard try database.tableExists(importTable) else { return nil }
        let current = try isCurrent(database)
        guard
            let row = try database.rows(
                "SELECT feed, fingerprint, state, batch_size, \(current ? "encoding" : "'auto'") FROM \(importTable) WHERE id = 1"
            ).first
        else { return nil }
        return Header(
            feed: row[0].text ?? "", fingerprint: row[1].text ?? "",
            state: try parse(row[2].text, as: ImportState.self, in: database),
            batchSize: Int(row[3].integer ?? 0),
            encoding: ImportOptions.Encoding(rawValue: row[4].text ?? "") ?? .automatic)
    }

    /// `text`, read from `database`'s record, as a state of type `State`.
    /// - Throws: ``ImportError`` (`.database`, naming the database) for a value this version does not know (a
    ///   database written by another version).
    static func parse<State: RawRepresentable<String>>(
        _ text: String?, as: State.Type, in database: SQLiteConnection
    ) throws -> State {
        guard let text, let state = State(rawValue: text) else {
            throw ImportError(
                .database, "\(database.path): the import record holds an unknown state \"\(text ?? "NULL")\"")
        }
        return state
    }

    /// Every file's state, in import order (ignored files last).
    static func files(_ database: SQLiteConnection) throws -> [FileState] {
        // An import record of an earlier version has no warnings: read as 0 (`switchyard status` shows it).
        let warnings = try isCurrent(database) ? "warnings" : "0"
        return try database.rows(
            """
            SELECT file, state, records, imported, skipped, \(warnings), last_line, size, ignored_columns
            FROM \(filesTable) ORDER BY position
            """
        ).map {
            FileState(
                file: $0[0].text ?? "", state: try parse($0[1].text, as: ImportFileState.self, in: database),
                records: Int($0[2].integer ?? 0),
                imported: Int($0[3].integer ?? 0), skipped: Int($0[4].integer ?? 0), warnings: Int($0[5].integer ?? 0),
                lastLine: Int($0[6].integer ?? 0), size: Int($0[7].integer ?? 0), ignoredColumns: $0[8].text ?? "")
        }
    }

    /// Forgets every row and problem of `file` and sets it back to pending, in one transaction: its zip entry was
    /// found corrupt (a checksum or length is only known at the entry's end), so the batches committed from it
    /// cannot be trusted, and a resume (with a good copy of the feed) reads it again from its first line.
    static func restart(_ database: SQLiteConnection, file: GTFSFile) throws {
        try database.transaction {
            // Dropped, not emptied: a corrupt header may have added columns a good copy does not have (the
            // writer creates the table again; no index exists before every file is loaded).
            try database.execute("DROP TABLE IF EXISTS \(quotedIdentifier(file.tableName))")
            // The file's own warnings (its name's case) stay: they were recorded when the import began.
            try database.run(
                "DELETE FROM \(problemsTable) WHERE file = ? AND kind != 'file_name_case'", [.text(file.fileName)])
            try database.run(
                "DELETE FROM \(countsTable) WHERE file = ? AND kind != 'file_name_case'", [.text(file.fileName)])
            try database.run(
                """
                UPDATE \(filesTable) SET state = 'pending', records = 0, imported = 0, skipped = 0,
                    warnings = (SELECT count(*) FROM \(problemsTable) WHERE file = ?1), last_line = 0,
                    ignored_columns = '' WHERE file = ?1
                """, [.text(file.fileName)])
        }
    }

    static func setState(_ database: SQLiteConnection, _ state: ImportState) throws {
        let finished = state == .complete ? "datetime('now')" : "NULL"
        try database.run(
            "UPDATE \(importTable) SET state = ?, updated_at = datetime('now'), finished_at = \(finished) WHERE id = 1",
            [.text(state.rawValue)])
    }

    /// The problems of `severity` listed for `file`, the first `limit` in the order they were met.
    static func problems(
        _ database: SQLiteConnection, file: String, severity: ImportProblem.Severity, limit: Int
    ) throws -> [ImportProblem] {
        try database.rows(
            "SELECT line, field, kind, reason FROM \(problemsTable) WHERE file = ? AND severity = ? ORDER BY rowid LIMIT ?",
            [.text(file), .text(severity.rawValue), .integer(Int64(limit))]
        ).map {
            ImportProblem(
                file: file, line: Int($0[0].integer ?? 0), field: $0[1].text,
                kind: ImportProblem.Kind(rawValue: $0[2].text ?? "") ?? .malformedRecord, reason: $0[3].text ?? "")
        }
    }

    /// How many problems of each kind `file` had, and the first listed example of each, in kind order.
    static func counts(_ database: SQLiteConnection, file: String) throws -> [ImportSummary.Count] {
        let rows = try database.rows(
            """
            SELECT c.kind, c.count,
                (SELECT rowid FROM \(problemsTable) p WHERE p.file = c.file AND p.kind = c.kind ORDER BY rowid LIMIT 1)
            FROM \(countsTable) c WHERE c.file = ?
            """, [.text(file)])
        var counts: [ImportSummary.Count] = []
        for row in rows {
            guard let kind = ImportProblem.Kind(rawValue: row[0].text ?? "") else { continue }
            var example: ImportProblem?
            if let rowid = row[2].integer {
                example = try database.rows(
                    "SELECT line, field, reason FROM \(problemsTable) WHERE rowid = ?", [.integer(rowid)]
                ).first.map {
                    ImportProblem(
                        file: file, line: Int($0[0].integer ?? 0), field: $0[1].text, kind: kind,
                        reason: $0[2].text ?? "")
                }
            }
            counts.append(ImportSummary.Count(kind: kind, count: Int(row[1].integer ?? 0), example: example))
        }
        let order = Dictionary(uniqueKeysWithValues: ImportProblem.Kind.allCases.enumerated().map { ($1, $0) })
        return counts.sorted { order[$0.kind]! < order[$1.kind]! }
    }
}

/// One file's committed state in an import record (``ImportRecord``'s `_switchyard_import_files` row).
@_spi(ImportDestinations)
public struct ImportFileRecord: Sendable, Hashable {
    /// The file's name in the feed (`stop_times.txt`), or its path for a file not imported.
    public var file: String
    public var state: ImportFileState
    /// Records read (committed or skipped).
    public var records: Int
    /// Rows committed.
    public var imported: Int
    public var skipped: Int
    public var warnings: Int
    /// The line of the last record committed: a resumed import skips records up to it.
    public var lastLine: Int
    /// The file's uncompressed size in bytes.
    public var size: Int
    /// Header fields not imported, with the reason, comma-separated.
    public var ignoredColumns: String

    public init(
        file: String, state: ImportFileState, records: Int, imported: Int, skipped: Int, warnings: Int, lastLine: Int,
        size: Int, ignoredColumns: String
    ) {
        self.file = file
        self.state = state
        self.records = records
        self.imported = imported
        self.skipped = skipped
        self.warnings = warnings
        self.lastLine = lastLine
        self.size = size
        self.ignoredColumns = ignoredColumns
    }
}

/// An import record's header (`_switchyard_import`'s row).
@_spi(ImportDestinations)
public struct ImportHeader: Sendable, Hashable {
    /// The feed's path as given.
    public var feed: String
    /// ``GTFSFeed/fingerprint`` of the feed the import began with.
    public var fingerprint: String
    public var state: ImportState
    public var batchSize: Int
    public var encoding: ImportOptions.Encoding

    public init(feed: String, fingerprint: String, state: ImportState, batchSize: Int, encoding: ImportOptions.Encoding)
    {
        self.feed = feed
        self.fingerprint = fingerprint
        self.state = state
        self.batchSize = batchSize
        self.encoding = encoding
    }
}

extension ImportRecord {
    /// The summary of the import `database` records, named `name`.
    static func summary(
        _ database: SQLiteConnection, name: String, problemExamples: Int, seconds: Double
    ) throws -> ImportSummary {
        let header = try header(database)
        let states = try files(database)
        let files = try states.filter { $0.state != .ignored }.map { state in
            ImportSummary.File(
                name: state.file, records: state.records, imported: state.imported, skipped: state.skipped,
                warnings: state.warnings, isComplete: state.state == .complete, ignoredColumns: state.ignoredColumns,
                problems: try problems(database, file: state.file, severity: .error, limit: problemExamples),
                counts: try counts(database, file: state.file))
        }
        return ImportSummary(
            state: header?.state ?? .failed, database: name, files: files,
            ignoredFiles: states.filter { $0.state == .ignored }.map(\.file),
            checks: try SQLiteChecks.recorded(database), seconds: seconds)
    }
}

/// The rows an import record starts with, whatever the destination: every file (GTFS files in import order, then
/// the files not imported, as `ignored`) and the feed's own warnings (a file named in another case), each counted
/// once for its file.
@_spi(ImportDestinations)
public struct ImportRecordStart: Sendable {
    public struct File: Sendable {
        /// The GTFS file name, or the path of a file not imported.
        public var name: String
        public var position: Int
        /// ``ImportFileState/pending`` or ``ImportFileState/ignored``.
        public var state: ImportFileState
        public var size: Int
    }

    public var files: [File] = []
    public var problems: [ImportProblem] = []

    public init(_ feed: GTFSFeed) {
        for (position, file) in GTFSFile.allCases.enumerated() {
            guard let entry = feed.files[file] else { continue }
            files.append(File(name: file.fileName, position: position, state: .pending, size: Int(entry.size)))
        }
        for (offset, path) in feed.ignoredFiles.enumerated() {
            files.append(File(name: path, position: 1000 + offset, state: .ignored, size: 0))
        }
        for (file, path) in feed.renamedFiles.sorted(by: { $0.key < $1.key }) {
            problems.append(
                ImportProblem(
                    file: file.fileName, line: 0, field: nil, kind: .fileNameCase,
                    reason: "read from \(path): GTFS names its files in lower case"))
        }
    }
}
