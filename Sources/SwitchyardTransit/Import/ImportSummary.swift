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
    }

    /// How many problems of one kind a file had.
    public struct Count: Sendable, Hashable {
        /// The kind (its severity says whether the records were skipped or imported).
        public var kind: ImportProblem.Kind
        /// How many.
        public var count: Int
        /// The first one listed, if any is.
        public var example: ImportProblem?
    }

    /// One post-load check: references that point nowhere, or keys that repeat.
    public struct Check: Sendable, Hashable {
        /// e.g. `stop_times.trip_id → trips.trip_id` or `duplicate trips.trip_id`.
        public var name: String
        /// How many rows fail it.
        public var count: Int
        /// A few failing values.
        public var examples: [String]
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

    /// Whether every file is complete.
    public var isComplete: Bool { state == .complete }
    /// Records over all files.
    public var records: Int { files.reduce(0) { $0 + $1.records } }
    /// Records skipped over all files.
    public var skipped: Int { files.reduce(0) { $0 + $1.skipped } }
    /// Warnings over all files.
    public var warnings: Int { files.reduce(0) { $0 + $1.warnings } }

    /// The summary as one line of JSON: `{"state": "complete", "files": {"stop_times.txt": {"records": N,
    /// "imported": N, "skipped": N, "warnings": N, …}, …}, "seconds": S, …}`; `"problems"` lists a file's first
    /// skipped records, `"warnings_by_kind"` counts its warnings by kind with a first example each.
    public var json: String {
        var out = "{\"state\": \(jsonString(state.rawValue)), \"database\": \(jsonString(database)), \"files\": {"
        out += files.map { file in
            var entry = "\(jsonString(file.name)): {\"records\": \(file.records), \"imported\": \(file.imported), "
            entry += "\"skipped\": \(file.skipped), \"warnings\": \(file.warnings), \"complete\": \(file.isComplete)"
            if !file.problems.isEmpty {
                entry += ", \"problems\": [" + file.problems.map { problem in
                    "{\"line\": \(problem.line), \"field\": \(problem.field.map(jsonString) ?? "null"), \"kind\": \(jsonString(problem.kind.rawValue)), \"reason\": \(jsonString(problem.reason))}"
                }.joined(separator: ", ") + "]"
            }
            let warnings = file.counts.filter { $0.kind.severity == .warning }
            if !warnings.isEmpty {
                entry += ", \"warnings_by_kind\": {" + warnings.map { count in
                    var item = "\(jsonString(count.kind.rawValue)): {\"count\": \(count.count)"
                    if let example = count.example {
                        item += ", \"example\": {\"line\": \(example.line), \"field\": \(example.field.map(jsonString) ?? "null"), \"reason\": \(jsonString(example.reason))}"
                    }
                    return item + "}"
                }.joined(separator: ", ") + "}"
            }
            if !file.ignoredColumns.isEmpty { entry += ", \"ignored_columns\": \(jsonString(file.ignoredColumns))" }
            return entry + "}"
        }.joined(separator: ", ")
        out += "}, \"ignored_files\": [" + ignoredFiles.map(jsonString).joined(separator: ", ") + "]"
        out += ", \"checks\": {" + checks.map { check in
            "\(jsonString(check.name)): {\"count\": \(check.count), \"examples\": [\(check.examples.map(jsonString).joined(separator: ", "))]}"
        }.joined(separator: ", ") + "}"
        out += ", \"seconds\": \(formatted(seconds, decimals: 3))}"
        return out
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
