/// What an import did, per file, read back from the import record — so a resumed import reports the whole
/// import, not only its last part.
public struct ImportSummary: Sendable, Hashable {
    /// One file's outcome.
    public struct File: Sendable, Hashable {
        /// The GTFS file name, e.g. `stop_times.txt`.
        public var name: String
        /// Records read (every record of a completed file).
        public var records: Int
        /// Rows committed to its table.
        public var imported: Int
        /// Records not imported: `records - imported`; the first are in ``problems``, all in
        /// `_switchyard_import_problems`.
        public var skipped: Int
        /// Warnings: about imported records (a record can have several) and about the file itself (its name's
        /// case, an empty file, a header that is not UTF-8); counted by kind in ``counts``.
        public var warnings: Int
        /// Whether every record is committed.
        public var isComplete: Bool
        /// Header fields not imported (empty name, repeated, reserved).
        public var ignoredColumns: String
        /// The first skipped records, with reasons.
        public var problems: [ImportProblem]
        /// Problems by kind, skipped records and warnings alike, each with its first example.
        public var counts: [Count]

        @_spi(ImportDestinations)
        public init(
            name: String, records: Int, imported: Int, skipped: Int, warnings: Int, isComplete: Bool,
            ignoredColumns: String, problems: [ImportProblem], counts: [ImportSummary.Count]
        ) {
            self.name = name
            self.records = records
            self.imported = imported
            self.skipped = skipped
            self.warnings = warnings
            self.isComplete = isComplete
            self.ignoredColumns = ignoredColumns
            self.problems = problems
            self.counts = counts
        }
    }

    /// How many problems of one kind a file had.
    public struct Count: Sendable, Hashable {
        /// The kind (its severity says whether the records were skipped or imported).
        public var kind: ImportProblem.Kind
        /// How many.
        public var count: Int
        /// The first one listed, if any is.
        public var example: ImportProblem?

        @_spi(ImportDestinations)
        public init(kind: ImportProblem.Kind, count: Int, example: ImportProblem?) {
            self.kind = kind
            self.count = count
            self.example = example
        }
    }

    /// One post-load check: references that point nowhere, or keys that repeat.
    public struct Check: Sendable, Hashable {
        /// e.g. `stop_times.trip_id → trips.trip_id` or `duplicate trips.trip_id`.
        public var name: String
        /// How many rows fail it.
        public var count: Int
        /// A few failing values.
        public var examples: [String]

        @_spi(ImportDestinations)
        public init(name: String, count: Int, examples: [String]) {
            self.name = name
            self.count = count
            self.examples = examples
        }
    }

    /// How the import ended: ``ImportState/complete``, ``ImportState/interrupted`` or ``ImportState/failed`` (or
    /// ``ImportState/loading`` when read back after a killed import).
    public var state: ImportState
    /// The database written to.
    public var database: String
    /// Files in import order.
    public var files: [File]
    /// Files in the feed that were not imported.
    public var ignoredFiles: [String]
    /// Reference and duplicate-key checks (after a complete load; reported, not enforced).
    public var checks: [Check]
    /// Seconds this run took.
    public var seconds: Double

    @_spi(ImportDestinations)
    public init(
        state: ImportState, database: String, files: [File], ignoredFiles: [String], checks: [Check], seconds: Double
    ) {
        self.state = state
        self.database = database
        self.files = files
        self.ignoredFiles = ignoredFiles
        self.checks = checks
        self.seconds = seconds
    }

    /// Whether every file is complete.
    public var isComplete: Bool { state == .complete }
    /// Records over all files.
    public var records: Int { files.reduce(0) { $0 + $1.records } }
    /// Records skipped over all files.
    public var skipped: Int { files.reduce(0) { $0 + $1.skipped } }
    /// Warnings over all files.
    public var warnings: Int { files.reduce(0) { $0 + $1.warnings } }

