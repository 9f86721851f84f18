#if Postgres
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// How a ``DurableWorker`` claims, renews and shuts down.
    public struct DurableWorkerConfiguration: Sendable {
        /// The worker's name in `switchyard jobs`, rescue errors and logs (by default the host's name).
        public var name: String
        /// The queues it claims from.
        public var queues: [String]
        /// The most attempts it runs at once.
        public var concurrency: Int
        /// How long a lease lasts without renewal. The worker renews its attempts every third of it; a worker that
        /// stops (crash, `kill -9`, lost network) has its jobs rescued by another worker within about this time.
        public var leaseDuration: Duration
        /// How often it looks for work without a wake-up: the latency of delayed and retried jobs, and of everything
        /// when ``listens`` is false.
        public var pollInterval: Duration
        /// Whether it LISTENs for wake-ups and cancellations (one connection of the pool held for the worker's life).
        /// Turn off behind PgBouncer in transaction mode, where LISTEN does not work: the worker then polls, and a
        /// running job's cancellation arrives with the next lease renewal.
        public var listens: Bool
        /// How long a graceful shutdown waits for running attempts before cancelling them and releasing their jobs.
        public var shutdownGracePeriod: Duration
        /// How often it rescues jobs whose lease expired, enqueues due periodic jobs and samples the queue's depth.
        public var maintenanceInterval: Duration
        /// Finished jobs older than this are deleted by the worker's maintenance (nil: never).
        public var retention: Duration?
        /// Whether `run()` migrates the schema first (safe from any number of processes at once).
        public var migrates: Bool

        /// A configuration with the defaults: queue `default`, 10 at once, a 10 s lease, polling every second,
        /// listening, 30 s to shut down, maintenance every 2 s, a week's retention, migrating on start.
        public init(
            name: String? = nil, queues: [String] = ["default"], concurrency: Int = 10,
            leaseDuration: Duration = .seconds(10), pollInterval: Duration = .seconds(1), listens: Bool = true,
            shutdownGracePeriod: Duration = .seconds(30), maintenanceInterval: Duration = .seconds(2),
            retention: Duration? = .seconds(7 * 24 * 3600), migrates: Bool = true
        ) {
            precondition(concurrency >= 1, "DurableWorkerConfiguration: concurrency must be at least 1")
            precondition(!queues.isEmpty, "DurableWorkerConfiguration: at least one queue")
            self.name = name ?? DurableWorkerConfiguration.hostName
            self.queues = queues
            self.concurrency = concurrency
            self.leaseDuration = leaseDuration
            self.pollInterval = pollInterval
            self.listens = listens
            self.shutdownGracePeriod = shutdownGracePeriod
            self.maintenanceInterval = maintenanceInterval
            self.retention = retention
            self.migrates = migrates
        }

        /// The host's name (`gethostname`), or `worker`.
        static var hostName: String {
            var buffer = [CChar](repeating: 0, count: 256)
            guard gethostname(&buffer, buffer.count) == 0 else { return "worker" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
#endif
