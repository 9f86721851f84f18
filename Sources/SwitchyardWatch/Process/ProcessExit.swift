#if Watch
    import Switchyard

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Awaits the exit of any process, by id: a child or not (a server started elsewhere, a grandchild that a
    /// ``ChildProcess`` left behind), as a dispatch process source (`DISPATCH_SOURCE_TYPE_PROC`) reports it on
    /// Apple platforms.
    ///
    /// ```swift
    /// if try await ProcessExit.wait(for: serverPID, timeout: .seconds(5)) == false { print("still running") }
    /// ```
    ///
    /// Linux: a pidfd (`pidfd_open`, Linux 5.3 and later) waited on with `poll` on a thread of
    /// `BlockingExecutor.shared`, held while the process runs; no thread of Swift's cooperative pool waits. Elsewhere:
    /// a dispatch process source. A process that has exited but was not collected yet (a zombie) counts as exited.
    /// This does not collect the exit status (only a parent can; for a child, ``ChildProcess/exit()`` does).
    public enum ProcessExit {
        /// Waits until process `processID` exits, or `timeout` passes.
        /// - Returns: `true` once it has exited (at once if there is no such process), `false` if `timeout` passed
        ///   first.
        /// - Throws: `CancellationError` when the calling task is cancelled while it waits; ``ChildProcessError`` when
        ///   the process cannot be watched (a system without pidfds).
        public static func wait(for processID: Int32, timeout: Duration? = nil) async throws -> Bool {
            #if os(Linux)
                let descriptor: Int32
                switch PidFD.open(processID) {
                case .success(let opened): descriptor = opened
                case .failure(let error) where error.errno == ESRCH: return true
                case .failure(let error):
                    throw ChildProcessError(
                        executable: "process \(processID)", errno: error.errno, reason: "cannot watch its exit")
                }
                defer { close(descriptor) }
                let wake = try WakePipe()
                return try await withTaskCancellationHandler {
                    let exited = try await BlockingExecutor.shared.run {
                        PidFD.poll(descriptor, wake: wake.readEnd, timeout: timeout)
                    }
                    try Task.checkCancellation()
                    return exited
                } onCancel: {
                    wake.wake()
                }
            #else
                return try await DarwinProcessExit.wait(for: processID, timeout: timeout)
            #endif
        }
    }

    #if os(Linux)
        /// `pidfd_open`, which the C library declares only in recent versions, looked up at run time.
        enum PidFD {
            private typealias Open = @convention(c) (Int32, UInt32) -> Int32
            private static let openFunction: Open? = {
                guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pidfd_open") else { return nil }
                return unsafeBitCast(symbol, to: Open.self)
            }()

            static func open(_ processID: Int32) -> Result<Int32, ScanError> {
                guard let openFunction else { return .failure(ScanError(errno: ENOSYS)) }
                let descriptor = openFunction(processID, 0)
                return descriptor >= 0 ? .success(descriptor) : .failure(ScanError(errno: errno))
            }

            /// Blocks until the pidfd is readable (the process exited), `wake` is written, or `timeout` passes;
            /// returns whether the process exited.
            static func poll(_ descriptor: Int32, wake: Int32, timeout: Duration?) -> Bool {
                let deadline = timeout.map { ContinuousClock.now + $0 }
                while true {
                    var descriptors = [
                        pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                    ]
                    let result = Glibc.poll(&descriptors, 2, WatchLoop.milliseconds(until: deadline))
                    if descriptors[0].revents != 0 { return true }
                    if descriptors[1].revents != 0 { return false }
                    if result == 0 { return false }  // the deadline
                    // EINTR: again, with what is left of the timeout
                }
            }
        }
    #endif
#endif
