#if CLI
    import Foundation
    import SwitchyardTransit

    /// How `switchyard import` shows progress.
    enum ProgressStyle: String, CaseIterable {
        /// A live bar per file on a terminal; `lines` otherwise.
        case auto
        /// A live progress bar per file with rows/s and ETA, redrawn in place (standard error).
        case bar
        /// Sparse plain lines: when a file completes, and every few seconds for the file being loaded (standard error).
        case lines
        /// One JSON object per update on standard output; the last line is the summary.
        case json
        /// Nothing but the summary.
        case none
    }

    /// Draws ``ImportProgress`` snapshots in one of the ``ProgressStyle``s. Used from one task only.
    struct ImportProgressRenderer {
        let style: ProgressStyle
        /// A stop notice the bars hold back, printed under them at the next redraw (see ``InterruptNotice``).
        var notice: InterruptNotice?
        private var drawnLines = 0
        private var lastLine = ContinuousClock.now
        private var reportedComplete = Set<String>()
        private var lastPhase: ImportProgress.Phase?

        init(style: ProgressStyle) {
            if style == .auto {
                self.style =
                    isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb" ? .bar : .lines
            } else {
                self.style = style
            }
        }

        mutating func render(_ progress: ImportProgress) {
            switch style {
            case .bar: drawBars(progress)
            case .lines: writeLines(progress)
            case .json:
                // Unbuffered: one line per update as it happens, also into a pipe (print would buffer it).
                FileHandle.standardOutput.write(Data((progress.json + "\n").utf8))
            case .auto, .none: break
            }
        }

        /// Leaves the bars as they are (the final state stays on screen).
        mutating func finish(_ progress: ImportProgress) {
            render(progress)
            drawnLines = 0
        }

        // MARK: Bars

        private mutating func drawBars(_ progress: ImportProgress) {
            var out = ""
            if let text = notice?.take() {
                // Under the bars as they stand (the cursor is there), and the bars go on under it.
                out = "\n\(text)\n\n"
                drawnLines = 0
            }
            if drawnLines > 0 { out += "\u{1B}[\(drawnLines)A" }
            var lines: [String] = []
            for file in progress.files {
                let width = 24
                let filled = Int(file.fraction * Double(width))
                let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
                var line =
                    "\(TerminalText.visible(file.name).padding(toLength: 22, withPad: " ", startingAt: 0)) \(bar) \(percent(file.fraction))"
                line += "  \(count(file.rowsCommitted)) rows"
                if file.isComplete {
                    line += file.skipped > 0 ? ", \(count(file.skipped)) skipped" : ""
                    line += file.warnings > 0 ? ", \(count(file.warnings)) warnings" : ""
                    line += "  done"
                } else if file.rowsThisRun > 0, file.secondsThisRun > 0.2 {
                    let rate = Double(file.rowsThisRun) / file.secondsThisRun
                    line += "  \(count(Int(rate)))/s"
                    if file.fraction > 0.01 {
                        let remaining = file.secondsThisRun * (1 - file.fraction) / file.fraction
                        line += "  ETA \(duration(remaining))"
                    }
                }
                lines.append(line)
            }
            let phase: String =
                switch progress.phase {
                case .preparing: "preparing the database…"
                case .loading:
                    "loading… \(percent(progress.fraction)) of the feed, \(duration(progress.seconds)) (Ctrl-C stops at the next batch; --resume continues)"
                case .indexing: "building indexes…"
                case .checking: "checking references and keys…"
                case .finished: "\(progress.outcome?.rawValue ?? "ended") after \(duration(progress.seconds))"
                }
            lines.append(phase)
            // A line wider than the terminal wraps into two, and the cursor-up count above (logical lines) would then
            // draw each update lower than the last: cut lines to the terminal's width.
            let width = Self.terminalColumns().map { max(1, $0 - 1) } ?? .max
            for line in lines.map(TerminalText.visible) {
                out += "\u{1B}[2K" + (line.count > width ? String(line.prefix(width)) : line) + "\n"
            }
            drawnLines = lines.count
            FileHandle.standardError.write(Data(out.utf8))
        }

        /// The width of the terminal on standard error, or nil when it is not a terminal (or the platform does not
        /// say). Read on every redraw, so a resized window is followed.
        private static func terminalColumns() -> Int? {
            #if os(Linux)
                var size = winsize()
                guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
                return Int(size.ws_col)
            #else
                return nil
            #endif
        }

        // MARK: Plain lines

        private mutating func writeLines(_ progress: ImportProgress) {
            var out = ""
            if progress.phase != lastPhase {
                lastPhase = progress.phase
                let phase =
                    progress.phase == .finished ? progress.outcome?.rawValue ?? "finished" : progress.phase.rawValue
                out += "[\(duration(progress.seconds))] \(phase)\n"
            }
            for file in progress.files where file.isComplete && !reportedComplete.contains(file.name) {
                reportedComplete.insert(file.name)
                out += "[\(duration(progress.seconds))] \(TerminalText.visible(file.name)): \(file.rowsCommitted) rows"
                out += file.skipped > 0 ? ", \(file.skipped) SKIPPED" : ""
                out += file.warnings > 0 ? ", \(file.warnings) warnings\n" : "\n"
            }
            let now = ContinuousClock.now
            if now - lastLine >= .seconds(5),
                let current = progress.files.first(where: { !$0.isComplete && $0.bytesRead > 0 })
            {
                lastLine = now
                out +=
                    "[\(duration(progress.seconds))] \(TerminalText.visible(current.name)): \(current.rowsCommitted) rows, \(percent(current.fraction))\n"
            }
            if !out.isEmpty { FileHandle.standardError.write(Data(out.utf8)) }
        }

    }

    /// `12.3M`, `45.6k`, `789`.
    func count(_ value: Int) -> String {
        switch value {
        case 1_000_000...: formatted(Double(value) / 1e6, decimals: 2) + "M"
        case 10_000...: formatted(Double(value) / 1e3, decimals: 1) + "k"
        default: String(value)
        }
    }

    func percent(_ fraction: Double) -> String {
        let text = String(Int((fraction * 100).rounded(.down))) + "%"
        return String(repeating: " ", count: max(0, 4 - text.count)) + text
    }

    func duration(_ seconds: Double) -> String {
        seconds < 60 ? formatted(seconds, decimals: 1) + " s" : "\(Int(seconds) / 60) min \(Int(seconds) % 60) s"
    }
#endif
