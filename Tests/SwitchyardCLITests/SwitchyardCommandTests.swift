#if CLI
    import Foundation
    import Testing

    /// Runs the built `switchyard` binary end to end, as a user would.
    @Suite("switchyard command line", .timeLimit(.minutes(3)))
    struct SwitchyardCommandTests {
        @Test("--version prints the version")
        func version() async throws {
            let output = try await SwitchyardProcess.run(["--version"])
            #expect(output.status == 0)
            #expect(output.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
        }

        @Test("--help lists the subcommands")
        func help() async throws {
            let output = try await SwitchyardProcess.run(["--help"])
            #expect(output.status == 0)
            #expect(output.standardOutput.contains("demo"))
        }

        @Test("demo runs end to end and checksums every file")
        func demo() async throws {
            let output = try await SwitchyardProcess.run(["demo", "--files", "12", "--kibibytes", "16", "--width", "3"])
            #expect(output.status == 0, "stderr: \(output.standardError)")
            #expect(output.standardOutput.contains("checksummed 12 files"))
            #expect(output.standardOutput.contains("progress: 12/12 files"))
            #expect(output.standardOutput.contains("Isolated<Progress>(\"demo progress\"): free"))
        }

        @Test("a bad argument names the argument and exits with a usage error")
        func badArgument() async throws {
            let output = try await SwitchyardProcess.run(["demo", "--files", "0"])
            #expect(output.status == 64)
            #expect(output.standardError.contains("--files must be at least 1, got 0"))
        }
    }
#endif
