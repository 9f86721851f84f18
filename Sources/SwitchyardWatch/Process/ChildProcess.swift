#if Watch
    import Switchyard
    import SystemPackage

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A command run as a child process in a process group of its own: its exit can be awaited, and it can be
    /// signalled or stopped together with every process it started.
    ///
    /// ```swift
    /// let child = try ChildProcess.start("make", arguments: ["test"])
    /// print(await child.exit())                                  // "exited with status 0"
    ///
    /// let server = try ChildProcess.start("npm", arguments: ["run", "serve"])
    /// _ = await server.terminate(grace: .seconds(2))             // SIGTERM to its group, SIGKILL 2 s later
    /// ```
    ///
    /// **Process group.** The child is started (`posix_spawnp`) as the leader of a new process group whose id is its
    /// process id, so what it starts (a shell's commands, a build's compilers, a server's workers) can be signalled
    /// with it. A process that moves itself to another group or session (`setsid`, `setpgid`: daemons, shells with
    /// job control) leaves the group and is not reached. The terminal's signals (Ctrl-C, Ctrl-\) go to the
    /// terminal's foreground group, which is this process's, not the child's: forward them with ``signalGroup(_:)``.
    /// Like a background job, a child that reads from the terminal is stopped (`SIGTTIN`).
    ///
    /// **What the child inherits.** Standard input, output and error are this process's, as are descriptors not
    /// marked close-on-exec. Signals are not: the child starts with every signal at its default action and none
    /// blocked, whatever this process ignores, handles or blocks (so a `SIGTERM` that this process turns into an
    /// event, with ``Signals``, still stops the child).
    ///
    /// **Exit.** The exit is collected (`waitpid`) on a thread of `BlockingExecutor.shared`, held while the child
    /// runs; no thread of Swift's cooperative pool ever waits. Nothing else in the program may collect it (a
    /// `waitpid(-1, …)` elsewhere, `SIGCHLD` set to `SIG_IGN`): the exit is then reported as `.exited(-1)`.
    /// Releasing a `ChildProcess` neither stops the child nor leaves a zombie: its exit is still collected.
    ///
    /// **Built on `posix_spawnp` and `waitpid`**, not on swift-subprocess, whose `run` confines a child to the
    /// closure it is given and starts it asynchronously: a `ChildProcess` starts synchronously, outlives the call
    /// that started it, and is awaited and signalled from any task.
    ///
    /// Thread-safe: every member may be used from any task or thread, concurrently.
    public final class ChildProcess: Sendable {
        /// How a child process ended.
        public enum Termination: Sendable, Hashable, CustomStringConvertible {
            /// It exited with this status (0...255), or -1 when its status could not be collected (see
            /// ``ChildProcess``).
            case exited(Int32)
            /// A signal with this number ended it.
            case signalled(Int32)

            /// The status a shell reports for it: the exit status, or 128 + the signal's number.
            public var shellStatus: Int32 {
                switch self {
                case .exited(let status): status
                case .signalled(let number): 128 + number
                }
            }

            public var description: String {
                switch self {
                case .exited(let status): "exited with status \(status)"
                case .signalled(let number): "ended by signal \(number)"
                }
            }
        }

        /// The child's process id, which is also the id of its process group. It stays the child's until its exit
        /// is collected; the group's id stays in use while any member of the group lives.
        public let processID: Int32

        private let ending: ChildExit

        private init(processID: Int32, ending: ChildExit) {
            self.processID = processID
            self.ending = ending
        }

        /// Starts `executable` with `arguments` in a new process group and returns once it runs the new program
        /// (`posix_spawnp` returns after the child's `exec`; nothing waits for the program itself).
        ///
        /// - Parameters:
        ///   - executable: a path, or a bare name looked up on this process's `PATH` (as `posix_spawnp` does, even
        ///     when `environment` sets another `PATH`). A relative path is resolved in `workingDirectory`.
        ///   - arguments: the arguments after the program's name (`argv[1...]`; `argv[0]` is `executable`).
        ///   - environment: the child's whole environment; `nil` passes this process's.
        ///   - workingDirectory: the child's working directory; `nil` keeps this process's.
        /// - Throws: ``ChildProcessError`` when the program cannot be started (not found, not executable, the
        ///   working directory cannot be entered, out of processes).
        public static func start(
            _ executable: String, arguments: [String], environment: [String: String]? = nil,
            workingDirectory: FilePath? = nil
        ) throws -> ChildProcess {
            let processID = try ChildSpawn.spawn(
                executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory)
            let ending = ChildExit()
            BlockingExecutor.shared.execute { ending.finish(ChildSpawn.collectExit(of: processID)) }
            return ChildProcess(processID: processID, ending: ending)
        }

        /// How the child ended, once it has; `nil` while it runs.
        public var termination: Termination? { ending.termination }

        /// Waits for the child to exit and returns how it ended; at once if it already has.
        ///
        /// Any number of tasks may wait, each gets the same answer. The waiting task is suspended (no thread is
        /// held). Cancellation does not end the wait: the child's exit does (``terminate(signal:grace:)`` brings it
        /// about).
        public func exit() async -> Termination {
            // A wait without a deadline ends only with the exit.
            await ending.wait(until: nil) ?? .exited(-1)
        }

        /// Sends `signal` to every process in the child's group (`kill(-processID, signal)`).
        ///
        /// A group that no longer has members (`ESRCH`) is not an error, nor is a group whose members this process
        /// may not signal (`EPERM`). Once the child's exit is collected and its group is empty, the group's id may
        /// in principle be reused by an unrelated process that makes itself a group leader: signal a group only
        /// while it is known to have members.
        /// - Precondition: `signal` is a valid signal number (or 0, which checks for members and sends nothing).
        public func signalGroup(_ signal: Int32) {
            guard kill(-processID, signal) != 0 else { return }
            let code = errno
            precondition(code == ESRCH || code == EPERM, "ChildProcess.signalGroup: invalid signal \(signal)")
        }

        /// Stops the child and everything in its group, and returns how the child ended.
        ///
        /// Sends `signal` (default `SIGTERM`) to the group, and `SIGCONT` after it so that stopped members act on
        /// it. If the child has not exited within `grace`, the group gets `SIGKILL`. If it has, the other members
        /// of the group get the rest of `grace` to exit, and then `SIGKILL`: when this returns, every member of the
        /// group has been sent `SIGKILL` or has left it (it may still be a zombie for its new parent to collect).
        /// Calling it on a child that has already exited only clears its group. Concurrent calls each send their
        /// signals and each return the child's ending. Not cancellable: it returns within about `grace`, plus the
        /// time a `SIGKILL`ed child takes to die.
        public func terminate(signal: Int32 = SIGTERM, grace: Duration) async -> Termination {
            let deadline = ContinuousClock.now + grace
            signalGroup(signal)
            if signal != SIGKILL && signal != SIGCONT { signalGroup(SIGCONT) }
            guard let termination = await ending.wait(until: deadline) else {
                signalGroup(SIGKILL)
                return await exit()
            }
            await clearGroup(by: deadline)
            return termination
        }

        /// Waits, until `deadline`, for the group to have no members (`kill(-pgid, 0)` fails with `ESRCH`), then
        /// kills what is left. Zombies count as members, so without a parent that collects them this waits until
        /// the deadline; the pause between checks doubles from 1 ms to 50 ms.
        private func clearGroup(by deadline: ContinuousClock.Instant) async {
            var pause = Duration.milliseconds(1)
            while kill(-processID, 0) == 0 || errno == EPERM {
                let now = ContinuousClock.now
                guard now < deadline else {
                    signalGroup(SIGKILL)
                    return
                }
                try? await Task.sleep(until: min(now + pause, deadline), clock: .continuous)
                pause = min(pause * 2, .milliseconds(50))
            }
        }
    }

    /// Why a child process could not be started.
    public struct ChildProcessError: Error, Sendable, CustomStringConvertible {
        /// The executable as given to ``ChildProcess/start(_:arguments:environment:workingDirectory:)``.
        public let executable: String
        /// The error number of the failed call, when a call failed.
        public let errno: Int32?
        /// What failed, in words.
        public let reason: String

        public var description: String { "cannot start \(executable): \(reason)" }

        init(executable: String, errno: Int32?, reason: String) {
            self.executable = executable
            self.errno = errno
            self.reason = reason
        }
    }
#endif
