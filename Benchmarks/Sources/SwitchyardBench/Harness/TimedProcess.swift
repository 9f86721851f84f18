import Foundation

/// A child process timed by GNU time (`/usr/bin/time`, Debian's `time` package): wall seconds and peak resident set.
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
        process.arguments = ["-f", "%e %M", "-o", report] + arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        try? handle.close()
        guard process.terminationStatus == 0, let text = try? String(contentsOfFile: report, encoding: .utf8) else {
            return nil
        }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count >= 2, let seconds = Double(fields[fields.count - 2]), let kilobytes = Int(fields.last!)
        else { return nil }
        let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return (seconds, kilobytes, printed)
    }
}
