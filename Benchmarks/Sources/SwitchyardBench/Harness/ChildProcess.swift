import Foundation

/// Runs a child process to completion and returns its standard output, trimmed; nil if it could not start.
///
/// `executable` defaults to this benchmark binary itself (a probe child selected by `SWITCHYARD_BENCH_PROBE`):
/// `/proc/self/exe` on Linux, the path it was started with elsewhere.
/// Output is read to the end before waiting, so a child that prints a lot cannot block on a full pipe.
enum ChildProcess {
    /// This process's executable.
    static var ownExecutable: String {
        #if os(Linux)
            "/proc/self/exe"
        #else
            Bundle.main.executablePath ?? CommandLine.arguments[0]
        #endif
    }

    /// The executable `name` in this benchmark's build folder (`switchyard`, built with it), found through the
    /// real file's folder, not `/proc/self/exe`'s; it may not exist.
    static func builtBeside(_ name: String) -> String {
        URL(fileURLWithPath: ownExecutable).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(name).path
    }

    static func output(
        _ executable: String = ChildProcess.ownExecutable, arguments: [String] = [],
        environment: [String: String]? = nil,
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
