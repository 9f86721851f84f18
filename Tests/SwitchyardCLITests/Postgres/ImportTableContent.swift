#if CLI
    import Foundation

    /// What an import holds, table by table, as text rows in a normal form both databases print alike (read with the
    /// `sqlite3` and `psql` commands, values separated by `|`): GTFS tables' rows sorted (a heap's order is not the
    /// order of commits once the space of a rolled-back batch is reused),
    /// dates as `YYYYMMDD`, whole decimals as `13.0`, NULL as an empty value; of the import record, the files' counts, the problems, the counts by kind, and the checks'
    /// names and counts (their examples and timestamps aside). Equal for an SQLite and a PostgreSQL import of one feed.
    struct ImportTableContent: Equatable, CustomStringConvertible {
        var tables: [String: [String]]

        var description: String {
            tables.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.count) rows" }.joined(separator: ", ")
        }

        /// The tables of an import's record, each as (columns, order) in SQLite and PostgreSQL.
        private static let record: [(name: String, columns: String, sqliteOrder: String, postgresOrder: String)] = [
            (
                "_switchyard_import_files",
                "file, state, records, imported, skipped, warnings, last_line, size, ignored_columns",
                "position", "position"
            ),
            ("_switchyard_import_problems", "file, line, field, severity, kind, reason", "rowid", "id"),
            (
                "_switchyard_import_counts", "file, kind, severity, count", "file, kind",
                "file COLLATE \"C\", kind COLLATE \"C\""
            ),
            ("_switchyard_import_checks", "name, count", "rowid", "position"),
        ]

        /// The import in the SQLite database at `path`.
        static func sqlite(_ path: String, tables: [String]) async throws -> ImportTableContent {
            var content: [String: [String]] = [:]
            for table in tables {
                content[table] = try await DatabaseTables.query(path, "SELECT * FROM \"\(table)\";").sorted()
            }
            for (name, columns, order, _) in record {
                content[name] = try await DatabaseTables.query(
                    path, "SELECT \(columns) FROM \(name) ORDER BY \(order);")
            }
            return ImportTableContent(tables: content)
        }

        /// The import in `schema` of the PostgreSQL database at `url` (without `?schema=`).
        static func postgres(_ url: String, schema: String, tables: [String]) async throws -> ImportTableContent {
            var content: [String: [String]] = [:]
            for table in tables {
                let columns = try await psql(
                    url,
                    """
                    SELECT string_agg(CASE data_type
                        WHEN 'date' THEN format('to_char(%I, ''YYYYMMDD'')', column_name)
                        WHEN 'double precision' THEN format(
                            'CASE WHEN %1$I = trunc(%1$I) AND abs(%1$I) < 1e15 THEN trunc(%1$I)::bigint || ''.0'' ELSE %1$I::text END',
                            column_name)
                        ELSE format('%I', column_name) END, ', ' ORDER BY ordinal_position)
                    FROM information_schema.columns WHERE table_schema = '\(schema)' AND table_name = '\(table)'
                    """)
                content[table] = try await psql(url, "SELECT \(columns[0]) FROM \"\(schema)\".\"\(table)\"").sorted()
            }
            for (name, columns, _, order) in record {
                content[name] = try await psql(url, "SELECT \(columns) FROM \"\(schema)\".\(name) ORDER BY \(order)")
            }
            return ImportTableContent(tables: content)
        }

        /// The output lines of `sql` run by `psql` on `url`, values separated by `|`.
        static func psql(_ url: String, _ sql: String) async throws -> [String] {
            let output = try await SwitchyardProcess.run(
                ["-X", "-q", "-A", "-t", "-F", "|", "-v", "ON_ERROR_STOP=1", url, "-c", sql],
                executable: URL(fileURLWithPath: "/usr/bin/psql"))
            guard output.status == 0 else { throw SQLiteCommandError(message: "psql: \(output.standardError)") }
            return output.standardOutput.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }
    }
#endif
