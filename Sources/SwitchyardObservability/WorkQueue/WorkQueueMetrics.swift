#if Observability
    import CoreMetrics
    import Switchyard

    /// The swift-metrics of one `WorkQueue`, every one with the dimension `queue` (the queue's name):
    ///
    /// | label | kind | what |
    /// |---|---|---|
    /// | `switchyard_jobs_submitted_total` | counter | jobs accepted by the queue |
    /// | `switchyard_jobs_finished_total` | counter, dimension `outcome` | `succeeded`, `failed` (timeouts and failed dependencies included) or `cancelled` |
    /// | `switchyard_jobs_pending` | gauge | submitted, not started |
    /// | `switchyard_jobs_running` | gauge | running an attempt |
    /// | `switchyard_job_duration_seconds` | timer, dimension `outcome` | from the first attempt's start to the end |
    /// | `switchyard_job_retries_total` | counter | attempts that failed and were scheduled again |
    ///
    /// ``sample()`` brings the counters and gauges up to date from the queue's O(1) `WorkQueue.counts`:
    /// counts are exact however many events were missed. ``record(_:)`` adds an event's duration or retry.
    ///
    /// Thread-safety: use one value from one task at a time (``WorkQueueService`` does); the metric objects
    /// themselves are the factory's, safe from any thread.
    public struct WorkQueueMetrics: Sendable {
        /// The queue measured.
        public let queue: WorkQueue
        private let submitted: Counter
        private let succeeded: Counter
        private let failed: Counter
        private let cancelled: Counter
        private let retries: Counter
        private let pending: Gauge
        private let running: Gauge
        private let durations: [String: Timer]
        /// The counts at the last sample (nil before the first: everything the queue counted is then reported).
        private var reported: WorkQueue.Counts?

        /// Creates the queue's metrics with `factory` (by default the one `MetricsSystem.bootstrap` installed).
        public init(_ queue: WorkQueue, factory: any MetricsFactory = MetricsSystem.factory) {
            self.queue = queue
            let name = [("queue", queue.name)]
            func finished(_ outcome: String) -> Counter {
                Counter(
                    label: "switchyard_jobs_finished_total", dimensions: name + [("outcome", outcome)],
                    factory: factory)
            }
            submitted = Counter(label: "switchyard_jobs_submitted_total", dimensions: name, factory: factory)
            succeeded = finished("succeeded")
            failed = finished("failed")
            cancelled = finished("cancelled")
            retries = Counter(label: "switchyard_job_retries_total", dimensions: name, factory: factory)
            pending = Gauge(label: "switchyard_jobs_pending", dimensions: name, factory: factory)
            running = Gauge(label: "switchyard_jobs_running", dimensions: name, factory: factory)
            var durations: [String: Timer] = [:]
            for outcome in ["succeeded", "failed", "cancelled"] {
                durations[outcome] = Timer(
                    label: "switchyard_job_duration_seconds", dimensions: name + [("outcome", outcome)],
                    preferredDisplayUnit: .seconds, factory: factory)
            }
            self.durations = durations
        }

        /// Reads the queue's counts (O(1)) and reports what changed since the last sample.
        public mutating func sample() {
            let counts = queue.counts
            submitted.increment(by: counts.submitted - (reported?.submitted ?? 0))
            succeeded.increment(by: counts.succeeded - (reported?.succeeded ?? 0))
            failed.increment(by: counts.failed - (reported?.failed ?? 0))
            cancelled.increment(by: counts.cancelled - (reported?.cancelled ?? 0))
            pending.record(counts.pending)
            running.record(counts.running)
            reported = counts
        }

        /// Records what `event` adds beyond the counts: a finished job's duration, a retry.
        public func record(_ event: JobEvent) {
            switch event.kind {
            case .retrying:
                retries.increment()
            case .finished:
                guard let startedAt = event.startedAt, let timer = durations[Self.outcome(of: event.state)] else {
                    return
                }
                let elapsed = (event.time - startedAt).components
                timer.recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
            case .submitted, .started, .timedOut, .priorityChanged:
                return
            }
        }

        /// The `outcome` dimension of a finished state.
        static func outcome(of state: JobState) -> String {
            switch state {
            case .succeeded: "succeeded"
            case .cancelled: "cancelled"
            default: "failed"
            }
        }
    }
#endif
