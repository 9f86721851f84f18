import Foundation

/// Runs a child process to completion and returns its standard output, trimmed; nil if it could not start.
///
/// `executable` defaults to this benchmark binary itself (a probe child selected by `SWITCHYARD_BENCH_PROBE`).
/// Output is read to the end before waiting, so a child that prints a lot cannot block on a full pipe.
enum ChildProcess {
    static func output(
        _ executable: String = "/proc/self/exe", arguments: [String] = [], environment: [String: String]? = nil,
        standardInput: FileHandle? = nil
    ) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let standardInput { process.standardInput = standardInput }
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A probe child of this binary: `SWITCHYARD_BENCH_PROBE=<specification>`, its output as a number.
    static func probe(_ specification: String, standardInput: FileHandle? = nil) -> Double? {
        output(environment: ["SWITCHYARD_BENCH_PROBE": specification], standardInput: standardInput)
            .flatMap { Double($0) }
    }
}
