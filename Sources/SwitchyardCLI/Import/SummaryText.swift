#if CLI
    import SwitchyardTransit

    /// The import summary as a table for people (control characters in it written out, see ``TerminalText``).
    ///
    /// Order: per file records / imported / skipped / warnings; warnings by kind; skipped records; columns and files
    /// not imported; the checks; then a verdict line that leads with what was lost, so a lossy import can never end
    /// on "all checks pass".
    enum SummaryText {
        static func render(_ summary: ImportSummary) -> String {
            var lines: [String] = [""]
            lines += table(summary)
            lines += warnings(summary)
            let problems = summary.files.flatMap(\.problems)
            if !problems.isEmpty {
                lines.append("")
                lines.append(
                    "SKIPPED records, not imported (the first of each file; all are in _switchyard_import_problems):")
                for problem in problems { lines.append("  \(problem)") }
            }
            for file in summary.files where !file.ignoredColumns.isEmpty {
                lines.append("\(file.name): columns not imported: \(file.ignoredColumns)")
            }
            if !summary.ignoredFiles.isEmpty {
                lines.append("")
                lines.append(
                    "not imported (files that are not GTFS tables, or outside the feed's folder): \(summary.ignoredFiles.joined(separator: ", "))"
                )
            }
            lines += checks(summary)
            lines.append("")
            lines.append(verdict(summary))
            // Names, values and paths come from the feed and the command line: nothing in them may act on the terminal.
            return lines.map(TerminalText.visible).joined(separator: "\n")
        }

        /// The last line: the state, then what was skipped and warned about, before the time and the database.
        static func verdict(_ summary: ImportSummary) -> String {
            var text = summary.state.rawValue
            if summary.skipped > 0 {
                let files = summary.files.filter { $0.skipped > 0 }.map { "\($0.name) \($0.skipped)" }
                text += ", \(summary.skipped) of \(summary.records) RECORDS SKIPPED (\(files.joined(separator: ", ")))"
            } else if summary.isComplete {
                text += ", all \(summary.records) records imported"
            }
            if summary.warnings > 0 { text += ", \(summary.warnings) warning\(summary.warnings == 1 ? "" : "s")" }
            return text + ", in \(duration(summary.seconds)): \(summary.database)"
        }

        private static func table(_ summary: ImportSummary) -> [String] {
            var lines = [
                "\(pad("file", 24)) \(left("records", 11)) \(left("imported", 11)) \(left("skipped", 9)) \(left("warnings", 9))"
            ]
            for file in summary.files {
                let mark = file.isComplete ? "" : "  (incomplete)"
                lines.append(
                    "\(pad(file.name, 24)) \(left(String(file.records), 11)) \(left(String(file.imported), 11)) \(left(String(file.skipped), 9)) \(left(String(file.warnings), 9))\(mark)"
                )
            }
            let imported = summary.files.reduce(0) { $0 + $1.imported }
            lines.append(
                "\(pad("total", 24)) \(left(String(summary.records), 11)) \(left(String(imported), 11)) \(left(String(summary.skipped), 9)) \(left(String(summary.warnings), 9))"
            )
            return lines
        }

        /// The warning kinds whose example's reason is printed after its line and field: those that quote the value.
        private static let kindsWithTheirExample: Set<ImportProblem.Kind> = [
            .notUTF8, .invalidOptionalValue, .expectedValue, .extraFields, .decimalInteger, .timeWithoutSeconds,
            .fileNameCase, .headerEncoding,
        ]

        private static func warnings(_ summary: ImportSummary) -> [String] {
            let counts = summary.files.flatMap { file in
                file.counts.filter { $0.kind.severity == .warning }.map { (file.name, $0) }
            }
            guard !counts.isEmpty else { return [] }
            var lines = [
                "", "warnings (the records were imported; the first of each kind are in _switchyard_import_problems):",
            ]
            for (file, count) in counts {
                var line = "  \(file): \(count.count) × \(count.kind.summary)"
                if let example = count.example {
                    line += " — e.g. " + (example.line > 0 ? "line \(example.line)" : "the file")
                    if let field = example.field { line += ", field \(field)" }
                    if Self.kindsWithTheirExample.contains(count.kind) { line += ": \(example.reason)" }
                }
                lines.append(line)
            }
            return lines
        }

        private static func checks(_ summary: ImportSummary) -> [String] {
            guard !summary.checks.isEmpty else { return [] }
            let failing = summary.checks.filter { $0.count > 0 }
            if failing.isEmpty {
                return ["", "checks: all \(summary.checks.count) reference and key checks pass on the rows imported"]
            }
            var lines = [
                "",
                "checks (reported, not enforced): \(summary.checks.count - failing.count) of \(summary.checks.count) pass",
            ]
            for check in failing {
                lines.append("  \(check.name): \(check.count) rows, e.g. \(check.examples.joined(separator: ", "))")
            }
            return lines
        }

        private static func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }

        private static func left(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
        }
    }
#endif
