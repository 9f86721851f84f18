#if Postgres
    import Switchyard

    /// An edge to a job that must finish before a new one starts, with the engine's policy for its failure.
    public struct DurableDependency: Sendable, Hashable {
        /// The job to wait for.
        public var jobID: Int64
        /// What happens to the new job when that one fails or is cancelled (it always starts after a success).
        public var policy: DependencyPolicy

        /// An edge to the job `jobID`.
        public init(_ jobID: Int64, policy: DependencyPolicy = .cancelDependent) {
            self.jobID = jobID
            self.policy = policy
        }

        /// The policy as stored in `edges.policy`.
        var storedPolicy: Int16 {
            switch policy {
            case .cancelDependent: 0
            case .propagateFailure: 1
            case .runAnyway: 2
            }
        }
    }

    /// Everything about an enqueued job besides its kind and input. Build with the initializer and the chaining
    /// methods:
    ///
    /// ```swift
    /// let options = DurableJobOptions(queue: "imports", priority: .userInitiated)
    ///     .retrying(maximumAttempts: 5, backoff: .seconds(2))
    ///     .timeout(.minutes(10))
    ///     .unique("import:vbb")
    /// ```
    public struct DurableJobOptions: Sendable {
        /// The queue, for workers' `queues` and the width limit (`DurableQueue.setWidth(_:of:)`).
        public var queue: String
        /// The job's own priority: among available jobs, a higher effective priority is claimed first (FIFO by
        /// `runAt` within a level). Escalated while a job of higher priority waits on it.
        public var priority: JobPriority
        /// The most attempts in total (a rescue after an expired lease counts as one).
        public var maximumAttempts: Int
        /// The wait after the first failed attempt; each further failure doubles it, up to ``maximumBackoff``, and
        /// every wait is jittered to between half and all of it.
        public var backoff: Duration
        /// The longest wait between attempts.
        public var maximumBackoff: Duration
        /// The longest an attempt may run: its task is then cancelled and the attempt fails as timed out.
        public var timeout: Duration?
        /// How long after enqueueing the job becomes available.
        public var delay: Duration?
        /// At most one unfinished job has this key: enqueueing another returns the existing job.
        public var uniqueKey: String?
        /// Jobs that must finish first, each with its policy.
        public var dependencies: [DurableDependency]

        /// Options: queue `default`, priority `medium`, 3 attempts with a 1 s backoff up to 5 min, no timeout, no delay,
        /// no key, no dependencies.
        public init(
            queue: String = "default", priority: JobPriority = .medium, maximumAttempts: Int = 3,
            backoff: Duration = .seconds(1), maximumBackoff: Duration = .seconds(300), timeout: Duration? = nil,
            delay: Duration? = nil, uniqueKey: String? = nil, dependencies: [DurableDependency] = []
        ) {
            precondition(maximumAttempts >= 1, "DurableJobOptions: maximumAttempts must be at least 1")
            self.queue = queue
            self.priority = priority
            self.maximumAttempts = maximumAttempts
            self.backoff = backoff
            self.maximumBackoff = maximumBackoff
            self.timeout = timeout
            self.delay = delay
            self.uniqueKey = uniqueKey
            self.dependencies = dependencies
        }

        /// These options with `maximumAttempts` and the backoff's first wait.
        public func retrying(maximumAttempts: Int, backoff: Duration = .seconds(1)) -> DurableJobOptions {
            precondition(maximumAttempts >= 1, "DurableJobOptions: maximumAttempts must be at least 1")
            var copy = self
            copy.maximumAttempts = maximumAttempts
            copy.backoff = backoff
            return copy
        }

        /// These options with a timeout per attempt.
        public func timeout(_ timeout: Duration) -> DurableJobOptions {
            var copy = self
            copy.timeout = timeout
            return copy
        }

        /// These options with a delay before the job becomes available.
        public func delayed(by delay: Duration) -> DurableJobOptions {
            var copy = self
            copy.delay = delay
            return copy
        }

        /// These options with a uniqueness key.
        public func unique(_ key: String) -> DurableJobOptions {
            var copy = self
            copy.uniqueKey = key
            return copy
        }

        /// These options with one more dependency.
        public func after<Output>(_ job: DurableJob<Output>, policy: DependencyPolicy = .cancelDependent)
            -> DurableJobOptions
        {
            var copy = self
            copy.dependencies.append(DurableDependency(job.id, policy: policy))
            return copy
        }

        /// These options on another queue.
        public func on(_ queue: String) -> DurableJobOptions {
            var copy = self
            copy.queue = queue
            return copy
        }
    }

    extension Duration {
        /// Whole milliseconds, rounded down (at least 0).
        var durableMilliseconds: Int64 {
            let (seconds, attoseconds) = components
            return max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        }
    }
#endif
