import Testing

@_spi(ImportDestinations) @testable import SwitchyardTransit

/// The JSON lines the importer prints (`--progress json` updates, the summary, a failed import's summary, `status
/// --json`), byte for byte: scripts read them, so their keys, order, spacing, number formats and escapes are a
/// contract. The expected lines were printed by the string-built renderer these lines replaced, for the same values.
@Suite("Import JSON output: byte for byte")
struct ImportJSONOutputTests {
    /// Text from a feed may hold anything: quotes, backslashes, controls, a terminal escape, a bidirectional
    /// override, non-ASCII letters.
    static let awkward = "we\"ird\\na\u{1B}[31mme\n\t\r\u{85}\u{202E}é/ü.txt"

    static let problem = ImportProblem(
        file: "stop_times.txt", line: 12, field: "arrival_time", kind: .missingValue, reason: "required value is empty")
    static let warning = ImportProblem(
        file: "stop_times.txt", line: 14, field: nil, kind: .extraFields, reason: "2 more fields than the header")

    static let summary = ImportSummary(
        state: .complete, database: "out/vbb \"2\".sqlite",
        files: [
            ImportSummary.File(
                name: "stop_times.txt", records: 11, imported: 9, skipped: 2, warnings: 3, isComplete: true,
                ignoredColumns: "", problems: [problem],
                counts: [
                    ImportSummary.Count(kind: .missingValue, count: 2, example: problem),
                    ImportSummary.Count(kind: .extraFields, count: 2, example: warning),
                    ImportSummary.Count(kind: .nulBytes, count: 1, example: nil),
                ]),
            ImportSummary.File(
                name: awkward, records: 0, imported: 0, skipped: 0, warnings: 0, isComplete: false,
                ignoredColumns: "column 4 (empty name), \"x\"", problems: [], counts: []),
        ],
        ignoredFiles: ["notes.md", awkward],
        checks: [
            ImportSummary.Check(name: "stop_times.trip_id → trips.trip_id", count: 2, examples: ["T1", awkward]),
            ImportSummary.Check(name: "duplicate trips.trip_id", count: 0, examples: []),
        ],
        seconds: 12.3456)

    static let emptySummary = ImportSummary(
        state: .interrupted, database: "", files: [], ignoredFiles: [], checks: [], seconds: 0)

    static let status = ImportStatus(
        feed: "feeds/vbb.zip", state: .loading,
        files: [
            ImportStatus.File(
                name: "agency.txt", state: .complete, rows: 38, records: 38, skipped: 0, warnings: 0, size: 4_096),
            ImportStatus.File(
                name: awkward, state: .pending, rows: 0, records: 0, skipped: 0, warnings: 0, size: 0),
        ],
        ignoredFiles: ["readme.txt"])

    static func progress(phase: ImportProgress.Phase, outcome: ImportState?, seconds: Double) -> ImportProgress {
        var progress = ImportProgress(
            phase: phase,
            files: [
                ImportProgress.File(
                    name: "stops.txt", bytesRead: 1_000, totalBytes: 3_000, recordsRead: 10, rowsCommitted: 9,
                    skipped: 1, warnings: 2, isComplete: false, rowsThisRun: 9, secondsThisRun: 0.5),
                ImportProgress.File(
                    name: awkward, bytesRead: 7, totalBytes: 7, recordsRead: 1, rowsCommitted: 1, skipped: 0,
                    warnings: 0, isComplete: true, rowsThisRun: 1, secondsThisRun: 0.25),
            ],
            seconds: seconds)
        progress.outcome = outcome
        return progress
    }

    static let failure = ImportError(.malformedRecord, "a stray quote", file: "feed.zip/\(awkward)", line: 7)

