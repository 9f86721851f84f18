#if Postgres
    import PostgresNIO
    @_spi(ImportDestinations) import SwitchyardTransit

    /// ``FeedChecks`` in PostgreSQL: the same indexes and checks as in SQLite, and the same counts.
    enum PostgresChecks {
        /// Builds `indexes` on the tables in `present`; a key's index `UNIQUE` when the key is (the usual case: the
        /// duplicate check is then free), else plain.
        static func createIndexes(
            _ indexes: [(GTFSFile, [String])], _ session: PostgresSession, present: Set<GTFSFile>
        ) async throws {
            for (file, columns) in indexes where present.contains(file) {
                let target =
                    "\(quoted(FeedChecks.indexName(file, columns))) ON \(quoted(file.tableName)) (\(columns.map(quoted).joined(separator: ", ")))"
                guard FeedChecks.isKey(file, columns) else {
                    try await session.run("CREATE INDEX IF NOT EXISTS \(target)")
                    continue
                }
                do {
                    try await session.run("CREATE UNIQUE INDEX IF NOT EXISTS \(target)")
                } catch let error as ImportError where error.reason.contains("SQLSTATE 23505") {  // unique_violation
                    try await session.run("CREATE INDEX IF NOT EXISTS \(target)")
                }
            }
        }

        /// The checks of `stage` whose tables are present, in ``FeedChecks/plan(_:present:)``'s order.
        static func run(_ stage: ImportCheckStage, _ session: PostgresSession, present: Set<GTFSFile>) async throws
            -> [ImportSummary.Check]
        {
            // The distinct values of a large column (stop_times.trip_id) are hashed: at the default 4 MB, the server
            // spills the hash table into so many batches that one check takes minutes instead of a second.
            try await session.run("SET work_mem = '64MB'")
            var checks: [ImportSummary.Check] = []
            for check in FeedChecks.plan(stage, present: present) {
                switch check {
                case .reference(let reference, let parents):
                    checks.append(try await missing(reference, parents: parents, session, name: check.name))
                case .duplicates(let file, let columns):
                    checks.append(try await duplicates(file, columns, session, name: check.name))
                }
            }
            return checks
        }

        /// Distinct values of the child column found in none of the parents (the first three as examples, in byte
        /// order).
        private static func missing(
            _ reference: FeedChecks.Reference, parents: [(GTFSFile, String)], _ session: PostgresSession, name: String
        ) async throws -> ImportSummary.Check {
            let conditions =
                ["v IS NOT NULL"]
                + parents.map { parent in
                    "NOT EXISTS (SELECT 1 FROM \(quoted(parent.0.tableName)) p WHERE p.\(quoted(parent.1)) = v)"
                }
            let values = "SELECT DISTINCT \(quoted(reference.column)) AS v FROM \(quoted(reference.child.tableName))"
            let rows = try await session.rows(
                """
                SELECT count(*) OVER (), v::text FROM (\(unescaped: values)) d
                WHERE \(unescaped: conditions.joined(separator: " AND ")) ORDER BY v::text COLLATE "C" LIMIT 3
                """)
            var count = 0
            var examples: [String] = []
            for row in rows {
                let (total, value) = try PostgresRecord.decode(row, (Int, String).self, session)
                count = total
                examples.append(value)
            }
            return ImportSummary.Check(name: name, count: count, examples: examples)
        }

        /// Rows beyond the first of each key (rows with a NULL in the key are not counted). Zero without a scan when
        /// the key's index was built UNIQUE.
        private static func duplicates(
            _ file: GTFSFile, _ columns: [String], _ session: PostgresSession, name: String
        ) async throws -> ImportSummary.Check {
            let unique = try await session.rows(
                """
                SELECT i.indisunique FROM pg_catalog.pg_index i
                JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid
                JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = \(session.url.schema) AND c.relname = \(FeedChecks.indexName(file, columns))
                """)
            if let row = unique.first, try PostgresRecord.decode(row, Bool.self, session) {
                return ImportSummary.Check(name: name, count: 0, examples: [])
            }
            let table = quoted(file.tableName)
            let list = columns.map(quoted).joined(separator: ", ")
            let notNull = columns.map { "\(quoted($0)) IS NOT NULL" }.joined(separator: " AND ")
            let text = columns.map { "coalesce(\(quoted($0))::text, 'NULL')" }.joined(separator: " || '/' || ")
            let rows = try await session.rows(
                """
                SELECT (SELECT count(*) FROM \(unescaped: table) WHERE \(unescaped: notNull))
                    - (SELECT count(*) FROM (SELECT DISTINCT \(unescaped: list) FROM \(unescaped: table)
                        WHERE \(unescaped: notNull)) d)
                """)
            var count = 0
            if let row = rows.first { count = try PostgresRecord.decode(row, Int.self, session) }
            guard count > 0 else { return ImportSummary.Check(name: name, count: 0, examples: []) }
            let examples = try await session.rows(
                """
                SELECT \(unescaped: text) FROM \(unescaped: table) WHERE \(unescaped: notNull)
                GROUP BY \(unescaped: list) HAVING count(*) > 1 LIMIT 3
                """
            ).map { try PostgresRecord.decode($0, String.self, session) }
            return ImportSummary.Check(name: name, count: count, examples: examples)
        }
    }
#endif
