import Foundation
import Testing

/// Runs the built `switchyard` binary end to end, as a user would.
@Suite("switchyard command line", .timeLimit(.minutes(1)))
struct SwitchyardCommandTests {
    /// The `switchyard` executable next to the test bundle in the build folder.
    private static var executable: URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("switchyard").path),
              directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("switchyard")
    }

    private struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    private static func run(_ arguments: [String]) async throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
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

    @Test("--version prints the version")
    func version() async throws {
        let output = try await Self.run(["--version"])
        #expect(output.status == 0)
        #expect(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test("--help lists the subcommands")
    func help() async throws {
        let output = try await Self.run(["--help"])
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("demo"))
    }

    @Test("demo runs end to end and checksums every file")
    func demo() async throws {
        let output = try await Self.run(["demo", "--files", "12", "--kibibytes", "16", "--width", "3"])
        #expect(output.status == 0, "stderr: \(output.standardError)")
        #expect(output.standardOutput.contains("checksummed 12 files"))
        #expect(output.standardOutput.contains("progress: 12/12 files"))
        #expect(output.standardOutput.contains("Isolated<Progress>(\"demo progress\"): free"))
    }

    @Test("a bad argument names the argument and exits with a usage error")
    func badArgument() async throws {
        let output = try await Self.run(["demo", "--files", "0"])
        #expect(output.status == 64)
        #expect(output.standardError.contains("--files must be at least 1, got 0"))
    }
}
