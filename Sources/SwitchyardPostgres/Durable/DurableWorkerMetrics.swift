#if Postgres
    import CoreMetrics
    import NIOConcurrencyHelpers

    /// The metrics of a ``DurableWorker`` (see its documentation for the labels). Handles are made once per
    /// (queue, kind, outcome) and kept, so an attempt's end costs a dictionary lookup under a lock, not a factory call.
    struct DurableWorkerMetrics: Sendable {
        private let factory: any MetricsFactory
        private let counters = NIOLockedValueBox<[String: Counter]>([:])
        private let timers = NIOLockedValueBox<[String: Timer]>([:])
        private let gauges = NIOLockedValueBox<[String: Gauge]>([:])
        let claims: Timer
        let rescued: Counter

        init(factory: any MetricsFactory) {
            self.factory = factory
            claims = Timer(label: "switchyard_durable_claim_duration_seconds", factory: factory)
            rescued = Counter(label: "switchyard_durable_rescued_total", factory: factory)
        }

        /// Counts an ended attempt and records its duration.
        func ended(queue: String, kind: String, outcome: String, duration: Duration) {
            let key = queue + "\u{0}" + kind + "\u{0}" + outcome
            let counter =
                counters.withLockedValue { $0[key] }
                ?? makeCounter(key, [("queue", queue), ("kind", kind), ("outcome", outcome)])
            counter.increment()
            let timerKey = queue + "\u{0}" + kind
            let timer =
                timers.withLockedValue { $0[timerKey] } ?? makeTimer(timerKey, [("queue", queue), ("kind", kind)])
            timer.recordNanoseconds(Self.nanoseconds(duration))
        }

        /// Records a claim statement that started at `start`.
        func claimed(since start: ContinuousClock.Instant) {
            claims.recordNanoseconds(Self.nanoseconds(ContinuousClock.now - start))
        }

        private static func nanoseconds(_ duration: Duration) -> Int64 {
            duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        }

        /// Records a sampled count of jobs in `state` on `queue`.
        func sampled(queue: String, state: String, count: Int) {
            let key = queue + "\u{0}" + state
            let gauge = gauges.withLockedValue { $0[key] } ?? makeGauge(key, [("queue", queue), ("state", state)])
            gauge.record(count)
        }

        private func makeCounter(_ key: String, _ dimensions: [(String, String)]) -> Counter {
            let made = Counter(label: "switchyard_durable_jobs_total", dimensions: dimensions, factory: factory)
            return counters.withLockedValue { counters in
                if let existing = counters[key] { return existing }
                counters[key] = made
                return made
            }
        }

        private func makeTimer(_ key: String, _ dimensions: [(String, String)]) -> Timer {
            let made = Timer(
                label: "switchyard_durable_job_duration_seconds", dimensions: dimensions,
                preferredDisplayUnit: .seconds,
                factory: factory)
            return timers.withLockedValue { timers in
                if let existing = timers[key] { return existing }
                timers[key] = made
                return made
            }
        }

        private func makeGauge(_ key: String, _ dimensions: [(String, String)]) -> Gauge {
            let made = Gauge(label: "switchyard_durable_jobs", dimensions: dimensions, factory: factory)
            return gauges.withLockedValue { gauges in
                if let existing = gauges[key] { return existing }
                gauges[key] = made
                return made
            }
        }
    }
#endif
