#if Postgres
    import PostgresNIO
    @_spi(ImportDestinations) import SwitchyardTransit

    /// The import record in PostgreSQL: the same tables, columns and meaning as SQLite's (SwitchyardTransit's `ImportRecord`), in the
    /// import's schema, written in the same transactions as the rows they describe. Problems and checks keep the
    /// order they were met in through an identity column (`id`, `position`), where SQLite uses its `rowid`.
    enum PostgresRecord {
        /// Creates the schema if missing, the record's tables, and the record of `feed`'s import, in one transaction.
        static func create(
            _ session: PostgresSession, feed: GTFSFeed, options: ImportOptions, times: PostgresTimes
        ) async throws {
            try await session.transaction {
                // Looked up first: CREATE SCHEMA IF NOT EXISTS needs the right to create schemas even when it exists.
                let schema = try await session.rows("SELECT 1 FROM pg_namespace WHERE nspname = \(session.url.schema)")
                if schema.isEmpty { try await session.run("CREATE SCHEMA \(quoted(session.url.schema))") }
                for statement in [
                    """
                    CREATE TABLE \(ImportRecord.importTable) (id integer PRIMARY KEY CHECK (id = 1), feed text NOT NULL,
                        fingerprint text NOT NULL, state text NOT NULL, batch_size integer NOT NULL,
                        encoding text NOT NULL, started_at timestamptz NOT NULL, updated_at timestamptz NOT NULL,
                        finished_at timestamptz, times text NOT NULL DEFAULT 'seconds')
                    """,
                    """
                    CREATE TABLE \(ImportRecord.filesTable) (file text PRIMARY KEY, position integer NOT NULL, state text NOT NULL,
                        records bigint NOT NULL DEFAULT 0, imported bigint NOT NULL DEFAULT 0,
                        skipped bigint NOT NULL DEFAULT 0, warnings bigint NOT NULL DEFAULT 0,
                        last_line bigint NOT NULL DEFAULT 0, size bigint NOT NULL DEFAULT 0,
                        ignored_columns text NOT NULL DEFAULT '')
                    """,
                    """
                    CREATE TABLE \(ImportRecord.problemsTable) (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                        file text NOT NULL, line bigint NOT NULL, field text, severity text NOT NULL, kind text NOT NULL,
                        reason text NOT NULL)
                    """,
                    """
                    CREATE TABLE \(ImportRecord.countsTable) (file text NOT NULL, kind text NOT NULL, severity text NOT NULL,
                        count bigint NOT NULL, PRIMARY KEY (file, kind))
                    """,
                    """
                    CREATE TABLE \(ImportRecord.checksTable) (position integer PRIMARY KEY, name text NOT NULL UNIQUE,
                        count bigint NOT NULL, examples text NOT NULL)
                    """,
                    """
                    CREATE TABLE \(ImportRecord.sourceTable) (id integer PRIMARY KEY CHECK (id = 1), url text NOT NULL, etag text,
                        last_modified text, size bigint NOT NULL, checksum text)
                    """,
                ] {
                    try await session.run(statement)
                }
                try await insertStart(session, feed: feed, options: options)
                _ = try await session.rows(
                    "UPDATE \(unescaped: ImportRecord.importTable) SET times = \(times.rawValue) WHERE id = 1")
            }
        }

        /// The record's first rows: the header, the source, every file, the feed's own warnings.
        private static func insertStart(_ session: PostgresSession, feed: GTFSFeed, options: ImportOptions) async throws
        {
            _ = try await session.rows(
                """
                INSERT INTO \(unescaped: ImportRecord.importTable) (id, feed, fingerprint, state, batch_size, encoding, started_at,
                    updated_at) VALUES (1, \(feed.path), \(feed.fingerprint), 'loading', \(options.batchSize),
                    \(options.encoding.rawValue), now(), now())
                """)
            if let source = options.source {
                _ = try await session.rows(
                    """
                    INSERT INTO \(unescaped: ImportRecord.sourceTable) (id, url, etag, last_modified, size, checksum)
                    VALUES (1, \(source.url), \(source.etag), \(source.lastModified), \(Int(source.size)), \(source.checksum))
                    """)
            }
            let start = ImportRecordStart(feed)
            for file in start.files {
                _ = try await session.rows(
                    """
                    INSERT INTO \(unescaped: ImportRecord.filesTable) (file, position, state, size)
                    VALUES (\(file.name), \(file.position), \(file.state.rawValue), \(file.size))
                    """)
            }
            for problem in start.problems {
                try await insert(problem, session)
                _ = try await session.rows(
                    """
                    INSERT INTO \(unescaped: ImportRecord.countsTable) VALUES (\(problem.file), \(problem.kind.rawValue), 'warning', 1)
                    """)
                _ = try await session.rows(
                    "UPDATE \(unescaped: ImportRecord.filesTable) SET warnings = warnings + 1 WHERE file = \(problem.file)"
                )
            }
        }

        static func insert(_ problem: ImportProblem, _ session: PostgresSession) async throws {
            _ = try await session.rows(
                """
                INSERT INTO \(unescaped: ImportRecord.problemsTable) (file, line, field, severity, kind, reason)
                VALUES (\(problem.file), \(problem.line), \(problem.field), \(problem.severity.rawValue),
                    \(problem.kind.rawValue), \(problem.reason))
                """)
        }

        /// Whether the schema has a table named `name`.
        static func tableExists(_ session: PostgresSession, _ name: String) async throws -> Bool {
            let rows = try await session.rows(
                """
                SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = \(session.url.schema) AND tablename = \(name)
                """)
            return !rows.isEmpty
        }

        /// The import's header, or nil if the schema holds no import record.
        static func header(_ session: PostgresSession) async throws -> ImportHeader? {
            guard try await tableExists(session, ImportRecord.importTable) else { return nil }
            let rows = try await session.rows(
                "SELECT feed, fingerprint, state, batch_size, encoding FROM \(unescaped: ImportRecord.importTable) WHERE id = 1"
            )
            guard let row = rows.first else { return nil }
            let (feed, fingerprint, state, batchSize, encoding) = try decode(
                row, (String, String, String, Int, String).self, session)
            return ImportHeader(
                feed: feed, fingerprint: fingerprint, state: try parse(state, as: ImportState.self, session),
                batchSize: batchSize, encoding: ImportOptions.Encoding(rawValue: encoding) ?? .automatic)
        }

        /// How the import stores times: as recorded when it began (``PostgresTimes/seconds`` for a record from before
        /// the choice existed).
        static func times(_ session: PostgresSession) async throws -> PostgresTimes {
            let column = try await session.rows(
                """
                SELECT 1 FROM information_schema.columns WHERE table_schema = \(session.url.schema)
                    AND table_name = \(ImportRecord.importTable) AND column_name = 'times'
                """)
            guard !column.isEmpty else { return .seconds }
            let rows = try await session.rows("SELECT times FROM \(unescaped: ImportRecord.importTable) WHERE id = 1")
            guard let row = rows.first else { return .seconds }
            return try parse(try decode(row, String.self, session), as: PostgresTimes.self, session)
        }

        /// Every file's state, in import order (ignored files last).
        static func files(_ session: PostgresSession) async throws -> [ImportFileRecord] {
            let rows = try await session.rows(
                """
                SELECT file, state, records, imported, skipped, warnings, last_line, size, ignored_columns
                FROM \(unescaped: ImportRecord.filesTable) ORDER BY position
                """)
            return try rows.map { row in
                let (file, state, records, imported, skipped, warnings, lastLine, size, ignored) = try decode(
                    row, (String, String, Int, Int, Int, Int, Int, Int, String).self, session)
                return ImportFileRecord(
                    file: file, state: try parse(state, as: ImportFileState.self, session), records: records,
                    imported: imported, skipped: skipped, warnings: warnings, lastLine: lastLine, size: size,
                    ignoredColumns: ignored)
            }
        }

        /// Where the imported feed was downloaded from, if it was.
        static func source(_ session: PostgresSession) async throws -> FeedSource? {
            let rows = try await session.rows(
                "SELECT url, etag, last_modified, size, checksum FROM \(unescaped: ImportRecord.sourceTable) WHERE id = 1"
            )
            guard let row = rows.first else { return nil }
            let (url, etag, lastModified, size, checksum) = try decode(
                row, (String, String?, String?, Int, String?).self, session)
            return FeedSource(url: url, etag: etag, lastModified: lastModified, size: Int64(size), checksum: checksum)
        }

        static func setState(_ session: PostgresSession, _ state: ImportState) async throws {
            _ = try await session.rows(
                """
                UPDATE \(unescaped: ImportRecord.importTable) SET state = \(state.rawValue), updated_at = now(),
                    finished_at = \(unescaped: state == .complete ? "now()" : "NULL") WHERE id = 1
                """)
        }

        /// Forgets every row and problem of `file` and sets it back to pending, in one transaction (its archive entry
        /// was found corrupt: see ``ImportDestination/end(_:restarting:problemExamples:seconds:)``).
        static func restart(_ session: PostgresSession, file: GTFSFile) async throws {
            try await session.transaction {
                try await session.run("DROP TABLE IF EXISTS \(quoted(file.tableName))")
                let name = file.fileName
                _ = try await session.rows(
                    "DELETE FROM \(unescaped: ImportRecord.problemsTable) WHERE file = \(name) AND kind != 'file_name_case'"
                )
                _ = try await session.rows(
                    "DELETE FROM \(unescaped: ImportRecord.countsTable) WHERE file = \(name) AND kind != 'file_name_case'"
                )
                _ = try await session.rows(
                    """
                    UPDATE \(unescaped: ImportRecord.filesTable) SET state = 'pending', records = 0, imported = 0, skipped = 0,
                        warnings = (SELECT count(*) FROM \(unescaped: ImportRecord.problemsTable) WHERE file = \(name)), last_line = 0,
                        ignored_columns = '' WHERE file = \(name)
                    """)
            }
        }

        /// The summary of the import the schema records, named `name`.
        static func summary(
            _ session: PostgresSession, name: String, problemExamples: Int, seconds: Double
        ) async throws -> ImportSummary {
            let header = try await header(session)
            let states = try await files(session)
            var files: [ImportSummary.File] = []
            for state in states where state.state != .ignored {
                files.append(
                    ImportSummary.File(
                        name: state.file, records: state.records, imported: state.imported, skipped: state.skipped,
                        warnings: state.warnings, isComplete: state.state == .complete,
                        ignoredColumns: state.ignoredColumns,
                        problems: try await problems(session, file: state.file, limit: problemExamples),
                        counts: try await counts(session, file: state.file)))
            }
            return ImportSummary(
                state: header?.state ?? .failed, database: name, files: files,
                ignoredFiles: states.filter { $0.state == .ignored }.map(\.file), checks: try await checks(session),
                seconds: seconds)
        }

        /// The first `limit` records of `file` that were skipped, in the order they were met.
        private static func problems(_ session: PostgresSession, file: String, limit: Int) async throws
            -> [ImportProblem]
        {
            let rows = try await session.rows(
                """
                SELECT line, field, kind, reason FROM \(unescaped: ImportRecord.problemsTable)
                WHERE file = \(file) AND severity = 'error' ORDER BY id LIMIT \(limit)
                """)
            return try rows.map { row in
                let (line, field, kind, reason) = try decode(row, (Int, String?, String, String).self, session)
                return ImportProblem(
                    file: file, line: line, field: field, kind: ImportProblem.Kind(rawValue: kind) ?? .malformedRecord,
                    reason: reason)
            }
        }

        /// How many problems of each kind `file` had, with the first listed example of each, in kind order.
        private static func counts(_ session: PostgresSession, file: String) async throws -> [ImportSummary.Count] {
            let rows = try await session.rows(
                """
                SELECT c.kind, c.count, p.line, p.field, p.reason FROM \(unescaped: ImportRecord.countsTable) c
                LEFT JOIN LATERAL (SELECT line, field, reason FROM \(unescaped: ImportRecord.problemsTable) q
                    WHERE q.file = c.file AND q.kind = c.kind ORDER BY id LIMIT 1) p ON true
                WHERE c.file = \(file)
                """)
            var counts: [ImportSummary.Count] = []
            for row in rows {
                let (kindName, count, line, field, reason) = try decode(
                    row, (String, Int, Int?, String?, String?).self, session)
                guard let kind = ImportProblem.Kind(rawValue: kindName) else { continue }
                let example = line.map {
                    ImportProblem(file: file, line: $0, field: field, kind: kind, reason: reason ?? "")
                }
                counts.append(ImportSummary.Count(kind: kind, count: count, example: example))
            }
            let order = Dictionary(uniqueKeysWithValues: ImportProblem.Kind.allCases.enumerated().map { ($1, $0) })
            return counts.sorted { order[$0.kind]! < order[$1.kind]! }
        }

        /// The recorded checks, in order.
        static func checks(_ session: PostgresSession) async throws -> [ImportSummary.Check] {
            let rows = try await session.rows(
                "SELECT name, count, examples FROM \(unescaped: ImportRecord.checksTable) ORDER BY position")
            return try rows.map { row in
                let (name, count, examples) = try decode(row, (String, Int, String).self, session)
                return ImportSummary.Check(
                    name: name, count: count,
                    examples: ImportRecord.examples(examples))
            }
        }

        /// Replaces the recorded checks with `checks`, in order (inside the caller's transaction).
        static func record(_ checks: [ImportSummary.Check], _ session: PostgresSession) async throws {
            try await session.run("DELETE FROM \(ImportRecord.checksTable)")
            for (position, check) in checks.enumerated() {
                _ = try await session.rows(
                    """
                    INSERT INTO \(unescaped: ImportRecord.checksTable) (position, name, count, examples)
                    VALUES (\(position), \(check.name), \(check.count),
                        \(check.examples.joined(separator: ImportRecord.exampleSeparator)))
                    """)
            }
        }

        /// `row` decoded as `types`, a decoding failure as an ``ImportError`` naming the server (a record written by
        /// something else).
        static func decode<each Value: PostgresDecodable>(
            _ row: PostgresRow, _ types: (repeat each Value).Type, _ session: PostgresSession
        ) throws -> (repeat each Value) {
            do {
                return try row.decode((repeat each Value).self)
            } catch {
                throw ImportError(
                    .database, "\(session.url): the import record holds a value of another type: \(error)")
            }
        }

        /// `text`, read from the record, as a state of type `State`.
        private static func parse<State: RawRepresentable<String>>(
            _ text: String, as: State.Type, _ session: PostgresSession
        ) throws -> State {
            guard let state = State(rawValue: text) else {
                throw ImportError(.database, "\(session.url): the import record holds an unknown state \"\(text)\"")
            }
            return state
        }
    }
#endif
