#if Watch && !os(Linux)
    import Darwin
    import Dispatch
    import Synchronization

    /// ``ProcessExit`` on Apple platforms: a dispatch process source for the exit, raced against the timeout.
    enum DarwinProcessExit {
        static func wait(for processID: Int32, timeout: Duration?) async throws -> Bool {
            let source = DispatchSource.makeProcessSource(identifier: processID, eventMask: .exit)
            let exited: Bool = await withCheckedContinuation { continuation in
                let once = ResumeOnce(continuation)
                source.setEventHandler { once.resume(true) }
                source.resume()
                if kill(processID, 0) != 0 && errno == ESRCH { once.resume(true) }
                if let timeout {
                    let nanoseconds =
                        timeout.components.seconds * 1_000_000_000
                        + timeout.components.attoseconds / 1_000_000_000
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) {
                        once.resume(false)
                    }
                }
            }
            source.cancel()
            try Task.checkCancellation()
            return exited
        }
    }

    /// Resumes a continuation once, whoever comes first.
    private final class ResumeOnce: Sendable {
        private let continuation: Mutex<CheckedContinuation<Bool, Never>?>

        init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = Mutex(continuation) }

        func resume(_ value: Bool) {
            let taken = continuation.withLock { slot in
                defer { slot = nil }
                return slot
            }
            taken?.resume(returning: value)
        }
    }
#endif
