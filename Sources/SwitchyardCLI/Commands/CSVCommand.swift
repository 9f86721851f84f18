#if CLI
    import ArgumentParser
    import Foundation
    import Switchyard

    /// `switchyard csv FILE…`: a quick CSV validator built on `CSVRecords`.
    ///
    /// For each file prints the number of records (every record after the header, malformed ones included: the
    /// import counts them the same way), the fields per record (the header's width), every malformed record with its
    /// line, column and field as it is found, and the records read with a tolerated quirk (the first 20 of them).
    /// By default the file is read as `switchyard import` reads a GTFS file: short and long rows, spaces or text after
    /// a closing quote, quotes inside unquoted fields and text that is not UTF-8 (read as Windows-1252) are read,
    /// with a warning; `--strict` reads RFC 4180 and reports them as malformed. Malformed records are skipped, so
    /// one bad line does not hide the next. Exit status 1 if any record was malformed or any file could not be read.
    struct CSVCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "csv",
            abstract: "Validate CSV files: records, fields per record, and every malformed record with its line.")

        @Argument(help: "The files to check.")
        var files: [String]

        @Option(help: "The field delimiter (one ASCII character, or 'tab').")
        var delimiter = ","

        @Flag(help: "The first line is a record, not a header.")
        var noHeader = false

        @Flag(help: "Drop spaces around fields and header names.")
        var trim = false

        @Flag(
            help:
                "Read RFC 4180 strictly: ragged rows, text after a closing quote, quotes in unquoted fields and text that is not UTF-8 are malformed."
        )
        var strict = false

        @Flag(help: .hidden)  // Quotes inside unquoted fields are text unless --strict; kept so scripts keep working.
        var allowStrayQuotes = false

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one file") }
            _ = try delimiterByte()
        }

        private func delimiterByte() throws -> UInt8 {
            if delimiter == "tab" { return 0x09 }
            guard delimiter.utf8.count == 1, let byte = delimiter.utf8.first, byte != UInt8(ascii: "\""),
                byte != 0x0A, byte != 0x0D
            else {
                throw ValidationError(
                    "--delimiter must be one ASCII character other than a quote or newline, got '\(delimiter)'")
            }
            return byte
        }

        func run() async throws {
            var failed = false
            for path in files {
                let warnings = WarningPrinter(path: path)
                let options = CSVOptions(
                    delimiter: try delimiterByte(), hasHeader: !noHeader, trimsWhitespace: trim,
                    malformedRecords: .skip, quotesInUnquotedFields: strict && !allowStrayQuotes ? .reject : .allow,
                    textAfterClosingQuote: strict ? .reject : .accept, raggedRecords: strict ? .reject : .accept,
                    encoding: strict ? .utf8 : .utf8OrWindows1252,
                    reportSkippedRecord: { error in print(TerminalText.visible("  malformed: \(error)")) })
                var width: Int?
                do {
                    let summary = try await CSVRecords(.file(path), options: options).forEachRecord { record in
                        if width == nil { width = record.header?.count ?? record.count }
                        if !record.quirks.isEmpty {
                            warnings.report(record.quirks, line: record.line, fields: record.fieldsRead, width: width!)
                        }
                    }
                    let fields = summary.header?.count ?? width ?? 0
                    var line =
                        "\(path): \(summary.records + summary.skippedRecords) records, \(fields) fields per record"
                    if let header = summary.header { line += " (\(header.names.joined(separator: ", ")))" }
                    line += ", \(summary.skippedRecords) malformed (skipped), \(warnings.count) read with warnings"
                    if warnings.count > WarningPrinter.shown {
                        line += " (\(warnings.count - WarningPrinter.shown) not shown)"
                    }
                    print(TerminalText.visible(line))
                    if summary.skippedRecords > 0 { failed = true }
                } catch {
                    print(TerminalText.visible("\(path): stopped: \(error)"))
                    failed = true
                }
            }
            if failed { throw ExitCode(1) }
        }
    }

    /// Prints the first ``shown`` records read with a quirk, and counts them all.
    private final class WarningPrinter {
        static let shown = 20
        let path: String
        private(set) var count = 0

        init(path: String) { self.path = path }

        func report(_ quirks: CSVQuirks, line: Int, fields: Int, width: Int) {
            count += 1
            guard count <= Self.shown else { return }
            var what: [String] = []
            if quirks.contains(.missingFields) { what.append("\(fields) of \(width) fields (the rest read as empty)") }
            if quirks.contains(.extraFields) { what.append("\(fields) fields, \(fields - width) past the header") }
            if quirks.contains(.blankAfterClosingQuote) { what.append("spaces after a closing quote (dropped)") }
            if quirks.contains(.textAfterClosingQuote) { what.append("text after a closing quote (kept)") }
            if quirks.contains(.transcoded) { what.append("not UTF-8 (read as Windows-1252)") }
            if quirks.contains(.nulBytes) { what.append("NUL bytes") }
            print(TerminalText.visible("  warning: \(path):\(line): \(what.joined(separator: "; "))"))
        }
    }
#endif
