import SwitchyardTransit

/// The import summary as a table for people (control characters in it written out, see ``TerminalText``).
enum SummaryText {
    static func render(_ summary: ImportSummary) -> String {
        var lines: [String] = []
        lines.append("")
        lines.append("\(pad("file", 24)) \(left("records", 11)) \(left("imported", 11)) \(left("skipped", 9))")
        var totalRecords = 0
        var totalImported = 0
        for file in summary.files {
            totalRecords += file.records
            totalImported += file.imported
            let mark = file.isComplete ? "" : "  (incomplete)"
            lines.append("\(pad(TerminalText.visible(file.name), 24)) \(left(String(file.records), 11)) \(left(String(file.imported), 11)) \(left(String(file.skipped), 9))\(mark)")
        }
        lines.append("\(pad("total", 24)) \(left(String(totalRecords), 11)) \(left(String(totalImported), 11))")
        let problems = summary.files.flatMap(\.problems)
        if !problems.isEmpty {
            lines.append("")
            lines.append("skipped records (first of each file; all are in _switchyard_import_problems):")
            for problem in problems { lines.append("  \(problem)") }
        }
        for file in summary.files where !file.ignoredColumns.isEmpty {
            lines.append("\(file.name): columns not imported: \(file.ignoredColumns)")
        }
        if !summary.ignoredFiles.isEmpty {
            lines.append("")
            lines.append("not imported (not GTFS files this importer defines, or outside the feed's folder): \(summary.ignoredFiles.joined(separator: ", "))")
        }
        let failing = summary.checks.filter { $0.count > 0 }
        if !summary.checks.isEmpty {
            lines.append("")
            if failing.isEmpty {
                lines.append("checks: all \(summary.checks.count) reference and key checks pass")
            } else {
                lines.append("checks (reported, not enforced): \(summary.checks.count - failing.count) of \(summary.checks.count) pass")
                for check in failing {
                    lines.append("  \(check.name): \(check.count) rows, e.g. \(check.examples.joined(separator: ", "))")
                }
            }
        }
        lines.append("")
        lines.append("\(summary.state) in \(duration(summary.seconds)): \(summary.database)")
        // Names, values and paths come from the feed and the command line: nothing in them may act on the terminal.
        return lines.map(TerminalText.visible).joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private static func left(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
