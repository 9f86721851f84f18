import Foundation

/// Lines from a child's pipe, each wait bounded: `poll`, then `read` of what is there. The latency row reads the
/// anchor's output this way right after each write, on the thread that wrote.
final class WatchLineReader {
    private let descriptor: Int32
    private var pending: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 4_096)
    /// Whether the writer closed its end (or a read failed): no line will come after the pending ones.
    private(set) var ended = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// The next line, without its newline; nil if none came within `seconds` or the pipe ended.
    func nextLine(within seconds: Double) -> String? {
        let deadline = Clockwork.now() + UInt64(max(0, seconds) * 1e9)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let now = Clockwork.now()
            guard !ended, now < deadline else { return nil }
            let milliseconds = Int32(min(1_000, (deadline - now + 999_999) / 1_000_000))
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready < 0 && errno != EINTR { ended = true }
            if ready > 0 { readAvailable() }
        }
    }

    /// Waits up to `seconds` for a line that contains `text`, dropping the lines before it; whether one came.
    func waitForLine(containing text: String, within seconds: Double) -> Bool {
        let deadline = Clockwork.now() + UInt64(max(0, seconds) * 1e9)
        while true {
            let now = Clockwork.now()
            guard now < deadline, let line = nextLine(within: Double(deadline - now) / 1e9) else { return false }
            if line.contains(text) { return true }
        }
    }

    /// One `read` of what the pipe holds (at most 4 KiB) into the pending bytes; the end of the pipe noted.
    private func readAvailable() {
        let descriptor = self.descriptor
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            pending.append(contentsOf: chunk[..<count])
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            ended = true
        }
    }
}
