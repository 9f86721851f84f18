#if Dashboard
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    /// What every source of a dashboard holds at one moment: what `GET snapshot.json` returns and what each
    /// `GET events` update carries.
    ///
    /// The JSON schema is stable within a ``schema`` version: fields may be added, none is renamed or removed
    /// without a new version. Lists are capped (``DashboardConfiguration/listLimit``); totals say how many there are,
    /// and `jobs.json` pages through the rest. Times are ISO 8601 in UTC, durations in seconds.
    public struct DashboardSnapshot: Sendable, Codable, Hashable {
        /// The schema version: 1.
        public var schema: Int
        /// Counts the snapshots of one dashboard from 1, so a viewer tells a new update from a repeated one.
        public var sequence: Int
        public var takenAt: Date
        /// Seconds between updates of `GET events`.
        public var interval: Double
        /// Whether actions are enabled (they still need the token).
        public var actionsEnabled: Bool
        public var sources: [DashboardSourceSnapshot]

        public init(
            schema: Int = 1, sequence: Int, takenAt: Date, interval: Double, actionsEnabled: Bool,
            sources: [DashboardSourceSnapshot]
        ) {
            self.schema = schema
            self.sequence = sequence
            self.takenAt = takenAt
            self.interval = interval
            self.actionsEnabled = actionsEnabled
            self.sources = sources
        }
    }

    /// One source: an application's in-process work queues, or a durable queue in PostgreSQL.
    public struct DashboardSourceSnapshot: Sendable, Codable, Hashable {
        /// The source's identifier, unique in its dashboard (URL-safe).
        public var id: String
        /// `inProcess`, `durable`, or `unknown` for a source whose read failed (see `error`).
        public var kind: String
        /// The actions this source supports (``DashboardActionKind`` raw values).
        public var actions: [String]
        /// Why the source could not be read this time (the rest of the fields are then empty).
        public var error: String?
        public var queues: [DashboardQueue]
        /// Shared width limits (in-process limit domains above queues), with the queues under each.
        public var limits: [DashboardLimit]
        /// Running jobs (up to the list limit), oldest first; `runningTotal` counts them all.
        public var running: [DashboardJob]
        public var runningTotal: Int
        /// Waiting and ready jobs (up to the list limit), in submission (in-process) or claim (durable) order.
        public var waiting: [DashboardJob]
        public var waitingTotal: Int
        /// The latest failures, newest first.
        public var failures: [DashboardFailure]
        /// Worker processes (durable sources).
        public var workers: [DashboardWorker]

        public init(
            id: String, kind: String, actions: [String] = [], error: String? = nil, queues: [DashboardQueue] = [],
            limits: [DashboardLimit] = [], running: [DashboardJob] = [], runningTotal: Int = 0,
            waiting: [DashboardJob] = [], waitingTotal: Int = 0, failures: [DashboardFailure] = [],
            workers: [DashboardWorker] = []
        ) {
            self.id = id
            self.kind = kind
            self.actions = actions
            self.error = error
            self.queues = queues
            self.limits = limits
            self.running = running
            self.runningTotal = runningTotal
            self.waiting = waiting
            self.waitingTotal = waitingTotal
            self.failures = failures
            self.workers = workers
        }
    }

    /// A queue's counts and recent throughput.
    public struct DashboardQueue: Sendable, Codable, Hashable {
        public var name: String
        /// Its width (nil: unlimited, for a durable queue without one).
        public var width: Int?
        public var suspended: Bool
        /// The limit domain above the queue whose width it shares, if any.
        public var limit: String?
        public var waiting: Int
        public var ready: Int
        public var running: Int
        /// Finished counts since the queue was made (nil where the source does not count them).
        public var succeeded: Int?
        public var failed: Int?
        public var cancelled: Int?
        /// Jobs finished per second over the last interval (nil for the first snapshot).
        public var throughput: Double?
        /// The latest throughput samples, oldest first (at most 60): the sparkline.
        public var history: [Double]
        /// Progress units of the queue since it was last idle (in-process).
        public var completedUnits: Int64?
        public var totalUnits: Int64?

        public init(
            name: String, width: Int?, suspended: Bool = false, limit: String? = nil, waiting: Int, ready: Int,
            running: Int, succeeded: Int? = nil, failed: Int? = nil, cancelled: Int? = nil, throughput: Double? = nil,
            history: [Double] = [], completedUnits: Int64? = nil, totalUnits: Int64? = nil
        ) {
            self.name = name
            self.width = width
            self.suspended = suspended
            self.limit = limit
            self.waiting = waiting
            self.ready = ready
            self.running = running
            self.succeeded = succeeded
            self.failed = failed
            self.cancelled = cancelled
            self.throughput = throughput
            self.history = history
            self.completedUnits = completedUnits
            self.totalUnits = totalUnits
        }

        /// Jobs finished so far, where the source counts them.
        var finished: Int? {
            guard let succeeded, let failed, let cancelled else { return nil }
            return succeeded + failed + cancelled
        }
    }

    /// A width limit shared by several queues.
    public struct DashboardLimit: Sendable, Codable, Hashable {
        public var name: String
        public var width: Int
        public var running: Int
        public var queues: [String]

        public init(name: String, width: Int, running: Int, queues: [String]) {
            self.name = name
            self.width = width
            self.running = running
            self.queues = queues
        }
    }

    /// A running or waiting job.
    public struct DashboardJob: Sendable, Codable, Hashable {
        /// The job's identifier in its source (a decimal number).
        public var id: String
        public var queue: String
        public var name: String
        /// `waiting`, `ready`, `available` (durable: ready to be claimed) or `running`.
        public var state: String
        /// The priority it asked for, and the one it runs at (higher when a waiter escalated it).
        public var priority: String
        public var effectivePriority: String
        public var attempts: Int
        /// Seconds since it was submitted.
        public var age: Double
        /// Seconds since its first attempt started (running jobs).
        public var elapsed: Double?
        public var completedUnits: Int64
        public var totalUnits: Int64
        public var cancelRequested: Bool
        /// Why it is not running (waiting jobs), most specific first.
        public var reasons: [DashboardReason]
        /// The worker process running it (durable).
        public var worker: String?

        public init(
            id: String, queue: String, name: String, state: String, priority: String, effectivePriority: String,
            attempts: Int, age: Double, elapsed: Double? = nil, completedUnits: Int64 = 0, totalUnits: Int64 = 0,
            cancelRequested: Bool = false, reasons: [DashboardReason] = [], worker: String? = nil
        ) {
            self.id = id
            self.queue = queue
            self.name = name
            self.state = state
            self.priority = priority
            self.effectivePriority = effectivePriority
            self.attempts = attempts
            self.age = age
            self.elapsed = elapsed
            self.completedUnits = completedUnits
            self.totalUnits = totalUnits
            self.cancelRequested = cancelRequested
            self.reasons = reasons
            self.worker = worker
        }
    }

    /// One reason a job is not running.
    public struct DashboardReason: Sendable, Codable, Hashable {
        /// `held`, `dependencies`, `barrier`, `delay`, `retryBackoff`, `slot` (a full width limit or a priority
        /// ahead), `suspended`, `scheduled`, `noWorker`, or `other`.
        public var kind: String
        /// The reason in words.
        public var text: String
        /// The jobs it waits on (`dependencies`).
        public var jobs: [DashboardJobReference]
        /// The queue or limit whose width is full (`slot`), with its running jobs and width.
        public var domain: String?
        public var running: Int?
        public var width: Int?

        public init(
            kind: String, text: String, jobs: [DashboardJobReference] = [], domain: String? = nil, running: Int? = nil,
            width: Int? = nil
        ) {
            self.kind = kind
            self.text = text
            self.jobs = jobs
            self.domain = domain
            self.running = running
            self.width = width
        }
    }

    /// A job named by a reason or a graph.
    public struct DashboardJobReference: Sendable, Codable, Hashable {
        public var id: String
        public var name: String

        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// A job that failed.
    public struct DashboardFailure: Sendable, Codable, Hashable {
        public var id: String
        public var queue: String
        public var name: String
        /// `failed`, `timedOut`, `dependencyFailed` (in-process) or `failed`, `cancelled` (durable).
        public var state: String
        public var error: String
        public var attempts: Int
        public var finishedAt: Date

        public init(
            id: String, queue: String, name: String, state: String, error: String, attempts: Int, finishedAt: Date
        ) {
            self.id = id
            self.queue = queue
            self.name = name
            self.state = state
            self.error = error
            self.attempts = attempts
            self.finishedAt = finishedAt
        }
    }

    /// A worker process of a durable queue.
    public struct DashboardWorker: Sendable, Codable, Hashable {
        public var name: String
        public var host: String
        public var pid: Int
        public var concurrency: Int
        public var running: Int
        public var alive: Bool
        public var secondsSinceSeen: Double

        public init(
            name: String, host: String, pid: Int, concurrency: Int, running: Int, alive: Bool,
            secondsSinceSeen: Double
        ) {
            self.name = name
            self.host = host
            self.pid = pid
            self.concurrency = concurrency
            self.running = running
            self.alive = alive
            self.secondsSinceSeen = secondsSinceSeen
        }
    }
#endif
