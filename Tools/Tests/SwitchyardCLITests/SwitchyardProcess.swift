import Foundation

/// Runs the built `switchyard` binary as a child process, as a user would.
enum SwitchyardProcess {
    /// The `switchyard` executable next to the test bundle in the build folder.
    static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("switchyard").path),
            directory.path != "/"
        {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("switchyard")
    }

    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    static func run(_ arguments: [String], executable: URL = executable) async throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        // Completion arrives through the termination handler: no thread blocks waiting for the child.
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let standardOutput = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let standardError = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Output(status: status, standardOutput: standardOutput, standardError: standardError)
    }
}
