/// ``FeedChecks`` in SQLite: the indexes, the checks' queries, and the checks' record.
enum SQLiteChecks {
    /// Builds `indexes` on the tables in `present`; a key's index `UNIQUE` when the key is (the usual case: the
    /// duplicate check is then free), else plain.
    static func createIndexes(
        _ indexes: [(GTFSFile, [String])], _ database: SQLiteConnection, present: Set<GTFSFile>
    ) throws {
        // One thread sorts (SQLite's default): the checks run beside the large index already, and a helper
        // thread's sorter buffers would add to the import's peak memory.
        for (file, columns) in indexes where present.contains(file) {
            let target =
                "\(quotedIdentifier(FeedChecks.indexName(file, columns))) ON \(quotedIdentifier(file.tableName)) (\(columns.map(quotedIdentifier).joined(separator: ", ")))"
            guard FeedChecks.isKey(file, columns) else {
                try database.execute("CREATE INDEX IF NOT EXISTS \(target)")
                continue
            }
            // A feed with duplicates pays one failed attempt and gets a plain index.
            do {
                try database.execute("CREATE UNIQUE INDEX IF NOT EXISTS \(target)")
            } catch let error as SQLiteError where error.code & 0xFF == 19 {  // SQLITE_CONSTRAINT
                try database.execute("CREATE INDEX IF NOT EXISTS \(target)")
            }
        }
    }

    /// Query-planner statistics, sampled (`analysis_limit`), so it costs milliseconds on any feed.
    static func analyze(_ database: SQLiteConnection) throws {
        try database.execute("PRAGMA analysis_limit = 1000; ANALYZE")
    }

    /// The checks of `stage` whose tables are present, in ``FeedChecks/plan(_:present:)``'s order.
    static func run(_ stage: ImportCheckStage, _ database: SQLiteConnection, present: Set<GTFSFile>) throws
        -> [ImportSummary.Check]
    {
        try FeedChecks.plan(stage, present: present).map { check in
            switch check {
            case .reference(let reference, let parents):
                try missing(reference, parents: parents, database, name: check.name)
            case .duplicates(let file, let columns):
                try duplicates(file, columns, database, name: check.name)
            }
        }
    }

    /// Distinct values of the child column found in none of the parents.
    private static func missing(
        _ reference: FeedChecks.Reference, parents: [(GTFSFile, String)], _ database: SQLiteConnection, name: String
    ) throws -> ImportSummary.Check {
        let missing = parents.map { parent in
            "NOT EXISTS (SELECT 1 FROM \(quotedIdentifier(parent.0.tableName)) p WHERE p.\(quotedIdentifier(parent.1)) = v)"
        }
        let values =
            "SELECT DISTINCT \(quotedIdentifier(reference.column)) AS v FROM \(quotedIdentifier(reference.child.tableName))"
        let condition = (["v IS NOT NULL"] + missing).joined(separator: " AND ")
        let found = try database.rows("SELECT v FROM (\(values)) WHERE \(condition)")
        return ImportSummary.Check(name: name, count: found.count, examples: found.prefix(3).compactMap { $0[0].text })
    }

    /// Rows beyond the first of each key (rows with a NULL in the key are not counted). Zero without a scan when
    /// the key's index was built UNIQUE.
    private static func duplicates(
        _ file: GTFSFile, _ columns: [String], _ database: SQLiteConnection, name: String
    ) throws -> ImportSummary.Check {
        let unique = try database.rows(
            "SELECT \"unique\" FROM pragma_index_list(?) WHERE name = ?",
            [.text(file.tableName), .text(FeedChecks.indexName(file, columns))])
        if unique.first?.first?.integer == 1 { return ImportSummary.Check(name: name, count: 0, examples: []) }
        let table = quotedIdentifier(file.tableName)
        let list = columns.map(quotedIdentifier).joined(separator: ", ")
        let notNull = columns.map { "\(quotedIdentifier($0)) IS NOT NULL" }.joined(separator: " AND ")
        let rows = try database.rows("SELECT count(*) FROM \(table) WHERE \(notNull)").first?.first?.integer ?? 0
        let distinct =
            try database.rows("SELECT count(*) FROM (SELECT DISTINCT \(list) FROM \(table) WHERE \(notNull))")
            .first?.first?.integer ?? 0
        let count = Int(rows - distinct)
        let examples =
            count == 0
            ? []
            : try database.rows(
                "SELECT \(list) FROM \(table) WHERE \(notNull) GROUP BY \(list) HAVING count(*) > 1 LIMIT 3"
            ).map { row in row.map { $0.text ?? "NULL" }.joined(separator: "/") }
        return ImportSummary.Check(name: name, count: count, examples: examples)
    }

    /// Replaces the recorded checks with `checks`, in order.
    static func record(_ checks: [ImportSummary.Check], _ database: SQLiteConnection) throws {
        try database.execute("DELETE FROM \(ImportRecord.checksTable)")
        for check in checks {
            try database.run(
                "INSERT INTO \(ImportRecord.checksTable) VALUES (?, ?, ?)",
                [
                    .text(check.name), .integer(Int64(check.count)),
                    .text(check.examples.joined(separator: ImportRecord.exampleSeparator)),
                ])
        }
    }

    /// The recorded checks.
    static func recorded(_ database: SQLiteConnection) throws -> [ImportSummary.Check] {
        try database.rows("SELECT name, count, examples FROM \(ImportRecord.checksTable) ORDER BY rowid").map {
            ImportSummary.Check(
                name: $0[0].text ?? "", count: Int($0[1].integer ?? 0),
                examples: ImportRecord.examples($0[2].text ?? ""))
        }
    }
}
