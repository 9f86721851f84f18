#if HTTP
    import NIOConcurrencyHelpers

    /// Progress in bytes over a batch of downloads: pass one to each ``HTTPSession/download(_:to:ifChanged:checksum:progress:resumesPartialFile:syncsToDisk:)``
    /// of the batch and read ``snapshot()`` as often as a display refreshes.
    ///
    /// Each download registers when it starts receiving, adds its expected size when the server announces one, counts
    /// bytes as they are written, and leaves when it ends. A resumed download counts the bytes it already had as
    /// received (so `bytesReceived / bytesExpected` is the fraction of the batch on disk).
    ///
    /// Thread-safe; every update is O(1) under this object's own lock; ``snapshot()`` is O(active transfers).
    public final class TransferProgress: Sendable {
        /// The batch at one moment.
        public struct Snapshot: Sendable, Hashable {
            /// Bytes received over every transfer so far (finished and active; a resumed one's earlier bytes included),
            /// on disk or about to be written.
            public var bytesReceived: Int64
            /// The sum of the announced sizes of the transfers seen so far (0 while none is known).
            public var bytesExpected: Int64
            /// Bytes received over the network since the progress was created (resumed bytes excluded): divided by
            /// the elapsed time, the batch's rate.
            public var bytesTransferred: Int64
            /// Transfers that ended (completed, unchanged or failed).
            public var finished: Int
            /// The transfers under way, in order of start.
            public var active: [Transfer]
        }

        /// One transfer under way.
        public struct Transfer: Sendable, Hashable {
            /// The destination's name.
            public var name: String
            /// Bytes received (a resumed transfer's earlier bytes included).
            public var received: Int64
            /// The announced size, if known.
            public var expected: Int64?
        }

        private struct State {
            var nextIdentifier = 0
            var active: [Int: Transfer] = [:]
            var received: Int64 = 0
            var expected: Int64 = 0
            var transferred: Int64 = 0
            var finished = 0
            #if SWITCHYARD_TEST_HOOKS
                /// Tasks in `waitUntilReceived(_:)` by identifier, and the last identifier given.
                var waiters: [Int: (bytes: Int64, continuation: CheckedContinuation<Void, Never>)] = [:]
                var lastWaiter = 0
            #endif

            /// Removes and returns the test hook's waiters whose byte count is reached (none in release builds).
            mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
                #if SWITCHYARD_TEST_HOOKS
                    guard !waiters.isEmpty else { return [] }
                    let ready = waiters.filter { received >= $0.value.bytes }
                    for identifier in ready.keys { waiters[identifier] = nil }
                    return ready.values.map(\.continuation)
                #else
                    return []
                #endif
            }
        }

        private let state = NIOLockedValueBox(State())

        public init() {}

        /// The batch now.
        public func snapshot() -> Snapshot {
            state.withLockedValue { state in
                Snapshot(
                    bytesReceived: state.received, bytesExpected: state.expected, bytesTransferred: state.transferred,
                    finished: state.finished, active: state.active.sorted { $0.key < $1.key }.map(\.value))
            }
        }

        #if SWITCHYARD_TEST_HOOKS
            /// Returns once ``Snapshot/bytesReceived`` has reached `bytes`, or once the calling task is cancelled. For
            /// tests: an event to wait for instead of polling ``snapshot()``.
            @_spi(Testing)
            public func waitUntilReceived(_ bytes: Int64) async {
                let identifier = state.withLockedValue { state in
                    state.lastWaiter += 1
                    return state.lastWaiter
                }
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let now = state.withLockedValue { state -> Bool in
                            // Cancelled before this: the handler below found nothing to resume.
                            if state.received >= bytes || Task.isCancelled { return true }
                            state.waiters[identifier] = (bytes, continuation)
                            return false
                        }
                        if now { continuation.resume() }
                    }
                } onCancel: {
                    state.withLockedValue { $0.waiters.removeValue(forKey: identifier) }?.continuation.resume()
                }
            }
        #endif

        func begin(_ name: String) -> Int {
            state.withLockedValue { state in
                state.nextIdentifier += 1
                state.active[state.nextIdentifier] = Transfer(name: name, received: 0, expected: nil)
                return state.nextIdentifier
            }
        }

        /// The transfer restarts at `onDisk` bytes of `expected` (a new attempt, a resume or a restart from zero).
        func restart(_ identifier: Int, onDisk: Int64, expected: Int64?) {
            let satisfied = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
                guard let old = state.active[identifier] else { return [] }
                state.received += onDisk - old.received
                state.expected += (expected ?? 0) - (old.expected ?? 0)
                state.active[identifier] = Transfer(name: old.name, received: onDisk, expected: expected)
                return state.takeSatisfiedWaiters()
            }
            for continuation in satisfied { continuation.resume() }
        }

        func add(_ identifier: Int, bytes: Int64) {
            let satisfied = state.withLockedValue { state in
                state.active[identifier]?.received += bytes
                state.received += bytes
                state.transferred += bytes
                return state.takeSatisfiedWaiters()
            }
            for continuation in satisfied { continuation.resume() }
        }

        func end(_ identifier: Int) {
            state.withLockedValue { state in
                if state.active.removeValue(forKey: identifier) != nil { state.finished += 1 }
            }
        }
    }
#endif
