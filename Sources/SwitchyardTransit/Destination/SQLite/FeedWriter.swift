import CSwitchyardSQLite

/// The writer side of an import: one SQLite connection, one transaction per ``RowBatch`` — the rows, their
/// problems, and the file's import record, committed together or not at all.
///
/// Owned by the writer job (a blocking job): not thread-safe. WAL journal and `synchronous=NORMAL`, so readers see
/// each committed batch at once and never block the writer; a process killed at any moment leaves whole batches.
final class FeedWriter {
    let database: SQLiteConnection
    private var file: GTFSFile?
    private var insert: SQLiteStatement?
    /// One `INSERT` of `rowsPerStatement` rows: fewer statement executions per row (each costs a cursor open,
    /// a VDBE run and a halt).
    private var insertMany: SQLiteStatement?
    private var rowsPerStatement = 1
    private let insertProblem: SQLiteStatement
    private let addCount: SQLiteStatement
    private let updateFile: SQLiteStatement
    /// The current file's problem counts by kind, as committed: a warning is listed while its kind's count before
    /// it is under ``ImportProblem/listedWarnings``, so a resumed import lists exactly what an uninterrupted one
    /// does.
    private var counted: [ImportProblem.Kind: Int] = [:]

    init(database: SQLiteConnection) throws {
        self.database = database
        insertProblem = try database.prepare(
            """
            INSERT INTO \(ImportRecord.problemsTable) (file, line, field, severity, kind, reason)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        addCount = try database.prepare(
            """
            INSERT INTO \(ImportRecord.countsTable) (file, kind, severity, count) VALUES (?, ?, ?, ?)
            ON CONFLICT (file, kind) DO UPDATE SET count = count + excluded.count
            """)
        updateFile = try database.prepare(
            """
            UPDATE \(ImportRecord.filesTable) SET records = records + ?, imported = imported + ?,
                skipped = skipped + ?, warnings = warnings + ?, last_line = ?, state = ? WHERE file = ?
            """)
    }

    /// Opens the database for an import: WAL journal, `synchronous=NORMAL`, and (for a new database) 16 KiB pages,
    /// which load a large feed faster than the default 4 KiB (fewer pages to fill, link and log).
    static func openDatabase(_ path: String) throws -> SQLiteConnection {
        let database = try SQLiteConnection(path: path)
        try database.execute("PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
        return database
    }

    /// Commits `batch` in one transaction.
    func write(_ batch: RowBatch) throws {
        try database.transaction {
            if batch.layout.file != file { try begin(batch.layout) }
            try insertRows(batch)
            try insertProblems(batch)
            updateFile.bind(Int64(batch.records), at: 1)
            updateFile.bind(Int64(batch.rowCount), at: 2)
            updateFile.bind(Int64(batch.skipped), at: 3)
            updateFile.bind(Int64(batch.warnings), at: 4)
            updateFile.bind(Int64(batch.lastLine), at: 5)
            try updateFile.bind(.text((batch.isLast ? ImportFileState.complete : .loading).rawValue), at: 6)
            try updateFile.bind(.text(batch.layout.file.fileName), at: 7)
            try updateFile.step()
        }
    }

    /// Lists the batch's skipped records and its warnings while their kind is under the listing bound, and adds
    /// its counts.
    private func insertProblems(_ batch: RowBatch) throws {
        var seen = counted
        for problem in batch.problems {
            let before = seen[problem.kind, default: 0]
            seen[problem.kind] = before + 1
            guard problem.severity == .error || before < ImportProblem.listedWarnings else { continue }
            try insertProblem.bind(.text(problem.file), at: 1)
            insertProblem.bind(Int64(problem.line), at: 2)
            try insertProblem.bind(problem.field.map { .text($0) } ?? .null, at: 3)
            try insertProblem.bind(.text(problem.severity.rawValue), at: 4)
            try insertProblem.bind(.text(problem.kind.rawValue), at: 5)
            try insertProblem.bind(.text(problem.reason), at: 6)
            try insertProblem.step()
        }
        // In kind order: the table's rows come out the same in an interrupted-and-resumed import.
        for kind in ImportProblem.Kind.allCases {
            guard let count = batch.counts[kind] else { continue }
            try addCount.bind(.text(batch.layout.file.fileName), at: 1)
            try addCount.bind(.text(kind.rawValue), at: 2)
            try addCount.bind(.text(kind.severity.rawValue), at: 3)
            addCount.bind(Int64(count), at: 4)
            try addCount.step()
            counted[kind, default: 0] += count
        }
    }

    /// Creates the file's table (or adds extra columns a resumed file's table lacks) and its insert statement.
    private func begin(_ layout: TableLayout) throws {
        try database.execute(layout.createTableSQL)
        let existing = try database.rows("SELECT name FROM pragma_table_info(?)", [.text(layout.file.tableName)])
        for sql in layout.missingColumnsSQL(existing: Set(existing.compactMap { $0[0].text })) {
            try database.execute(sql)
        }
        try database.run(
            "UPDATE \(ImportRecord.filesTable) SET ignored_columns = ? WHERE file = ?",
            [.text(layout.ignoredColumns.joined(separator: ", ")), .text(layout.file.fileName)])
        counted = [:]
        for row in try database.rows(
            "SELECT kind, count FROM \(ImportRecord.countsTable) WHERE file = ?", [.text(layout.file.fileName)])
        {
            if let kind = ImportProblem.Kind(rawValue: row[0].text ?? "") { counted[kind] = Int(row[1].integer ?? 0) }
        }
        insert = try database.prepare(layout.insertSQL(rows: 1))
        let variableLimit = Int(sqlite3_limit(database.handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
        rowsPerStatement = max(1, min(FeedWriter.maximumRowsPerStatement, variableLimit / max(1, layout.columns.count)))
        insertMany = rowsPerStatement > 1 ? try database.prepare(layout.insertSQL(rows: rowsPerStatement)) : nil
        file = layout.file
    }

    static let maximumRowsPerStatement = 32

    private func insertRows(_ batch: RowBatch) throws {
        guard let insert, batch.rowCount > 0 else { return }
        let width = batch.layout.columns.count
        let many = rowsPerStatement
        try batch.text.withUnsafeBytes { text in
            let base = text.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            try batch.cells.withUnsafeBufferPointer { cells in
                var row = 0
                while row < batch.rowCount {
                    let statement: SQLiteStatement
                    let rows: Int
                    if let insertMany, batch.rowCount - row >= many {
                        statement = insertMany
                        rows = many
                    } else {
                        statement = insert
                        rows = 1
                    }
                    var cell = row * width
                    for parameter in 1...(rows * width) {
                        let index = Int32(parameter)
                        switch cells[cell] {
                        case .null: statement.bindNull(at: index)
                        case .integer(let value): statement.bind(value, at: index)
                        case .real(let value): statement.bind(value, at: index)
                        case .text(let offset, let length):
                            statement.bindText(base + Int(offset), count: Int(length), at: index)
                        }
                        cell += 1
                    }
                    try statement.step()
                    row += rows
                }
            }
        }
    }
}
