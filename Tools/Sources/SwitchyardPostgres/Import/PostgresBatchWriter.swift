import PostgresNIO
@_spi(ImportDestinations) import SwitchyardTransit

/// Commits batches into PostgreSQL, one transaction each: `COPY … FROM STDIN` of the rows, `COPY` of the listed
/// problems, the problem counts and the file's import record, then `COMMIT`. Owned by the writer job, one batch
/// at a time.
///
/// Column types: GTFS text → `text`, integers, times (seconds after the service day's start) and dates → `bigint`,
/// `bigint` and `date`, decimals → `double precision`; extra columns → `text`.
struct PostgresBatchWriter {
    let session: PostgresSession
    /// The file whose table the last batch went to.
    private var file: GTFSFile?
    /// The current file's problem counts by kind, as committed (see `FeedWriter`: a warning is listed while its
    /// kind's count is under ``ImportProblem/listedWarnings``, so a resumed import lists what an uninterrupted one
    /// does).
    private var counted: [ImportProblem.Kind: Int] = [:]

    init(session: PostgresSession) {
        self.session = session
    }

    /// The PostgreSQL type of a GTFS column type.
    static func sqlType(_ type: GTFSColumnType) -> String {
        switch type {
        case .text: "text"
        case .integer, .time: "bigint"
        case .date: "date"
        case .real: "double precision"
        }
    }

    /// Commits `group` (consecutive batches of one file, in order) in one transaction, as if each batch had been
    /// committed in turn: the rows in one `COPY`, the problems listed by the same rule, the counts and the file's
    /// record summed, its last line and state from the group's last batch.
    mutating func write(_ group: [RowBatch]) async throws {
        guard let first = group.first, let last = group.last else { return }
        let session = session
        let beginsFile = first.layout.file != file
        var counted = beginsFile ? [:] : self.counted
        try await session.transaction {
            if beginsFile { counted = try await Self.begin(first.layout, session) }
            try await Self.copyRows(group, session)
            counted = try await Self.insertProblems(group, counted: counted, session)
            let records = group.reduce(0) { $0 + $1.records }
            let rows = group.reduce(0) { $0 + $1.rowCount }
            let skipped = group.reduce(0) { $0 + $1.skipped }
            let warnings = group.reduce(0) { $0 + $1.warnings }
            _ = try await session.rows(
                """
                UPDATE \(unescaped: ImportRecord.filesTable) SET records = records + \(records),
                    imported = imported + \(rows), skipped = skipped + \(skipped),
                    warnings = warnings + \(warnings), last_line = \(last.lastLine),
                    state = \((last.isLast ? ImportFileState.complete : .loading).rawValue)
                WHERE file = \(first.layout.file.fileName)
                """)
        }
        file = first.layout.file
        self.counted = counted
    }

    /// Creates the file's table (or adds the extra columns a resumed file's table lacks), records its ignored
    /// columns, and returns its committed problem counts.
    private static func begin(_ layout: TableLayout, _ session: PostgresSession) async throws
        -> [ImportProblem.Kind: Int]
    {
        let table = quoted(layout.file.tableName)
        var definitions = layout.file.fields.map { "\(quoted($0.name)) \(sqlType($0.type))" }
        definitions += layout.extraColumns.map { "\(quoted($0)) text" }
        try await session.run("CREATE TABLE IF NOT EXISTS \(table) (\(definitions.joined(separator: ", ")))")
        let existing = try await session.rows(
            """
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = \(session.url.schema) AND table_name = \(layout.file.tableName)
            """
        ).map { try PostgresRecord.decode($0, String.self, session) }
        // The server keeps the first 63 bytes of a longer name.
        for column in layout.extraColumns where !existing.contains(storedIdentifier(column)) {
            try await session.run("ALTER TABLE \(table) ADD COLUMN \(quoted(column)) text")
        }
        _ = try await session.rows(
            """
            UPDATE \(unescaped: ImportRecord.filesTable) SET ignored_columns = \(layout.ignoredColumns.joined(separator: ", "))
            WHERE file = \(layout.file.fileName)
            """)
        var counted: [ImportProblem.Kind: Int] = [:]
        for row in try await session.rows(
            "SELECT kind, count FROM \(unescaped: ImportRecord.countsTable) WHERE file = \(layout.file.fileName)")
        {
            let (kind, count) = try PostgresRecord.decode(row, (String, Int).self, session)
            if let kind = ImportProblem.Kind(rawValue: kind) { counted[kind] = count }
        }
        return counted
    }

