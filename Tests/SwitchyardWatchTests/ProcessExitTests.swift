#if Watch && os(Linux)
    import Glibc
    import SwitchyardWatch
    import Testing

    /// `ProcessExit`: the exit of any process, through its pidfd.
    @Suite("ProcessExit", .timeLimit(.minutes(1)))
    struct ProcessExitTests {
        @Test("a running process: the wait times out; once it is killed, the wait returns true")
        func exitAfterTimeout() async throws {
            let child = try ChildProcess.start("sleep", arguments: ["100"])
            #expect(try await ProcessExit.wait(for: child.processID, timeout: .milliseconds(20)) == false)
            async let exited = ProcessExit.wait(for: child.processID)
            child.signalGroup(SIGKILL)
            #expect(try await exited)
            #expect(await child.exit() == .signalled(SIGKILL))
        }

        @Test("a process that is gone (collected) counts as exited at once")
        func gone() async throws {
            let child = try ChildProcess.start("true", arguments: [])
            #expect(await child.exit() == .exited(0))
            #expect(try await ProcessExit.wait(for: child.processID, timeout: .seconds(5)))
        }

        @Test("cancelling the waiting task ends the wait with CancellationError")
        func cancelled() async throws {
            let child = try ChildProcess.start("sleep", arguments: ["100"])
            defer { child.signalGroup(SIGKILL) }
            let waiting = Task { try await ProcessExit.wait(for: child.processID) }
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
        }
    }
#endif
