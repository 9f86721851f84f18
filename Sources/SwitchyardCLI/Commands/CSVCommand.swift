import ArgumentParser
import Foundation
import Switchyard

/// `switchyard csv FILE…`: a quick CSV validator built on `CSVRecords`.
///
/// For each file prints the number of records, the fields per record (the header's width) and every malformed
/// record with its line, column and field, as it is found; malformed records are skipped, so one bad line does
/// not hide the next. Exit status 1 if any record was malformed or any file could not be read.
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

    @Flag(help: "Accept quotes inside unquoted fields as text.")
    var allowStrayQuotes = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one file") }
        _ = try delimiterByte()
    }

    private func delimiterByte() throws -> UInt8 {
        if delimiter == "tab" { return 0x09 }
        guard delimiter.utf8.count == 1, let byte = delimiter.utf8.first, byte != UInt8(ascii: "\""),
              byte != 0x0A, byte != 0x0D
        else { throw ValidationError("--delimiter must be one ASCII character other than a quote or newline, got '\(delimiter)'") }
        return byte
    }

    func run() async throws {
        var failed = false
        for path in files {
            let options = CSVOptions(
                delimiter: try delimiterByte(), hasHeader: !noHeader, trimsWhitespace: trim,
                malformedRecords: .skip, quotesInUnquotedFields: allowStrayQuotes ? .allow : .reject,
                reportSkippedRecord: { error in print(TerminalText.visible("  malformed: \(error)")) })
            var width: Int?
            do {
                let summary = try await CSVRecords(.file(path), options: options).forEachRecord { record in
                    if width == nil { width = record.count }
                    _ = record
                }
                let fields = summary.header?.count ?? width ?? 0
                var line = "\(path): \(summary.records) records, \(fields) fields per record"
                if let header = summary.header { line += " (\(header.names.joined(separator: ", ")))" }
                line += ", \(summary.skippedRecords) malformed"
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
