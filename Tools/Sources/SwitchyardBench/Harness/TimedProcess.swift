import Foundation

/// A child process timed by GNU time (`/usr/bin/time`, Debian's `time` package): wall seconds and peak resident set.
enum TimedProcess {
    /// Runs `arguments` under GNU time, with `environment` added to this process's; its wall seconds and peak
    /// resident set in KiB, nil if it failed.
    static func run(
        _ arguments: [String], environment: [String: String]
    ) -> (seconds: Double, kilobytes: Int)? {
        let report = NSTemporaryDirectory() + "switchyard-bench-time-\(getpid()).txt"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%e %M", "-o", report] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0, let text = try? String(contentsOfFile: report, encoding: .utf8) else {
            return nil
        }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count >= 2, let seconds = Double(fields[fields.count - 2]), let kilobytes = Int(fields.last!)
        else { return nil }
        return (seconds, kilobytes)
    }
}
