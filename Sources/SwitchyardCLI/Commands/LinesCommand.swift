#if CLI
    import ArgumentParser
    import Foundation
    import Switchyard

    /// `switchyard lines FILE…`: counts lines like `wc -l`, through Switchyard's line streams.
    ///
    /// Each file is read in fixed memory on `BlockingExecutor.shared`. By default only newlines are counted
    /// (`Lines.countLinesBlocking()`: no line is framed, no length limit); `--each-line` hands every line out
    /// zero-copy, and `--strings` as validated `Substring`s, to time those tiers. The count is `wc -l`'s: lines
    /// ending in `\n`; a final line without one is not counted (`--stats` shows it). A file that cannot be read is
    /// reported on standard error and the others are still counted; the exit status is then 1.
    struct LinesCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lines",
            abstract: "Count lines like `wc -l`, streaming each file in fixed memory.")

        @Argument(help: "The files to count.")
        var files: [String]

        @Flag(help: "Hand out every line, borrowing its bytes (the zero-copy tier), instead of only counting newlines.")
        var eachLine = false

        @Flag(help: "Hand out every line as UTF-8-validated text (the String tier, as Substrings).")
        var strings = false

        @Option(help: "Bytes per read.")
        var chunkSize = 256 * 1024

        @Flag(help: "Print lines/s, bytes and the buffer's peak size for each file on standard error.")
        var stats = false

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one file") }
            guard !(strings && eachLine) else { throw ValidationError("choose --each-line or --strings, not both") }
            guard chunkSize >= 1 else { throw ValidationError("--chunk-size must be at least 1, got \(chunkSize)") }
        }

        func run() async throws {
            var total = 0
            var failed = false
            var rows: [(count: Int, name: String)] = []
            for path in files {
                let lines = Lines(.file(path), options: LineOptions(chunkSize: chunkSize))
                let clock = ContinuousClock()
                let started = clock.now
                do {
                    let summary = try await BlockingExecutor.shared.run { [strings, eachLine] in
                        if strings {
                            var bytes = 0
                            let summary = try lines.forEachSubstringBlocking { bytes &+= $0.utf8.count }
                            _ = bytes
                            return summary
                        }
                        if eachLine { return try lines.forEachLineBlocking { _ in } }
                        return try lines.countLinesBlocking()
                    }
                    rows.append((summary.terminatedLines, path))
                    total += summary.terminatedLines
                    if stats {
                        let seconds = (clock.now - started) / .seconds(1)
                        FileHandle.standardError.write(
                            Data(
                                String(
                                    format:
                                        "%@: %d lines (%d without a final newline), %d bytes, %.1f M lines/s, buffer peak %d KiB\n",
                                    TerminalText.visible(path), summary.lines, summary.lines - summary.terminatedLines,
                                    summary.bytes,
                                    Double(summary.lines) / max(seconds, 1e-9) / 1e6, summary.peakBufferBytes / 1024
                                ).utf8))
                    }
                } catch {
                    FileHandle.standardError.write(Data("switchyard lines: \(TerminalText.visible("\(error)"))\n".utf8))
                    failed = true
                }
            }
            if rows.count > 1 { rows.append((total, "total")) }
            let width = rows.map { String($0.count).count }.max() ?? 1
            for row in rows {
                let count = String(row.count)
                print(String(repeating: " ", count: width - count.count) + count + " " + TerminalText.visible(row.name))
            }
            if failed { throw ExitCode(1) }
        }
    }
#endif
