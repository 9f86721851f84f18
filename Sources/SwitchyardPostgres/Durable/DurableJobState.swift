#if Postgres
    /// Where a durable job is in its life (the `jobs.state` column).
    ///
    /// `waiting` → `available` → `running` → `succeeded`, `failed` or `cancelled`. A failed attempt with attempts left
    /// goes back to `available` (at a later `runAt`); so does a job whose worker stopped renewing its lease, and one
    /// released by a worker shutting down. A job whose dependency failed or was cancelled can finish straight from
    /// `waiting`, by the edge's policy.
    public enum DurableJobState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Waits for unfinished dependencies.
        case waiting
        /// Ready to be claimed from its `runAt` on (scheduled, delayed, or waiting out a retry's backoff until then).
        case available
        /// Leased by a worker that renews its lease while the attempt runs.
        case running
        /// Finished with an output.
        case succeeded
        /// Finished with an error, after its last attempt (or a dependency's failure, by policy).
        case failed
        /// Finished without running to the end: cancelled before it started, while it ran, or by a dependency.
        case cancelled

        /// Whether the job has finished (succeeded, failed or cancelled): its state no longer changes.
        public var isFinished: Bool { self == .succeeded || self == .failed || self == .cancelled }

        /// The state's name, as stored.
        public var description: String { rawValue }
    }
#endif