    /// Sends the group's rows through one `COPY … FROM STDIN` (text format), in chunks of about 256 KiB.
    private static func copyRows(_ group: [RowBatch], _ session: PostgresSession) async throws {
        guard let batch = group.first, group.contains(where: { $0.rowCount > 0 }) else { return }
        let columns = batch.layout.columns
        let dates = columns.map { $0.type == .date }
        do {
            try await session.connection.copyFrom(
                // PostgresNIO puts the names in double quotes as given: their own quotes are doubled here.
                table: batch.layout.file.tableName,
                columns: columns.map { String(quoted($0.name).dropFirst().dropLast()) },
                logger: PostgresSession.logger
            ) { writer in
                var buffer = ByteBuffer()
                buffer.reserveCapacity(CopyText.chunkSize + 4096)
                for batch in group {
                    var cell = 0
                    for _ in 0..<batch.rowCount {
                        for column in 0..<columns.count {
                            if column > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
                            CopyText.append(batch.cells[cell], text: batch.text, isDate: dates[column], to: &buffer)
                            cell += 1
                        }
                        buffer.writeInteger(UInt8(ascii: "\n"))
                        if buffer.readableBytes >= CopyText.chunkSize {
                            try await writer.write(buffer)
                            buffer.clear()
                        }
                    }
                }
                if buffer.readableBytes > 0 { try await writer.write(buffer) }
            }
        } catch {
            throw PostgresSession.describe(error, url: session.url)
        }
    }

    /// Lists the batch's skipped records and its warnings while their kind is under the listing bound (one
    /// `COPY`), and adds its counts; returns the counts as committed with this batch.
    private static func insertProblems(
        _ group: [RowBatch], counted: [ImportProblem.Kind: Int], _ session: PostgresSession
    ) async throws -> [ImportProblem.Kind: Int] {
        // Batch by batch, as FeedWriter lists them: a batch's problems are seen against the counts committed
        // before it (its own earlier problems included), and its counts are added after it.
        var listed: [ImportProblem] = []
        var before = counted
        for batch in group {
            var seen = before
            for problem in batch.problems {
                let prior = seen[problem.kind, default: 0]
                seen[problem.kind] = prior + 1
                guard problem.severity == .error || prior < ImportProblem.listedWarnings else { continue }
                listed.append(problem)
            }
            for (kind, count) in batch.counts { before[kind, default: 0] += count }
        }
        if !listed.isEmpty {
            do {
                try await session.connection.copyFrom(
                    table: ImportRecord.problemsTable,
                    columns: ["file", "line", "field", "severity", "kind", "reason"],
                    logger: PostgresSession.logger
                ) { writer in
                    var buffer = ByteBuffer()
                    for problem in listed { CopyText.append(problem, to: &buffer) }
                    try await writer.write(buffer)
                }
            } catch {
                throw PostgresSession.describe(error, url: session.url)
            }
        }
        var committed = counted
        let file = group[0].layout.file.fileName
        // In kind order: the table's rows come out the same in an interrupted-and-resumed import.
        for kind in ImportProblem.Kind.allCases {
            let count = group.reduce(0) { $0 + ($1.counts[kind] ?? 0) }
            guard count > 0 else { continue }
            _ = try await session.rows(
                """
                INSERT INTO \(unescaped: ImportRecord.countsTable) (file, kind, severity, count)
                VALUES (\(file), \(kind.rawValue), \(kind.severity.rawValue), \(count))
                ON CONFLICT (file, kind) DO UPDATE SET count = \(unescaped: ImportRecord.countsTable).count + excluded.count
                """)
            committed[kind, default: 0] += count
        }
        return committed
    }
}
