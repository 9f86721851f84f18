#if Postgres
    import Logging
    import NIOConcurrencyHelpers
    import PostgresNIO

    /// What a durable job's handler knows of its attempt, and what it can do with it.
    ///
    /// Thread-safe: the handler may report progress from any task or thread.
    public final class DurableJobContext: Sendable {
        /// The job's id.
        public let jobID: Int64
        /// The attempt's number (1 for the first claim). Every transition of the job is fenced by it.
        public let attempt: Int
        /// Failed attempts before this one.
        public let failures: Int
        /// The job's kind.
        public let kind: String
        /// The job's queue.
        public let queue: String
        /// The worker's logger, with the job's id and kind as metadata.
        public let logger: Logger

        /// The durable queue the job belongs to (to enqueue follow-up jobs, or reach its client).
        public let durable: DurableQueue
        private let reporter: @Sendable (Int64, Int64) -> Void
        private let completed: @Sendable () -> Void
        private let completedHere = NIOLockedValueBox(false)

        init(
            jobID: Int64, attempt: Int, failures: Int, kind: String, queue: String, logger: Logger,
            durable: DurableQueue, reporter: @escaping @Sendable (Int64, Int64) -> Void,
            completed: @escaping @Sendable () -> Void
        ) {
            self.jobID = jobID
            self.attempt = attempt
            self.failures = failures
            self.kind = kind
            self.queue = queue
            self.logger = logger
            self.durable = durable
            self.reporter = reporter
            self.completed = completed
        }

        /// Records progress: stored with the worker's next lease renewal (every third of the lease), and shown by
        /// `DurableQueue.snapshot()` and `switchyard jobs`. O(1); the latest values win.
        public func reportProgress(completed: Int64, total: Int64) {
            reporter(completed, total)
        }

        /// Runs `body` in a transaction that also completes the job with `body`'s output, fenced by this attempt:
        /// the writes `body` makes commit if and only if this attempt is still the job's current one, which makes
        /// the job's effects exactly once even though it may run more than once.
        ///
        /// Return the same output from the handler. Throws ``DurableError/Kind/staleAttempt`` (after rolling back)
        /// when the job was handed to another worker, or `CancellationError` when the worker stopped the attempt
        /// first (it learned of the lost lease); the handler should let either through.
        public func withCompletingTransaction<Output: Encodable & Sendable>(
            _ body: @escaping @Sendable (PostgresConnection) async throws -> Output
        ) async throws -> Output {
            let s = durable.s
            let id = jobID
            let attempt = Int32(attempt)
            let logger = logger
            let output = try await durable.guarded { connection in
                try await connection.query("BEGIN", logger: logger)
                do {
                    let output = try await body(connection)
                    let text = try DurableJobs.encode(output)
                    let rows = try await connection.query(
                        """
                        SELECT job_id FROM \(unescaped: s).finish(\([id]), \([attempt]), \([Int16(0)]), \([text]),
                            \([""]))
                        """, logger: logger)
                    var finished = false
                    for try await _ in rows { finished = true }
                    guard finished else {
                        throw DurableError(
                            .staleAttempt, jobID: id,
                            "attempt \(attempt) is no longer the job's current one: its transaction was rolled back")
                    }
                    try await connection.query("COMMIT", logger: logger)
                    return output
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
            completedHere.withLockedValue { $0 = true }
            completed()
            return output
        }

        /// Whether ``withCompletingTransaction(_:)`` completed the job.
        var isCompleted: Bool { completedHere.withLockedValue { $0 } }
    }
#endif
