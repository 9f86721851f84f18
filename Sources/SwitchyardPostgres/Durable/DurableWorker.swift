#if Postgres
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import CoreMetrics
    import Logging
    import NIOConcurrencyHelpers
    import PostgresNIO
    import ServiceLifecycle

    /// A process's share of a ``DurableQueue``'s work: claims jobs of the kinds it knows, runs them, renews their
    /// leases, and writes their outcomes; run as many as you like, on as many machines.
    ///
    /// `run()` registers the worker, then until shutdown:
    /// - **claims** up to its free slots in one statement whenever woken (NOTIFY on enqueue, a freed slot, or every
    ///   ``DurableWorkerConfiguration/pollInterval``), highest effective priority first, within each queue's global
    ///   width;
    /// - **runs** each attempt in a `Task` of its own with the job's priority and timeout;
    /// - **renews** the leases of all its attempts in one statement every third of the lease, storing their progress
    ///   and learning which were cancelled; an attempt whose lease was lost has its task cancelled and reports nothing;
    /// - **writes outcomes** in batches (one statement for all that ended since the last write), each fenced by its
    ///   attempt: succeeded, failed (retried with exponential backoff and jitter while attempts remain), cancelled;
    /// - **maintains** the queue every ``DurableWorkerConfiguration/maintenanceInterval``: rescues jobs whose lease
    ///   expired (retried at once, counted as a failed attempt), enqueues due periodic jobs (once per tick across all
    ///   workers), prunes finished jobs past ``DurableWorkerConfiguration/retention``.
    ///
    /// **Shutdown.** Graceful (swift-service-lifecycle's graceful shutdown, or ``shutdown()``): stops claiming, lets
    /// running attempts finish for up to ``DurableWorkerConfiguration/shutdownGracePeriod``, then cancels the rest and
    /// releases their jobs (available again at once, not counted as failures), writes every outcome, and unregisters.
    /// Cancelling `run()`'s task does the same without the grace period.
    ///
    /// **Faults.** A lost connection or server makes each loop retry with backoff (100 ms doubling to 5 s) and resume;
    /// outcomes not yet written wait in memory and are written, still fenced, once the server is back. `run()` throws
    /// only at start: when the server cannot be reached or the schema cannot be migrated.
    ///
    /// **Observability.** Logs with `logger` (claims and outcomes at `debug`, rescues and retries at `info`, lost
    /// connections at `warning`); metrics with `metricsFactory`:
    ///
    /// | label | kind | dimensions |
    /// |---|---|---|
    /// | `switchyard_durable_jobs_total` | counter: attempts ended | `queue`, `kind`, `outcome` |
    /// | `switchyard_durable_job_duration_seconds` | timer: attempt durations | `queue`, `kind` |
    /// | `switchyard_durable_claim_duration_seconds` | timer: claim statements | |
    /// | `switchyard_durable_rescued_total` | counter: jobs rescued by this worker | |
    /// | `switchyard_durable_jobs` | gauge: jobs by state, sampled by maintenance | `queue`, `state` |
    public final class DurableWorker: Service, Sendable {
        /// The queue it works for.
        public let queue: DurableQueue
        /// Its settings.
        public let configuration: DurableWorkerConfiguration
        let jobs: DurableJobs
        let logger: Logger
        let metrics: DurableWorkerMetrics
        let state: NIOLockedValueBox<DurableWorkerState>
        /// Rung to make the claim loop look for work.
        let claimBell: AsyncStream<Void>.Continuation
        let claimRings: AsyncStream<Void>
        /// Rung when outcomes wait to be written.
        let flushBell: AsyncStream<Void>.Continuation
        let flushRings: AsyncStream<Void>
        /// This worker's row in `workers`, once registered.
        let workerID = NIOLockedValueBox<Int64?>(nil)

        /// A worker for `queue` running the kinds of `jobs`.
        public init(
            queue: DurableQueue, jobs: DurableJobs, configuration: DurableWorkerConfiguration = .init(),
            logger: Logger? = nil, metricsFactory: any MetricsFactory = MetricsSystem.factory
        ) {
            precondition(!jobs.kinds.isEmpty, "DurableWorker: register at least one job kind")
            self.queue = queue
            self.jobs = jobs
            self.configuration = configuration
            self.logger = logger ?? queue.logger
            self.metrics = DurableWorkerMetrics(factory: metricsFactory)
            state = NIOLockedValueBox(DurableWorkerState(concurrency: configuration.concurrency))
            (claimRings, claimBell) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
            (flushRings, flushBell) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        }

        /// Starts a graceful shutdown: no more claims; `run()` returns once the running attempts have ended (or been
        /// released after the grace period) and their outcomes are written. Safe to call from anywhere, any time.
        public func shutdown() {
            state.withLockedValue { $0.beginDrain() }
            claimBell.yield()
        }

        /// The number of attempts running in this process now.
        public var runningCount: Int { state.withLockedValue { $0.running.count } }

        /// Runs the worker until shutdown (see the type's documentation).
        ///
        /// - Throws: at start only: postgres-nio's error when the server cannot be reached, ``DurableError`` when the
        ///   schema is newer than this library.
        public func run() async throws {
            if configuration.migrates { try await queue.migrate() }
            try await register()
            await withGracefulShutdownHandler {
                await withDiscardingTaskGroup { loops in
                    loops.addTask { await self.backgroundLoops() }  // renewals go on until every outcome is written
                    await withDiscardingTaskGroup { writer in
                        writer.addTask { await self.flushLoop() }  // ends once the last outcome is written
                        await withDiscardingTaskGroup { attempts in
                            var bell = self.claimRings.makeAsyncIterator()
                            await self.claimLoop(&attempts, bell: &bell)
                            await self.drain(bell: &bell)
                        }
                        self.flushBell.finish()
                    }
                    loops.cancelAll()
                }
            } onGracefulShutdown: {
                self.shutdown()
            }
            // In a task of its own, which no cancellation of `run()` reaches (postgres-nio refuses to lease a
            // connection to a cancelled task): what is left to write, and the worker's row.
            await Task {
                await self.writeOutcomes(final: true)
                await self.unregister()
            }.value
        }

        /// Inserts the worker's row.
        private func register() async throws {
            let s = queue.s
            let ids = try await queue.fetch(
                """
                INSERT INTO \(unescaped: s).workers (name, host, pid, kinds, queues, concurrency, lease_ms)
                VALUES (\(configuration.name), \(DurableWorkerConfiguration.hostName), \(Int32(getpid())),
                    \(jobs.kinds), \(configuration.queues), \(Int32(configuration.concurrency)),
                    \(configuration.leaseDuration.durableMilliseconds))
                RETURNING id
                """
            ) { try $0.decode(Int64.self) }
            workerID.withLockedValue { $0 = ids.first }
            logger.info(
                "durable worker started",
                metadata: [
                    "worker": "\(configuration.name)", "queues": "\(configuration.queues)", "kinds": "\(jobs.kinds)",
                    "concurrency": "\(configuration.concurrency)",
                ])
        }

        /// Deletes the worker's row (best effort: a row left behind is only shown as gone).
        private func unregister() async {
            guard let id = workerID.withLockedValue({ $0 }) else { return }
            let s = queue.s
            try? await queue.execute("DELETE FROM \(unescaped: s).workers WHERE id = \(id)")
            logger.info("durable worker stopped", metadata: ["worker": "\(configuration.name)"])
        }

        /// Waits for the running attempts to end, cancelling (and releasing) those still running after the grace
        /// period.
        /// Each ended attempt rings `bell`; so does a timer at the deadline.
        private func drain(bell: inout AsyncStream<Void>.Iterator) async {
            let deadline = ContinuousClock.now + configuration.shutdownGracePeriod
            let timer = Task { [claimBell] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                claimBell.yield()
            }
            defer { timer.cancel() }
            while runningCount > 0 {
                if ContinuousClock.now >= deadline || Task.isCancelled {
                    let cancellers = state.withLockedValue { $0.stopAll(.shutdown) }
                    cancellers.forEach { $0() }
                    return  // the attempts' group waits for them to end
                }
                _ = await bell.next()
            }
        }

        /// The background loops, until cancelled.
        private func backgroundLoops() async {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.renewLoop() }
                group.addTask { await self.flushLoop() }
                group.addTask { await self.maintenanceLoop() }
                group.addTask { await self.pollLoop() }
                if configuration.listens { group.addTask { await self.listenLoop() } }
            }
        }

        /// Sleeps for `duration`; false when the task was cancelled.
        func pause(_ duration: Duration) async -> Bool {
            do {
                try await Task.sleep(for: duration)
                return true
            } catch {
                return false
            }
        }
    }

    /// Waits growing from 100 ms to 5 s between retries of a failing statement.
    struct DurableBackoff {
        private var next = Duration.milliseconds(100)
        mutating func reset() { next = .milliseconds(100) }
        mutating func take() -> Duration {
            defer { next = min(next * 2, .seconds(5)) }
            return next
        }
    }
#endif