    /// What the string-built renderer printed for the values above.
    static let expected: [(String, String)] = [
        (
            "summary",
            #"{"state": "complete", "database": "out/vbb \"2\".sqlite", "files": {"stop_times.txt": {"records": 11, "imported": 9, "skipped": 2, "warnings": 3, "complete": true, "problems": [{"line": 12, "field": "arrival_time", "kind": "missing_value", "reason": "required value is empty"}], "warnings_by_kind": {"extra_fields": {"count": 2, "example": {"line": 14, "field": null, "reason": "2 more fields than the header"}}, "nul_bytes": {"count": 1}}}, "we\"ird\\na\u001b[31mme\n\t\r\u0085\u202eé/ü.txt": {"records": 0, "imported": 0, "skipped": 0, "warnings": 0, "complete": false, "ignored_columns": "column 4 (empty name), \"x\""}}, "ignored_files": ["notes.md", "we\"ird\\na\u001b[31mme\n\t\r\u0085\u202eé/ü.txt"], "checks": {"stop_times.trip_id → trips.trip_id": {"count": 2, "examples": ["T1", "we\"ird\\na\u001b[31mme\n\t\r\u0085\u202eé/ü.txt"]}, "duplicate trips.trip_id": {"count": 0, "examples": []}}, "seconds": 12.346}"#
        ),
        (
            "empty summary",
            #"{"state": "interrupted", "database": "", "files": {}, "ignored_files": [], "checks": {}, "seconds": 0.000}"#
        ),
        (
            "status",
            #"{"state": "loading", "feed": "feeds/vbb.zip", "files": {"agency.txt": {"state": "complete", "rows": 38, "records": 38, "skipped": 0, "warnings": 0}, "we\"ird\\na\u001b[31mme\n\t\r\u0085\u202eé/ü.txt": {"state": "pending", "rows": 0, "records": 0, "skipped": 0, "warnings": 0}}}"#
        ),
        (
            "progress while loading",
            #"{"progress": {"phase": "loading", "fraction": 0.3349, "seconds": 1.235, "files": {"stops.txt": {"bytes": 1000, "total_bytes": 3000, "rows": 9, "records": 10, "skipped": 1, "warnings": 2, "complete": false}, "we\"ird\\na\u001b[31mme\n\t\r\u0085\u202eé/ü.txt": {"bytes": 7, "total_bytes": 7, "rows": 1, "records": 1, "skipped": 0, "warnings": 0, "complete": true}}}}"#
        ),
        (
            "progress once failed",
            #"{"progress": {"phase": "finished", "outcome": "failed", "fraction": 0.3349, "seconds": 0.000, "files": {"stops.txt": {"bytes": 1000, "total_bytes": 3000, "rows": 9, "records": 10, "skipped": 1, "warnings": 2, "complete": false}, "we\"ird\\na\u001b[31mme\n\t\r\u0085\u202eé/ü.txt": {"bytes": 7, "total_bytes": 7, "rows": 1, "records": 1, "skipped": 0, "warnings": 0, "complete": true}}}}"#
        ),
        (
            "failed import",
            #"{"state": "failed", "database": "db.sqlite", "error": {"kind": "malformed_record", "message": "feed.zip/we\"ird\\na\u001b[31mme\n\t\r\u0085\u202eé/ü.txt:7: a stray quote", "file": "feed.zip/we\"ird\\na\u001b[31mme\n\t\r\u0085\u202eé/ü.txt", "line": 7}, "files": {"agency.txt": {"records": 38, "imported": 38, "skipped": 0, "warnings": 0, "complete": true}, "we\"ird\\na\u001b[31mme\n\t\r\u0085\u202eé/ü.txt": {"records": 0, "imported": 0, "skipped": 0, "warnings": 0, "complete": false}}}"#
        ),
        (
            "failed import without a record",
            #"{"state": "failed", "database": "", "error": {"kind": "database", "message": "locked", "file": null, "line": null}, "files": {}}"#
        ),
    ]

    @Test("each line as it was", arguments: 0..<7)
    func lines(index: Int) {
        let actual = [
            Self.summary.json,
            Self.emptySummary.json,
            Self.status.json,
            Self.progress(phase: .loading, outcome: nil, seconds: 1.2345).json,
            Self.progress(phase: .finished, outcome: .failed, seconds: -0.0004).json,
            Self.failure.summaryJSON(database: "db.sqlite", status: Self.status),
            ImportError(.database, "locked").summaryJSON(database: "", status: nil),
        ][index]
        let (name, expected) = Self.expected[index]
        #expect(actual == expected, "\(name)")
    }
}
