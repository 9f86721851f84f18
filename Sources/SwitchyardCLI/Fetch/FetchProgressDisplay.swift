#if CLI
    import Foundation
    import SwitchyardHTTP

    /// `switchyard fetch`'s live progress on standard error: on a terminal, a block redrawn in place (the batch's
    /// total with rate and ETA, then the active files); otherwise one total line every few seconds.
    struct FetchProgressDisplay {
        let progress: TransferProgress
        let total: Int
        let isTerminal = isatty(STDERR_FILENO) == 1
        private var drawnLines = 0
        private var lastBytes: Int64 = 0
        private var rate: Double = 0

        init(progress: TransferProgress, total: Int) {
            self.progress = progress
            self.total = total
        }

        /// Draws until the task is cancelled, then erases the block (on a terminal).
        mutating func run() async {
            let interval: Duration = isTerminal ? .milliseconds(200) : .seconds(2)
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                draw(seconds: interval / .seconds(1))
            }
            erase()
        }

        private mutating func draw(seconds: Double) {
            let snapshot = progress.snapshot()
            let instant = Double(snapshot.bytesTransferred - lastBytes) / seconds
            lastBytes = snapshot.bytesTransferred
            rate = rate == 0 ? instant : 0.7 * rate + 0.3 * instant  // smoothed, so the ETA does not jump
            var lines = [totalLine(snapshot)]
            if isTerminal {
                for transfer in snapshot.active.prefix(6) {
                    var line = "  \(TerminalText.visible(transfer.name)): \(ByteCount.text(transfer.received))"
                    if let expected = transfer.expected, expected > 0 {
                        line += " of \(ByteCount.text(expected)) (\(transfer.received * 100 / expected)%)"
                    }
                    lines.append(line)
                }
                if snapshot.active.count > 6 { lines.append("  … and \(snapshot.active.count - 6) more") }
            }
            erase()
            FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            drawnLines = isTerminal ? lines.count : 0
        }

        private func totalLine(_ snapshot: TransferProgress.Snapshot) -> String {
            var line = "\(snapshot.finished)/\(total) files, \(ByteCount.text(snapshot.bytesReceived))"
            if snapshot.bytesExpected > 0 { line += " of \(ByteCount.text(snapshot.bytesExpected))+" }
            line += ", \(ByteCount.text(Int64(rate)))/s"
            let remaining = snapshot.bytesExpected - snapshot.bytesReceived
            if rate > 0, remaining > 0 {
                let seconds = Int(Double(remaining) / rate)
                line += String(format: ", ETA %d:%02d", seconds / 60, seconds % 60)
            }
            return line
        }

        private mutating func erase() {
            guard drawnLines > 0 else { return }
            FileHandle.standardError.write(Data(String(repeating: "\u{1B}[1A\u{1B}[2K", count: drawnLines).utf8))
            drawnLines = 0
        }
    }
#endif
