// What a BlockingExecutor reports about its load.

extension BlockingExecutor {
    /// A consistent snapshot of the executor's load.
    public struct Statistics: Sendable, Hashable, CustomStringConvertible {
        /// Threads alive now (including ones just created that have not started running yet).
        public var threads: Int
        /// Threads running work now.
        public var busy: Int
        /// Work waiting for a thread.
        public var queued: Int
        /// Pieces of work finished since creation (a `run` cancelled before its body started is not counted).
        public var completed: UInt64
        /// The most threads alive at once since creation.
        public var peakThreads: Int

        /// One line for logs: `threads: 8 (peak 8), busy: 3, queued: 0, completed: 120`.
        public var description: String {
            "threads: \(threads) (peak \(peakThreads)), busy: \(busy), queued: \(queued), completed: \(completed)"
        }
    }

    /// The current load. O(1); takes the executor's lock briefly.
    public var statistics: Statistics {
        withLock {
            Statistics(
                threads: threads, busy: busy, queued: pending.count, completed: completed,
                peakThreads: peakThreads)
        }
    }
}
