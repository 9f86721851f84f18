#if Postgres
    /// A handle to an enqueued durable job whose output is `Output`: any process that has the id can build one
    /// (``DurableQueue/job(_:of:)``) and await the result.
    public struct DurableJob<Output: Codable & Sendable>: Sendable, Hashable, CustomStringConvertible {
        /// The job's id (`jobs.id`).
        public let id: Int64
        /// Whether this enqueue created the job (false: a job with the same uniqueness key was unfinished).
        public let isNew: Bool
        let queue: DurableQueue

        init(id: Int64, isNew: Bool, queue: DurableQueue) {
            self.id = id
            self.isNew = isNew
            self.queue = queue
        }

        /// The job's output once it has succeeded; see ``DurableQueue/result(of:)``.
        public func result() async throws -> Output {
            try await queue.result(of: self)
        }

        /// Cancels the job; see ``DurableQueue/cancel(_:)``.
        public func cancel() async throws {
            try await queue.cancel(id)
        }

        /// The job's row now; see ``DurableQueue/status(of:)``.
        public func status() async throws -> DurableJobStatus {
            try await queue.status(of: id)
        }

        /// `job N`.
        public var description: String { "job \(id)" }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.id == rhs.id && lhs.queue.schema == rhs.queue.schema
        }
        public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }
#endif
