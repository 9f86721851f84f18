#if Watch
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import Foundation
    import WatchTestSupport
    import SwitchyardWatch
    import SystemPackage
    import Testing

    /// Child processes started by `ChildProcess`: their endings, and stopping them with their whole process group.
    /// No sleeps: each test waits for the change it expects (a file written by the child, watched; a process's exit,
    /// through its pidfd), with a deadline.
    @Suite("ChildProcess", .timeLimit(.minutes(1)))
    struct ChildProcessTests {
        private let folder = ChildScratch()

        @Test("the exit status reaches every waiter, before and after the exit")
        func exitStatus() async throws {
            let child = try ChildProcess.start("sh", arguments: ["-c", "exit 3"])
            async let first = child.exit()
            async let second = child.exit()
            let endings = await [first, second]
            #expect(endings == [.exited(3), .exited(3)])
            #expect(child.termination == .exited(3))
            #expect(await child.exit() == .exited(3))
        }

        @Test("a child ended by a signal is reported signalled")
        func signalled() async throws {
            let child = try ChildProcess.start("sh", arguments: ["-c", "kill -KILL $$"])
            #expect(await child.exit() == .signalled(SIGKILL))
            #expect(child.termination?.shellStatus == 128 + SIGKILL)
        }

        @Test("a program that is not on PATH cannot be started")
        func missingProgram() {
            let error = #expect(throws: ChildProcessError.self) {
                try ChildProcess.start("switchyard-test-no-such-program", arguments: [])
            }
            #expect(error?.errno == ENOENT)
        }

        @Test("the child gets the given environment and working directory")
        func environmentAndDirectory() async throws {
            let child = try ChildProcess.start(
                "/bin/sh", arguments: ["-c", "printf '%s' \"$GREETING\" > out"], environment: ["GREETING": "hello"],
                workingDirectory: FilePath(folder.path))
            #expect(await child.exit() == .exited(0))
            #expect(folder.contents("out") == "hello")
        }

        @Test("terminate sends SIGKILL to a group that ignores SIGTERM, once the grace is over")
        func killAfterGrace() async throws {
            let ready = folder.path + "/ready"
            let child = try ChildProcess.start(
                "sh", arguments: ["-c", "trap '' TERM; echo ready > '\(ready)'; sleep 100"])
            let folder = folder
            await untilFolderChanges(folder.path, "the shell ignores SIGTERM") {
                folder.contents("ready") == "ready\n" ? () : nil
            }
            #expect(await child.terminate(grace: .milliseconds(200)) == .signalled(SIGKILL))
        }

        @Test("terminate stops the whole group: a background process of the child dies too")
        func wholeGroup() async throws {
            let pidFile = folder.path + "/pid"
            let child = try ChildProcess.start("sh", arguments: ["-c", "sleep 100 & echo $! > '\(pidFile)'; wait"])
            let folder = folder
            let sleeper = try #require(
                await untilFolderChanges(folder.path, "the background sleep's pid is written") {
                    Int32(folder.contents("pid").trimmingCharacters(in: .whitespacesAndNewlines))
                })
            #expect(try await ProcessExit.wait(for: sleeper, timeout: .zero) == false)  // still running
            #expect(await child.terminate(grace: .seconds(2)) == .signalled(SIGTERM))
            await untilProcessExits(sleeper, "the background sleep is gone")
        }

        @Test("signalGroup reaches the child's group; a group without members is no error")
        func signalGroup() async throws {
            let child = try ChildProcess.start("sleep", arguments: ["100"])
            child.signalGroup(SIGTERM)
            #expect(await child.exit() == .signalled(SIGTERM))
            #expect(kill(-child.processID, 0) != 0)  // its only member, collected: the group is empty
            child.signalGroup(0)  // ESRCH: ignored
        }
    }

    /// A temporary folder for one test, removed with it.
    private final class ChildScratch: Sendable {
        let path: String

        init() {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-child-\(UUID())").path
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }

        /// The text of file `name` in the folder, or "" when it cannot be read.
        func contents(_ name: String) -> String {
            (try? String(contentsOfFile: path + "/" + name, encoding: .utf8)) ?? ""
        }
    }
#endif
