#if CLI
    import ArgumentParser
    import Foundation
    import Logging
    import PostgresNIO
    import SwitchyardPostgres
    import SwitchyardTransit

    /// `switchyard worker --database postgres://…`: runs the durable queue's jobs (feed imports) in this process until
    /// SIGINT, SIGTERM or SIGHUP, then shuts down gracefully.
    ///
    /// Exit status: 0 after a graceful shutdown (a second signal quits at once with 128 + its number: the running
    /// jobs' leases then expire and other workers rescue them); 1 when `--database` is malformed, the server cannot be
    /// reached, or the queue's schema cannot be migrated (named on standard error as `error: …`); 64 for wrong
    /// arguments.
    struct WorkerCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "worker",
            abstract: "Run the durable queue's jobs (feed imports) until Ctrl-C or SIGTERM.",
            discussion: """
                Migrates the queue's schema, registers the worker, then claims jobs from its queues (woken by NOTIFY, \
                and polling) and runs up to --concurrency at once, renewing their leases every third of --lease. A \
                job whose worker dies is rescued by another worker once its lease expires, and retried while it has \
                attempts left (`switchyard enqueue --attempts`). An import job resumes the import its schema holds. \
                One line per job start and end goes to standard error: `job 12 switchyard.import started (attempt \
                1)`, then `succeeded`, `failed: REASON`, `stopped` or `lost its lease`; the queue's warnings (a lost \
                connection) too.

                The first SIGINT, SIGTERM or SIGHUP stops claiming, waits up to --grace seconds for the running jobs, \
                then cancels the rest and releases them to other workers (not counted as failed attempts), writes \
                every outcome, unregisters and exits 0. A second signal quits at once.

                --database postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?schema=NAME]: the URL's schema holds the \
                queue's tables (default switchyard); imports go to the schema each job names, in the same database. \
                Without a password in the URL, PGPASSWORD is used.
                """)

        @Option(
            help:
                "The queue's database: postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?schema=QUEUE_SCHEMA] (default schema switchyard)."
        )
        var database: String

        @Option(help: "The most jobs run at once.")
        var concurrency = 2

        @Option(name: .customLong("queue"), help: "A queue to take jobs from (repeatable; default: default).")
        var queues: [String] = []

        @Option(help: "The worker's name in `switchyard jobs` (default: the host's name).")
        var name: String?

        @Option(
            help:
                "Seconds a job's lease lasts without renewal: how soon another worker rescues the jobs of a worker that died."
        )
        var lease: Double = 10

        @Option(
            name: .customLong("poll-ms"),
            help:
                "Milliseconds between looks for work without a wake-up (delayed and retried jobs; all jobs with --no-listen)."
        )
        var pollMilliseconds = 1000

        @Flag(
            inversion: .prefixedNo,
            help: "LISTEN for new jobs and cancellations (turn off behind PgBouncer in transaction mode).")
        var listen = true

        @Option(help: "Seconds a graceful shutdown waits for running jobs before cancelling and releasing them.")
        var grace: Double = 30

        #if SWITCHYARD_TEST_HOOKS
            @Option(name: .customLong("maintenance-ms"), help: .hidden)
            var maintenanceMilliseconds: Int?
        #endif

        func validate() throws {
            guard concurrency >= 1 else {
                throw ValidationError("--concurrency must be at least 1, got \(concurrency)")
            }
            guard lease > 0, lease.isFinite else {
                throw ValidationError("--lease must be a positive number of seconds")
            }
            guard pollMilliseconds >= 1 else { throw ValidationError("--poll-ms must be at least 1") }
            guard grace >= 0, grace.isFinite else { throw ValidationError("--grace must be 0 or more seconds") }
            guard !queues.contains(where: \.isEmpty) else { throw ValidationError("--queue must name a queue") }
        }

        func run() async throws {
            let database = try DurableDatabase(parsing: self.database)
            // A signal before the worker exists is remembered, and shuts it down as soon as it does.
            let target = CancellationTarget()
            let stopping =
                "finishing the running jobs (up to \(formatted(grace, decimals: 1)) s), then releasing the rest"
            let interrupts = InterruptHandler(notice: InterruptNotice(), stopping: stopping) { target.cancel() }
            try await database.probe()
            let jobs = Self.jobs(database: database.url)
            let configuration = workerConfiguration
            let logger = Self.logger
            try await DurableDatabase.reporting {
                try await database.withQueue(maximumConnections: concurrency + 4, logger: logger) {
                    (queue: DurableQueue) async throws -> Void in
                    let worker = DurableWorker(queue: queue, jobs: jobs, configuration: configuration, logger: logger)
                    target.set { worker.shutdown() }
                    Self.note(
                        """
                        worker \(configuration.name) started: \(jobs.kinds.joined(separator: ", ")) from \
                        \(configuration.queues.joined(separator: ", ")), \(configuration.concurrency) at once, \
                        queue schema \(queue.schema) of \(database.url)
                        """)
                    do {
                        try await worker.run()
                    } catch {
                        throw DurableDatabase.failure("the worker cannot start: \(DurableDatabase.describe(error))")
                    }
                }
            }
            withExtendedLifetime(interrupts) {}  // signals stay handled until the worker has stopped
            Self.note("worker \(configuration.name) stopped")
        }

        /// The worker's settings from the options.
        private var workerConfiguration: DurableWorkerConfiguration {
            DurableWorkerConfiguration(
                name: name, queues: queues.isEmpty ? ["default"] : queues, concurrency: concurrency,
                leaseDuration: .seconds(lease), pollInterval: .milliseconds(pollMilliseconds), listens: listen,
                shutdownGracePeriod: .seconds(grace), maintenanceInterval: maintenanceInterval)
        }

        /// How often the worker rescues expired leases and prunes: the library's 2 s (tests may shorten it).
        private var maintenanceInterval: Duration {
            #if SWITCHYARD_TEST_HOOKS
                if let maintenanceMilliseconds { return .milliseconds(maintenanceMilliseconds) }
            #endif
            return .seconds(2)
        }

        /// The kinds this worker runs, each handler logging its attempts' starts and ends.
        static func jobs(database: PostgresURL) -> DurableJobs {
            var jobs = DurableJobs()
            jobs.registerLogged(FeedImportJob.importFeed) { input, context in
                try await FeedImportJob.run(input, context: context, database: database)
            }
            #if SWITCHYARD_TEST_HOOKS
                jobs.registerLogged(TestJobs.recordKind) { input, context in
                    try await TestJobs.runRecord(input, context: context)
                }
                jobs.registerLogged(TestJobs.sleepKind) { input, context in
                    try await TestJobs.runSleep(input, context: context)
                }
            #endif
            return jobs
        }

        /// Warnings and errors of the queue (lost connections, failed renewals) on standard error.
        static var logger: Logger {
            var logger = Logger(label: "switchyard.worker") { label in StreamLogHandler.standardError(label: label) }
            logger.logLevel = .warning
            return logger
        }

        /// Writes `text` as a line on standard error.
        static func note(_ text: String) {
            FileHandle.standardError.write(Data((TerminalText.visible(text) + "\n").utf8))
        }
    }

    extension DurableJobs {
        /// Registers `body` as `kind`'s handler, with a line on standard error when an attempt starts and when it ends
        /// (see ``JobLog``).
        mutating func registerLogged<Input, Output>(
            _ kind: DurableJobKind<Input, Output>,
            _ body: @escaping @Sendable (Input, DurableJobContext) async throws -> Output
        ) {
            register(kind) { input, context in
                try await JobLog.run(context) { try await body(input, context) }
            }
        }
    }

    /// The lines `switchyard worker` writes about its jobs' attempts.
    enum JobLog {
        /// Runs `body`, the attempt of `context`, between a `started` line and a `succeeded`, `failed`, `stopped` or
        /// `lost its lease` line. A postgres-nio error is rethrown in words (``DurableDatabase/describe(_:)``), so
        /// that the job's recorded error says what the server said.
        static func run<Output>(
            _ context: DurableJobContext, _ body: () async throws -> Output
        ) async throws -> Output {
            let label = "job \(context.jobID) \(context.kind)"
            let attempt = "attempt \(context.attempt)"
            WorkerCommand.note("\(label) started (\(attempt))")
            let started = ContinuousClock.now
            func elapsed() -> String { formatted((ContinuousClock.now - started) / .seconds(1), decimals: 1) + " s" }
            do {
                let output = try await body()
                WorkerCommand.note("\(label) succeeded (\(attempt), \(elapsed()))")
                return output
            } catch let error as DurableError where error.kind == .staleAttempt {
                WorkerCommand.note("\(label) lost its lease (\(attempt), \(elapsed())): another worker has the job")
                throw error
            } catch {
                if error is CancellationError || Task.isCancelled {
                    WorkerCommand.note("\(label) stopped (\(attempt), \(elapsed()))")
                    throw error
                }
                let reason = DurableDatabase.describe(error)
                WorkerCommand.note("\(label) failed (\(attempt), \(elapsed())): \(reason)")
                if error is PSQLError { throw JobFailure(reason) }
                throw error
            }
        }
    }
#endif