    /// The summary as one line of JSON: `{"state": "complete", "database": …, "files": {"stop_times.txt":
    /// {"records": N, "imported": N, "skipped": N, "warnings": N, "complete": true, …}, …}, "ignored_files": […],
    /// "checks": {…}, "seconds": S}`. A file's `"problems"` lists its first skipped records, `"warnings_by_kind"`
    /// counts its warnings by kind with a first example each, `"ignored_columns"` names header fields not imported
    /// (each only when not empty). Members in that order, text a terminal could act on escaped as `\uXXXX`.
    /// Through another encoder (`JSONEncoder`), the same keys, in that encoder's order and escapes.
    public var json: String {
        // Every member encodes: strings, integers, booleans and finite fixed-point numbers.
        (try? JSONLineEncoder.encode(self)) ?? "{}"
    }
}

extension ImportSummary: Encodable {
    private enum CodingKeys: String, CodingKey {
        case state, database, files
        case ignoredFiles = "ignored_files"
        case checks, seconds
    }

    /// The members of ``json``, in its order; `seconds` as a number rounded to milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state.rawValue, forKey: .state)
        try container.encode(database, forKey: .database)
        try container.encode(NamedMembers(files.map { ($0.name, $0) }), forKey: .files)
        try container.encode(ignoredFiles, forKey: .ignoredFiles)
        try container.encode(NamedMembers(checks.map { ($0.name, $0) }), forKey: .checks)
        try container.encode(FixedDecimal(value: seconds, decimals: 3), forKey: .seconds)
    }
}

extension ImportSummary.File: Encodable {
    private enum CodingKeys: String, CodingKey {
        case records, imported, skipped, warnings, complete, problems
        case warningsByKind = "warnings_by_kind"
        case ignoredColumns = "ignored_columns"
    }

    /// A skipped record as the summary lists it.
    private struct Problem: Encodable {
        var problem: ImportProblem
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: NamedKey.self)
            try container.encode(problem.line, forKey: NamedKey("line"))
            try container.encode(problem.field, forKey: NamedKey("field"))  // null when none
            try container.encode(problem.kind.rawValue, forKey: NamedKey("kind"))
            try container.encode(problem.reason, forKey: NamedKey("reason"))
        }
    }

    /// A warning kind's count, with its first example (line, field, reason) when one is listed.
    private struct WarningCount: Encodable {
        var count: ImportSummary.Count
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: NamedKey.self)
            try container.encode(count.count, forKey: NamedKey("count"))
            guard let example = count.example else { return }
            var nested = container.nestedContainer(keyedBy: NamedKey.self, forKey: NamedKey("example"))
            try nested.encode(example.line, forKey: NamedKey("line"))
            try nested.encode(example.field, forKey: NamedKey("field"))
            try nested.encode(example.reason, forKey: NamedKey("reason"))
        }
    }

    /// The members of ``ImportSummary/json``'s file entries, in its order.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(records, forKey: .records)
        try container.encode(imported, forKey: .imported)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(isComplete, forKey: .complete)
        if !problems.isEmpty { try container.encode(problems.map(Problem.init), forKey: .problems) }
        let warningCounts = counts.filter { $0.kind.severity == .warning }
        if !warningCounts.isEmpty {
            let byKind = NamedMembers(warningCounts.map { ($0.kind.rawValue, WarningCount(count: $0)) })
            try container.encode(byKind, forKey: .warningsByKind)
        }
        if !ignoredColumns.isEmpty { try container.encode(ignoredColumns, forKey: .ignoredColumns) }
    }
}

extension ImportSummary.Check: Encodable {
    private enum CodingKeys: String, CodingKey { case count, examples }

    /// `{"count": N, "examples": […]}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(count, forKey: .count)
        try container.encode(examples, forKey: .examples)
    }
}

/// `value` with `decimals` digits after the point, without Foundation.
public func formatted(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "0" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let whole = scaled / Int64(scale)
    var fraction = String(scaled % Int64(scale))
    fraction = String(repeating: "0", count: max(0, decimals - fraction.count)) + fraction
    return (value < 0 && scaled != 0 ? "-" : "") + String(whole) + (decimals > 0 ? "." + fraction : "")
}
