import Foundation
import Synchronization

/// A child process run under GNU time (`/usr/bin/time`, Debian's `time` package) for its peak resident set, and
/// timed by this process's monotonic clock from its start to its exit (GNU time prints wall time in hundredths of a
/// second, too coarse for runs of a tenth of a second; its own start, about a millisecond, is timed for every tool).
enum TimedProcess {
    /// Runs `arguments` under GNU time, with `environment` added to this process's; its wall seconds and peak
    /// resident set in KiB, nil if it failed.
    static func run(
        _ arguments: [String], environment: [String: String]
    ) -> (seconds: Double, kilobytes: Int)? {
        runCapturing(arguments, environment: environment).map { ($0.seconds, $0.kilobytes) }
    }

    /// ``run(_:environment:)``, with the child's standard output (written to a file, read after it exits).
    static func runCapturing(
        _ arguments: [String], environment: [String: String]
    ) -> (seconds: Double, kilobytes: Int, output: String)? {
        let output = NSTemporaryDirectory() + "switchyard-bench-out-\(getpid()).txt"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: output) }
        guard let handle = FileHandle(forWritingAtPath: output) else { return nil }
        let report = NSTemporaryDirectory() + "switchyard-bench-time-\(getpid()).txt"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", report] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        // The exit is timed in the termination handler: `waitUntilExit()` notices it only at its next poll, every
        // 50 ms in swift-corelibs-foundation.
        let ended = ExitTime()
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in
            ended.nanoseconds.store(Clockwork.now(), ordering: .relaxed)
            exited.signal()
        }
        let started = Clockwork.now()
        do { try process.run() } catch { return nil }
        exited.wait()
        process.waitUntilExit()
        let seconds = Double(ended.nanoseconds.load(ordering: .relaxed) - started) / 1e9
        try? handle.close()
        guard process.terminationStatus == 0, let text = try? String(contentsOfFile: report, encoding: .utf8) else {
            return nil
        }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard !fields.isEmpty, let kilobytes = Int(fields.last!) else { return nil }
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return (seconds, kilobytes, printed)
    }
}

/// When a child process exited, written by its termination handler before the semaphore that orders the read.
private final class ExitTime: Sendable {
    let nanoseconds = Atomic<UInt64>(0)
}
