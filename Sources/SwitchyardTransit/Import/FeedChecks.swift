/// What happens after the last row is committed: indexes for the usual lookups (built after loading, which is
/// many times faster than maintaining them during it), then referential and duplicate-key checks, reported as
/// counts with examples and never enforced (real feeds break them; the data is still useful).
///
/// The work is split so that checks run while the big `stop_times` index is built (WAL readers do not wait for
/// the writer): see `GTFSImporter`'s finishing jobs. Every step is idempotent (`IF NOT EXISTS`; checks replace
/// their rows), so an import killed while indexing or checking finishes them on `--resume`.
///
/// References are counted as **distinct values** that are not found (`stop_times.trip_id → trips.trip_id: 3
/// values, e.g. T9`), duplicates as rows beyond the first of each key.
enum FeedChecks {
    /// Indexes on every table but `stop_times`: small, built first (the checks need the parents' keys).
    static let smallIndexes: [(GTFSFile, [String])] = [
        (.agency, ["agency_id"]), (.stops, ["stop_id"]), (.routes, ["route_id"]), (.trips, ["trip_id"]),
        (.trips, ["route_id"]), (.calendar, ["service_id"]), (.calendarDates, ["service_id", "date"]),
        (.shapes, ["shape_id", "shape_pt_sequence"]), (.frequencies, ["trip_id"]),
    ]

    /// The `stop_times` index: a trip's stops in order. (An index on `stop_times(stop_id)` for departures by stop
    /// costs as much again on a VBB-sized feed; create it yourself if you need it.)
    static let largeIndexes: [(GTFSFile, [String])] = [(.stopTimes, ["trip_id", "stop_sequence"])]

    /// A reference from a child column to a parent column; `parents` may list several (trips.service_id).
    struct Reference: Sendable {
        let child: GTFSFile
        let column: String
        let parents: [(GTFSFile, String)]
        var name: String {
            "\(child.tableName).\(column) → " + parents.map { "\($0.0.tableName).\($0.1)" }.joined(separator: " or ")
        }
    }

    static let references: [Reference] = [
        Reference(child: .stopTimes, column: "trip_id", parents: [(.trips, "trip_id")]),
        Reference(child: .stopTimes, column: "stop_id", parents: [(.stops, "stop_id")]),
        Reference(child: .trips, column: "route_id", parents: [(.routes, "route_id")]),
        Reference(
            child: .trips, column: "service_id", parents: [(.calendar, "service_id"), (.calendarDates, "service_id")]),
        Reference(child: .trips, column: "shape_id", parents: [(.shapes, "shape_id")]),
        Reference(child: .routes, column: "agency_id", parents: [(.agency, "agency_id")]),
        Reference(child: .stops, column: "parent_station", parents: [(.stops, "stop_id")]),
        Reference(child: .frequencies, column: "trip_id", parents: [(.trips, "trip_id")]),
        Reference(child: .transfers, column: "from_stop_id", parents: [(.stops, "stop_id")]),
        Reference(child: .transfers, column: "to_stop_id", parents: [(.stops, "stop_id")]),
    ]

    /// Keys that should be unique per table.
    static let keys: [(GTFSFile, [String])] = [
        (.agency, ["agency_id"]), (.stops, ["stop_id"]), (.routes, ["route_id"]), (.trips, ["trip_id"]),
        (.stopTimes, ["trip_id", "stop_sequence"]), (.calendar, ["service_id"]),
        (.calendarDates, ["service_id", "date"]), (.shapes, ["shape_id", "shape_pt_sequence"]),
    ]

    /// Which checks run while the `stop_times` index is built, and which need it.
    enum Stage: Sendable { case beforeLargeIndexes, afterLargeIndexes }

    static func createIndexes(
        _ indexes: [(GTFSFile, [String])], _ database: SQLiteConnection, present: Set<GTFSFile>
    ) throws {
        // Sorting for CREATE INDEX may use a helper thread (the other core is busy checking at the same time).
        try database.execute("PRAGMA threads = 2")
        for (file, columns) in indexes where present.contains(file) {
            let target =
                "\(quotedIdentifier(indexName(file, columns))) ON \(quotedIdentifier(file.tableName)) (\(columns.map(quotedIdentifier).joined(separator: ", ")))"
            guard keys.contains(where: { $0.0 == file && $0.1 == columns }) else {
                try database.execute("CREATE INDEX IF NOT EXISTS \(target)")
                continue
            }
            // A key index is built UNIQUE when the key is (the usual case): then the duplicate check is free.
            // A feed with duplicates pays one failed attempt and gets a plain index.
            do {
                try database.execute("CREATE UNIQUE INDEX IF NOT EXISTS \(target)")
            } catch let error as SQLiteError where error.code & 0xFF == 19 {  // SQLITE_CONSTRAINT
                try database.execute("CREATE INDEX IF NOT EXISTS \(target)")
            }
        }
    }

