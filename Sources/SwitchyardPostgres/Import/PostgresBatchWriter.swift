#if Postgres
    import PostgresNIO
    import Switchyard
    @_spi(ImportDestinations) import SwitchyardTransit

    /// Commits batches into PostgreSQL, consecutive batches of one file together (see ``write(_:then:)``): in one
    /// transaction, `COPY … FROM STDIN` of the rows, `COPY` of the listed problems, the problem counts and the file's
    /// import record, then `COMMIT`. Owned by the writer job.
    ///
    /// Column types: GTFS text → `text`, integers → `bigint`, times → ``PostgresTimes``, dates → `date`, decimals →
    /// `double precision`; extra columns → `text`.
    struct PostgresBatchWriter {
        let session: PostgresSession
        /// How time columns are stored.
        let times: PostgresTimes
        /// The file whose table the last batch went to.
        private var file: GTFSFile?
        /// The current file's problem counts by kind, as committed (see `FeedWriter`: a warning is listed while its
        /// kind's count is under ``ImportProblem/listedWarnings``, so a resumed import lists what an uninterrupted one
        /// does).
        private var counted: [ImportProblem.Kind: Int] = [:]

        init(session: PostgresSession, times: PostgresTimes) {
            self.session = session
            self.times = times
        }

        /// The PostgreSQL type of a GTFS column type.
        static func sqlType(_ type: GTFSColumnType, times: PostgresTimes) -> String {
            switch type {
            case .text: "text"
            case .integer: "bigint"
            case .time: times.sqlType
            case .date: "date"
            case .real: "double precision"
            }
        }

        /// What one transaction committed: its batches in order (without their values), and what ended it.
        struct Group {
            var batches: [RowBatch] = []
            /// The next batch, of another file, received before the group ended (it begins the next group).
            var carried: RowBatch?
            /// The channel finished while the group was open: no batch follows.
            var channelFinished = false
        }

        /// Commits `first` and the batches of its file that follow it in `channel`, in one transaction, as if each
        /// batch had been committed in turn: the rows stream through one `COPY` as batches arrive, then the problems
        /// are listed by the same rule, and the counts and the file's record are summed, its last line and state from
        /// the group's last batch.
        ///
        /// The group ends at the file's last batch, at ``largestGroup`` batches, once the transaction has been open
        /// ``longestOpen``, or when the channel finishes. Waiting for the next batch inside the `COPY` costs the
        /// server nothing, and the rows of each batch go out as it arrives, so the server works while the readers
        /// read; only the values of the batch being sent are held.
        mutating func write(_ first: consuming RowBatch, then channel: BoundedChannel<RowBatch>) async throws -> Group {
            let session = session
            let layout = first.layout
            let beginsFile = layout.file != file
            var counted = beginsFile ? [:] : self.counted
            var group = Group()
            var pending: RowBatch? = consume first  // moved on into the COPY, so its values are released once sent
            try await session.transaction {
                if beginsFile { counted = try await Self.begin(layout, times: times, session) }
                group = try await Self.copyRows(pending.take()!, then: channel, times: times, session)
                counted = try await Self.insertProblems(group.batches, counted: counted, session)
                let batches = group.batches
                let records = batches.reduce(0) { $0 + $1.records }
                let rows = batches.reduce(0) { $0 + $1.rowCount }
                let skipped = batches.reduce(0) { $0 + $1.skipped }
                let warnings = batches.reduce(0) { $0 + $1.warnings }
                let last = batches[batches.count - 1]
                _ = try await session.rows(
                    """
                    UPDATE \(unescaped: ImportRecord.filesTable) SET records = records + \(records),
                        imported = imported + \(rows), skipped = skipped + \(skipped),
                        warnings = warnings + \(warnings), last_line = \(last.lastLine),
                        state = \((last.isLast ? ImportFileState.complete : .loading).rawValue)
                    WHERE file = \(layout.file.fileName)
                    """)
            }
            file = layout.file
            self.counted = counted
            return group
        }

        /// The most batches one transaction commits.
        static let largestGroup = 16

        /// How long a transaction stays open for more batches: a slow reader's rows still commit (and show in
        /// `switchyard status`) about this often.
        static let longestOpen = Duration.milliseconds(250)

        /// Creates the file's table (or adds the extra columns a resumed file's table lacks), records its ignored
        /// columns, and returns its committed problem counts.
        private static func begin(_ layout: TableLayout, times: PostgresTimes, _ session: PostgresSession) async throws
            -> [ImportProblem.Kind: Int]
        {
            let table = quoted(layout.file.tableName)
            var definitions = layout.file.fields.map { "\(quoted($0.name)) \(sqlType($0.type, times: times))" }
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

        /// Sends `first`'s rows, then those of the batches of its file that follow in `channel`, through one
        /// `COPY … FROM STDIN` (text format) in chunks of about ``CopyText/chunkSize``, until the group ends (see
        /// ``write(_:then:)``). A file's only batch with no rows sends no `COPY`.
        private static func copyRows(
            _ first: consuming RowBatch, then channel: BoundedChannel<RowBatch>, times: PostgresTimes,
            _ session: PostgresSession
        ) async throws -> Group {
            var group = Group()
            guard !(first.isLast && first.rowCount == 0) else {
                group.batches = [first]
                return group
            }
            let file = first.layout.file
            let columns = first.layout.columns
            let forms = columns.map { column -> CopyText.Form in
                switch column.type {
                case .date: .date
                case .time where times == .interval: .interval
                default: .number
                }
            }
            let opened = ContinuousClock.now
            var batch = consume first
            do {
                try await session.connection.copyFrom(
                    // PostgresNIO puts the names in double quotes as given: their own quotes are doubled here.
                    table: file.tableName,
                    columns: columns.map { String(quoted($0.name).dropFirst().dropLast()) },
                    logger: session.logger
                ) { writer in
                    var buffer = ByteBuffer()
                    buffer.reserveCapacity(CopyText.chunkSize + 4096)
                    while true {
                        var cell = 0
                        for _ in 0..<batch.rowCount {
                            for column in 0..<columns.count {
                                if column > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
                                CopyText.append(batch.cells[cell], text: batch.text, form: forms[column], to: &buffer)
                                cell += 1
                            }
                            buffer.writeInteger(UInt8(ascii: "\n"))
                            if buffer.readableBytes >= CopyText.chunkSize {
                                try await writer.write(buffer)
                                buffer.clear()
                            }
                        }
                        group.batches.append(batch.droppingValues())
                        if batch.isLast || group.batches.count >= largestGroup
                            || ContinuousClock.now - opened >= longestOpen
                        {
                            break
                        }
                        // The buffered rows go out before a wait for the next batch.
                        if buffer.readableBytes > 0, channel.count == 0 {
                            try await writer.write(buffer)
                            buffer.clear()
                        }
                        guard let next = try await channel.receive() else {
                            group.channelFinished = true
                            break
                        }
                        guard next.layout.file == file else {
                            group.carried = next
                            break
                        }
                        batch = next
                    }
                    if buffer.readableBytes > 0 { try await writer.write(buffer) }
                }
            } catch {
                throw PostgresSession.describe(error, url: session.url)
            }
            return group
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
                        logger: session.logger
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
#endif
