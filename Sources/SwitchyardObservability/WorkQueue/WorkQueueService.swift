#if Observability
    import CoreMetrics
    import Logging
    import ServiceLifecycle
    import Switchyard

    /// A `WorkQueue` as a swift-service-lifecycle `Service`: its jobs reported to swift-metrics
    /// (``WorkQueueMetrics``) and swift-log (``WorkQueueLog``) while the service runs, and its work drained on
    /// shutdown.
    ///
    /// ```swift
    /// let queue = WorkQueue(name: "thumbnails", width: 4)
    /// let service = WorkQueueService(queue, logger: Logger(label: "thumbnails"), metricsFactory: prometheus)
    /// let group = ServiceGroup(services: [service], gracefulShutdownSignals: [.sigterm], logger: logger)
    /// try await group.run()
    /// ```
    ///
    /// - **Running**: the counts are sampled every `interval` (O(1) each) and once more at the end; the events are
    ///   read from `WorkQueue.events(bufferingPolicy:)`, which keeps the newest 4,096 undelivered: a
    ///   burst faster than the service reads them skips some durations and log lines, never a count.
    /// - **Graceful shutdown** (the group's signal): the service stops taking part in nothing but waits for every job
    ///   submitted so far, and any submitted meanwhile, to finish (`WorkQueue.waitUntilIdle()`), then
    ///   returns. The queue still accepts jobs meanwhile: stop submitting first (shut the services that submit down
    ///   before this one: a `ServiceGroup` shuts its services down in reverse order).
    /// - **Cancellation** (the group's forceful end, or the running task cancelled), before or during the drain:
    ///   every unfinished job is cancelled (`WorkQueue.cancelAll()`) and `run()` returns once they
    ///   have finished.
    ///
    /// Nothing is reported, and nothing costs, while no `run()` is running.
    public struct WorkQueueService: Service {
        /// The queue served.
        public let queue: WorkQueue
        private let logger: Logger?
        private let factory: any MetricsFactory
        private let interval: Duration
        private let clock: any Clock<Duration>

        /// - Parameters:
        ///   - queue: the queue served.
        ///   - logger: where job events are logged, or nil for no log lines.
        ///   - metricsFactory: where metrics go; by default the factory `MetricsSystem.bootstrap` installed.
        ///   - interval: how often the counts are sampled, measured by `clock`.
        ///   - clock: the clock of the interval.
        public init(
            _ queue: WorkQueue, logger: Logger? = nil, metricsFactory: any MetricsFactory = MetricsSystem.factory,
            interval: Duration = .seconds(1), clock: any Clock<Duration> = ContinuousClock()
        ) {
            precondition(interval > .zero, "WorkQueueService: the interval must be positive")
            self.queue = queue
            self.logger = logger
            self.factory = metricsFactory
            self.interval = interval
            self.clock = clock
        }

        /// Reports until graceful shutdown or cancellation; see the type's description.
        public func run() async throws {
            let queue = queue
            let logger = logger
            let metrics = WorkQueueMetrics(queue, factory: factory)
            logger?.info("work queue running", metadata: ["queue": "\(queue.name)", "width": "\(queue.width)"])
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in queue.events() {
                        metrics.record(event)
                        if let logger { WorkQueueLog.log(event, to: logger) }
                    }
                }
                group.addTask { [interval, clock] in
                    var metrics = metrics
                    while !Task.isCancelled {
                        metrics.sample()
                        do { try await clock.sleep(for: interval, tolerance: nil) } catch { break }
                    }
                    metrics.sample()
                }
                do {
                    try await gracefulShutdown()
                    let unfinished = queue.counts
                    logger?.notice(
                        "work queue draining",
                        metadata: [
                            "queue": "\(queue.name)", "pending": "\(unfinished.pending)",
                            "running": "\(unfinished.running)",
                        ])
                    // A forceful end during the drain (the group's escalation) cancels what is left.
                    await withTaskCancellationHandler {
                        await queue.waitUntilIdle()
                    } onCancel: {
                        queue.cancelAll()
                    }
                } catch {
                    // Cancelled: the forceful end.
                    queue.cancelAll()
                    logger?.notice("work queue cancelled", metadata: ["queue": "\(queue.name)"])
                    await queue.waitUntilIdle()
                }
                group.cancelAll()
            }
            logger?.info("work queue stopped", metadata: ["queue": "\(queue.name)"])
        }
    }
#endif
