#if Postgres
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    /// A durable job's row, read at one moment.
    public struct DurableJobStatus: Sendable, Hashable {
        /// The job's id.
        public var id: Int64
        /// Its kind's name.
        public var kind: String
        /// Its queue.
        public var queue: String
        /// Its state.
        public var state: DurableJobState
        /// Claims so far (the current or last attempt's number).
        public var attempt: Int
        /// Failed attempts so far (a rescue counts as one).
        public var failures: Int
        /// The most attempts it may have.
        public var maximumAttempts: Int
        /// Its own priority level (0–4) and the effective one (raised by jobs waiting on it).
        public var priority: Int
        /// The effective priority level.
        public var effectivePriority: Int
        /// Its last error: a failed attempt's (also while it waits to retry), or why it was cancelled.
        public var error: String?
        /// The output as JSON, once succeeded.
        public var outputJSON: String?
        /// Progress the running (or last) attempt reported.
        public var completedUnits: Int64
        /// The total the running (or last) attempt reported (0: unknown).
        public var totalUnits: Int64
        /// Unfinished dependencies.
        public var pendingDependencies: Int
        /// When it was enqueued.
        public var createdAt: Date
        /// When it becomes (or became) available.
        public var runAt: Date
        /// When its current or last attempt started.
        public var startedAt: Date?
        /// When it finished.
        public var finishedAt: Date?
        /// The worker running it, as `name (host, pid N)`.
        public var worker: String?
        /// Whether a cancellation was asked for while it ran.
        public var isCancelRequested: Bool
    }
#endif
