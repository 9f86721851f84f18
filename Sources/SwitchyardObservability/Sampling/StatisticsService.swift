#if Observability
    import ServiceLifecycle

    /// Samples ``StatisticsMetrics`` every `interval` while it runs, and once more when it ends: a swift-service-
    /// lifecycle `Service` for the blocking executors and caches of a program.
    ///
    /// ```swift
    /// let statistics = StatisticsService([
    ///     StatisticsMetrics(BlockingExecutor.shared, factory: prometheus),
    ///     StatisticsMetrics(thumbnails, factory: prometheus),
    /// ])
    /// ```
    ///
    /// `run()` returns at graceful shutdown or cancellation, after a last sample; it never throws.
    public struct StatisticsService: Service {
        private let metrics: [StatisticsMetrics]
        private let interval: Duration
        private let clock: any Clock<Duration>

        /// - Parameters:
        ///   - metrics: what to sample.
        ///   - interval: how often to sample, measured by `clock`.
        ///   - clock: the clock of the interval.
        public init(
            _ metrics: [StatisticsMetrics], interval: Duration = .seconds(5),
            clock: any Clock<Duration> = ContinuousClock()
        ) {
            precondition(interval > .zero, "StatisticsService: the interval must be positive")
            self.metrics = metrics
            self.interval = interval
            self.clock = clock
        }

        public func run() async throws {
            var sampled = await cancelWhenGracefulShutdown { [metrics, interval, clock] in
                var metrics = metrics
                while !Task.isCancelled {
                    for index in metrics.indices { metrics[index].sample() }
                    do { try await clock.sleep(for: interval, tolerance: nil) } catch { break }
                }
                return metrics
            }
            for index in sampled.indices { sampled[index].sample() }
        }
    }
#endif
