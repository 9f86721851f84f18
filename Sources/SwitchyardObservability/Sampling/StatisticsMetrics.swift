#if Observability
    import CoreMetrics
    import Switchyard

    /// Metrics read from a source's statistics (a `BlockingExecutor`'s, a `Cache`'s): each
    /// ``sample()`` reads them once and reports what changed, so counters are exact however rarely it runs.
    /// ``StatisticsService`` samples a list of them on a schedule.
    ///
    /// Thread-safety: sample one value from one task at a time (``StatisticsService`` does); the metric objects are
    /// the factory's, safe from any thread.
    public struct StatisticsMetrics: Sendable {
        private let read: @Sendable () -> [String: Int64]
        private let counters: [String: Counter]
        private let gauges: [String: Gauge]
        private var reported: [String: Int64] = [:]

        /// The metrics of `executor`, with the dimension `executor` (its name):
        ///
        /// | label | kind | what |
        /// |---|---|---|
        /// | `switchyard_blocking_threads` | gauge | threads now |
        /// | `switchyard_blocking_busy` | gauge | threads running work |
        /// | `switchyard_blocking_queued` | gauge | work waiting for a thread |
        /// | `switchyard_blocking_completed_total` | counter | work finished |
        ///
        /// Each sample takes the executor's lock briefly (O(1)).
        public init(_ executor: BlockingExecutor, factory: any MetricsFactory = MetricsSystem.factory) {
            let dimensions = [("executor", executor.name)]
            self.init(
                counters: ["switchyard_blocking_completed_total": dimensions],
                gauges: [
                    "switchyard_blocking_threads": dimensions, "switchyard_blocking_busy": dimensions,
                    "switchyard_blocking_queued": dimensions,
                ],
                factory: factory
            ) {
                let now = executor.statistics
                return [
                    "switchyard_blocking_completed_total": Int64(truncatingIfNeeded: now.completed),
                    "switchyard_blocking_threads": Int64(now.threads), "switchyard_blocking_busy": Int64(now.busy),
                    "switchyard_blocking_queued": Int64(now.queued),
                ]
            }
        }

        /// The metrics of `cache`, with the dimension `cache` (its name):
        ///
        /// | label | kind | what |
        /// |---|---|---|
        /// | `switchyard_cache_hits_total`, `switchyard_cache_misses_total` | counter | lookups |
        /// | `switchyard_cache_loads_total`, `switchyard_cache_load_failures_total` | counter | get-or-load loads |
        /// | `switchyard_cache_removals_total` | counter, dimension `reason` | why entries left (`evicted`, …) |
        /// | `switchyard_cache_entries`, `switchyard_cache_cost` | gauge | entries and their total cost now |
        ///
        /// Each sample reads `Cache.statistics`: O(stripes), each stripe's lock taken briefly.
        public init<Key, Value>(_ cache: Cache<Key, Value>, factory: any MetricsFactory = MetricsSystem.factory) {
            let name = [("cache", cache.name)]
            var counters: [String: [(String, String)]] = [
                "switchyard_cache_hits_total": name, "switchyard_cache_misses_total": name,
                "switchyard_cache_loads_total": name, "switchyard_cache_load_failures_total": name,
            ]
            for reason in CacheRemovalReason.allCases {
                counters["switchyard_cache_removals_total \(reason)"] = name + [("reason", "\(reason)")]
            }
            self.init(
                counters: counters,
                gauges: ["switchyard_cache_entries": name, "switchyard_cache_cost": name], factory: factory
            ) {
                let now = cache.statistics
                var values: [String: Int64] = [
                    "switchyard_cache_hits_total": Int64(truncatingIfNeeded: now.hits),
                    "switchyard_cache_misses_total": Int64(truncatingIfNeeded: now.misses),
                    "switchyard_cache_loads_total": Int64(truncatingIfNeeded: now.loads),
                    "switchyard_cache_load_failures_total": Int64(truncatingIfNeeded: now.loadFailures),
                    "switchyard_cache_entries": Int64(now.count), "switchyard_cache_cost": Int64(now.totalCost),
                ]
                for (reason, count) in now.removals {
                    values["switchyard_cache_removals_total \(reason)"] = Int64(truncatingIfNeeded: count)
                }
                return values
            }
        }

        /// Counters and gauges keyed by a name whose first word is the label; `read` gives every key's value now.
        private init(
            counters: [String: [(String, String)]], gauges: [String: [(String, String)]], factory: any MetricsFactory,
            read: @escaping @Sendable () -> [String: Int64]
        ) {
            func label(_ key: String) -> String { String(key.prefix { $0 != " " }) }
            self.read = read
            self.counters = counters.reduce(into: [:]) { made, entry in
                made[entry.key] = Counter(label: label(entry.key), dimensions: entry.value, factory: factory)
            }
            self.gauges = gauges.reduce(into: [:]) { made, entry in
                made[entry.key] = Gauge(label: label(entry.key), dimensions: entry.value, factory: factory)
            }
        }

        /// Reads the statistics once and reports what changed since the last sample.
        public mutating func sample() {
            let now = read()
            for (key, counter) in counters {
                let value = now[key] ?? 0
                counter.increment(by: max(0, value - (reported[key] ?? 0)))
                reported[key] = value
            }
            for (key, gauge) in gauges { gauge.record(now[key] ?? 0) }
        }
    }
#endif
