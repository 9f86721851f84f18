#if Dashboard
    /// Something a dashboard shows: a set of in-process work queues (``WorkQueuesSource``), a durable queue
    /// (``DurableQueueSource``), or another job system.
    ///
    /// A dashboard reads a source from its snapshot producer and from one-off reads (`GET snapshot.json` while nobody
    /// watches), which may overlap, and calls it from request handlers for pages and actions, possibly concurrently
    /// with a read: implementations must be thread-safe. Reads
    /// should cost O(list limit), not O(jobs): a dashboard may read every 250 ms while the source runs at full speed.
    public protocol DashboardSource: Sendable {
        /// The source's identifier: unique among a dashboard's sources, URL-safe (it appears in query strings).
        var id: String { get }

        /// Reads the source: its queues' counts, at most `limit` running and `limit` waiting jobs, recent failures.
        /// A failure to read is reported by throwing; the dashboard shows the error in the source's place.
        func read(limit: Int) async throws -> DashboardSourceSnapshot

        /// Lists jobs of `list` from `offset` (in the order the snapshot lists them), at most `limit`, optionally in
        /// one queue only; returns them with the list's total.
        func jobs(_ list: DashboardJobList, queue: String?, offset: Int, limit: Int) async throws -> (
            jobs: [DashboardJob], total: Int
        )

        /// Performs `action`, returning a sentence saying what was done. Throws ``DashboardActionError``.
        func perform(_ action: DashboardAction) async throws -> String
    }

    /// A list a dashboard pages through.
    public enum DashboardJobList: String, Sendable, Codable, CaseIterable {
        case running, waiting
    }

    /// What a dashboard's actions can ask of a source.
    public enum DashboardActionKind: String, Sendable, Codable, CaseIterable {
        /// Cancel one job (listed by the dashboard).
        case cancelJob
        /// Cancel every unfinished job of a queue.
        case cancelQueue
        /// Run a failed or cancelled job again.
        case retryJob
        /// Stop starting a queue's jobs.
        case suspendQueue
        /// Start a suspended queue's jobs again.
        case resumeQueue
    }

    /// One action, as posted to a dashboard's `actions` endpoint.
    public struct DashboardAction: Sendable, Codable, Hashable {
        public var action: DashboardActionKind
        public var source: String
        /// The job, for job actions.
        public var job: String?
        /// The queue, for queue actions.
        public var queue: String?

        public init(action: DashboardActionKind, source: String, job: String? = nil, queue: String? = nil) {
            self.action = action
            self.source = source
            self.job = job
            self.queue = queue
        }
    }

    /// Why an action was not performed.
    public enum DashboardActionError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The source does not support this kind of action.
        case unsupported(DashboardActionKind, source: String)
        /// The action lacks the job or queue it needs, or names one in the wrong form.
        case invalid(String)
        /// No such job or queue (a job must be among those the dashboard lists).
        case notFound(String)

        public var description: String {
            switch self {
            case .unsupported(let kind, let source): "source \"\(source)\" does not support \(kind.rawValue)"
            case .invalid(let message), .notFound(let message): message
            }
        }
    }
#endif