    static func indexName(_ file: GTFSFile, _ columns: [String]) -> String {
        "\(file.tableName)_\(columns.joined(separator: "_"))"
    }

    /// Query-planner statistics, sampled (`analysis_limit`), so it costs milliseconds on any feed.
    static func analyze(_ database: SQLiteConnection) throws {
        try database.execute("PRAGMA analysis_limit = 1000; ANALYZE")
    }

    /// The checks of `stage` whose tables are present, in a fixed order.
    static func run(_ stage: Stage, _ database: SQLiteConnection, present: Set<GTFSFile>) throws -> [ImportSummary
        .Check]
    {
        // The trip reference and the stop_times key read the stop_times index; everything else runs before it.
        func needsLargeIndex(_ file: GTFSFile, _ column: String) -> Bool { file == .stopTimes && column != "stop_id" }
        var checks: [ImportSummary.Check] = []
        for reference in references where present.contains(reference.child) {
            guard needsLargeIndex(reference.child, reference.column) == (stage == .afterLargeIndexes) else { continue }
            checks.append(try check(reference, database, present: present))
        }
        for (file, columns) in keys where present.contains(file) {
            guard needsLargeIndex(file, columns[0]) == (stage == .afterLargeIndexes) else { continue }
            checks.append(try duplicates(file, columns, database))
        }
        return checks
    }

    /// Distinct values of the child column found in none of the parents.
    private static func check(
        _ reference: Reference, _ database: SQLiteConnection, present: Set<GTFSFile>
    ) throws -> ImportSummary.Check {
        let parents = reference.parents.filter { present.contains($0.0) }
        let missing = parents.map { parent in
            "NOT EXISTS (SELECT 1 FROM \(quotedIdentifier(parent.0.tableName)) p WHERE p.\(quotedIdentifier(parent.1)) = v)"
        }
        let values =
            "SELECT DISTINCT \(quotedIdentifier(reference.column)) AS v FROM \(quotedIdentifier(reference.child.tableName))"
        let condition = (["v IS NOT NULL"] + missing).joined(separator: " AND ")
        let found = try database.rows("SELECT v FROM (\(values)) WHERE \(condition)")
        return ImportSummary.Check(
            name: reference.name, count: found.count, examples: found.prefix(3).compactMap { $0[0].text })
    }

    /// Rows beyond the first of each key (rows with a NULL in the key are not counted). Zero without a scan when
    /// the key's index was built UNIQUE.
    private static func duplicates(_ file: GTFSFile, _ columns: [String], _ database: SQLiteConnection) throws
        -> ImportSummary.Check
    {
        let name = "duplicate \(file.tableName).\(columns.joined(separator: "+"))"
        let unique = try database.rows(
            "SELECT \"unique\" FROM pragma_index_list(?) WHERE name = ?",
            [.text(file.tableName), .text(indexName(file, columns))])
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
        try database.transaction {
            try database.execute("DELETE FROM \(ImportRecord.checksTable)")
            for check in checks {
                try database.run(
                    "INSERT INTO \(ImportRecord.checksTable) VALUES (?, ?, ?)",
                    [
                        .text(check.name), .integer(Int64(check.count)),
                        .text(check.examples.joined(separator: "\u{1F}")),
                    ])
            }
        }
    }

    /// The recorded checks.
    static func recorded(_ database: SQLiteConnection) throws -> [ImportSummary.Check] {
        try database.rows("SELECT name, count, examples FROM \(ImportRecord.checksTable) ORDER BY rowid").map {
            let examples = $0[2].text ?? ""
            return ImportSummary.Check(
                name: $0[0].text ?? "", count: Int($0[1].integer ?? 0),
                examples: examples.isEmpty ? [] : examples.split(separator: "\u{1F}").map(String.init))
        }
    }
}
