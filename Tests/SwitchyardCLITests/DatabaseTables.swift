#if CLI
    import Foundation

    /// What an import database's tables hold, read with the `sqlite3` command (Scripts/install-system-packages.sh
    /// installs it), for comparing an interrupted-and-resumed import with an uninterrupted one: per table, its row count
    /// and an FNV-1a hash of its rows in rowid order. The import record's own table (timestamps) is left out, and of its
    /// per-file table only the counts. Read through the command, the tests need nothing internal of SwitchyardTransit.
    struct DatabaseTables: Equatable, CustomStringConvertible {
        var tables: [String: Table]

        struct Table: Equatable {
            var rows: Int
            var hash: UInt64
        }

        var description: String {
            tables.sorted { $0.key < $1.key }.map {
                "\($0.key): \($0.value.rows) rows #\(String($0.value.hash, radix: 16))"
            }
            .joined(separator: "\n")
        }

        init(_ database: String) async throws {
            let names = try await Self.query(
                database,
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
                    + "AND name <> '_switchyard_import' ORDER BY name;")
            var tables: [String: Table] = [:]
            for name in names {
                let columns =
                    name == "_switchyard_import_files"
                    ? "file, state, records, imported, skipped, warnings, last_line" : "*"
                let quoted = Self.quoted(name)
                let count = try await Self.count(database, table: name)
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                for line in try await Self.query(database, "SELECT \(columns) FROM \(quoted) ORDER BY rowid;") {
                    for byte in (line + "\n").utf8 {
                        hash ^= UInt64(byte)
                        hash = hash &* 0x100_0000_01b3
                    }
                }
                tables[name] = Table(rows: count ?? -1, hash: hash)
            }
            self.tables = tables
        }

        /// The rows of `table` (a table name, not quoted).
        static func count(_ database: String, table: String) async throws -> Int? {
            try await query(database, "SELECT count(*) FROM \(quoted(table));").first.flatMap { Int($0) }
        }

        /// `name` as an SQL identifier.
        private static func quoted(_ name: String) -> String {
            "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }

        /// The output lines of `sql` run read-only on `database` (values separated by `|`).
        static func query(_ database: String, _ sql: String) async throws -> [String] {
            let output = try await SwitchyardProcess.run(
                ["-readonly", "-batch", database, sql], executable: URL(fileURLWithPath: "/usr/bin/sqlite3"))
            guard output.status == 0 else {
                throw SQLiteCommandError(message: "sqlite3 \(database): \(output.standardError)")
            }
            return output.standardOutput.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }
    }

    struct SQLiteCommandError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
#endif
