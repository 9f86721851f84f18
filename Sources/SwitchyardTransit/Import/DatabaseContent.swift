/// What an import database holds, for comparing imports (tests compare an interrupted-and-resumed import with an
/// uninterrupted one): per table, its row count and an FNV-1a hash of every value in rowid order. The import's
/// problem list and per-file counts are included; the import record's timestamps are not.
struct DatabaseContent: Equatable, CustomStringConvertible {
    var tables: [String: (rows: Int, hash: UInt64)]

    static func == (lhs: DatabaseContent, rhs: DatabaseContent) -> Bool {
        lhs.tables.count == rhs.tables.count
            && lhs.tables.allSatisfy { name, value in rhs.tables[name].map { $0 == value } ?? false }
    }

    var description: String {
        tables.sorted { $0.key < $1.key }.map {
            "\($0.key): \($0.value.rows) rows #\(String($0.value.hash, radix: 16))"
        }
        .joined(separator: "\n")
    }

    init(_ path: String) throws {
        let database = try SQLiteConnection(path: path, readOnly: true)
        let names = try database.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('_switchyard_import') ORDER BY name"
        ).compactMap { $0[0].text }
        var tables: [String: (Int, UInt64)] = [:]
        for name in names {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var rows = 0
            let columns =
                name == "_switchyard_import_files"
                ? "file, state, records, imported, skipped, warnings, last_line" : "*"
            for row in try database.rows("SELECT \(columns) FROM \(quotedIdentifier(name)) ORDER BY rowid") {
                rows += 1
                for value in row {
                    for byte in "\(value)|".utf8 {
                        hash ^= UInt64(byte)
                        hash = hash &* 0x100_0000_01b3
                    }
                }
            }
            tables[name] = (rows, hash)
        }
        self.tables = tables
    }
}
