#if CLI
    import Foundation
    import Synchronization

    /// Counts of a push batch as it runs, written by the batch's result callback and read by the display.
    final class PushProgress: Sendable {
        private let endedCount = Atomic<Int>(0)
        private let failedCount = Atomic<Int>(0)

        func ended(failed: Bool) {
            endedCount.add(1, ordering: .relaxed)
            if failed { failedCount.add(1, ordering: .relaxed) }
        }

        var ended: Int { endedCount.load(ordering: .relaxed) }
        var failed: Int { failedCount.load(ordering: .relaxed) }
    }

    /// `switchyard push`'s live progress on standard error: on a terminal, a bar redrawn in place with the
    /// notifications ended, pushes per second and the time left; otherwise one line every few seconds.
    struct PushProgressDisplay {
        let progress: PushProgress
        let total: Int
        let notice: InterruptNotice
        let isTerminal = isatty(STDERR_FILENO) == 1
        private var drawn = false
        private var lastEnded = 0
        private var rate: Double = 0

        init(progress: PushProgress, total: Int, notice: InterruptNotice) {
            self.progress = progress
            self.total = total
            self.notice = notice
        }

        /// Draws until the task is cancelled, then erases the bar (on a terminal).
        mutating func run() async {
            let interval: Duration = isTerminal ? .milliseconds(200) : .seconds(2)
            if isTerminal { notice.hold(true) }
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                draw(seconds: interval / .seconds(1))
            }
            erase()
            if isTerminal { notice.hold(false) }
        }

        private mutating func draw(seconds: Double) {
            let ended = progress.ended
            let instant = Double(ended - lastEnded) / seconds
            lastEnded = ended
            rate = rate == 0 ? instant : 0.6 * rate + 0.4 * instant
            var line = Self.bar(ended, of: total) + " \(ended)/\(total), \(Int(rate.rounded())) pushes/s"
            let failed = progress.failed
            if failed > 0 { line += ", \(failed) failed" }
            if rate > 0, ended < total {
                let left = Int(Double(total - ended) / rate)
                line += String(format: ", %d:%02d left", left / 60, left % 60)
            }
            erase()
            if isTerminal, let pending = notice.take() { FileHandle.standardError.write(Data("\(pending)\n".utf8)) }
            FileHandle.standardError.write(Data((line + "\n").utf8))
            drawn = isTerminal
        }

        /// `[#######-------------]` for `done` of `total`.
        static func bar(_ done: Int, of total: Int, width: Int = 24) -> String {
            let filled = total > 0 ? min(width, done * width / total) : 0
            return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
        }

        private mutating func erase() {
            guard drawn else { return }
            FileHandle.standardError.write(Data("\u{1B}[1A\u{1B}[2K".utf8))
            drawn = false
        }
    }
#endif
