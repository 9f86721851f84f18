#if Postgres
    import Logging
    import MetricsTestKit
    import PostgresNIO
    import PostgresTestServer
    import SwitchyardPostgres
    import SwitchyardTesting

    /// A test's failure that is not an expectation (a condition never met, a job that failed on purpose).
    struct DurableTestError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A value shared between the test and the handlers it registers (which run on the worker's tasks).
    final class DurableTestBox<Value: Sendable>: Sendable {
        private let state: LockedState<Value>

        init(_ value: Value) {
            state = LockedState(value)
        }

        /// Runs `body` with exclusive access to the value.
        func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
            state.withLock { body(&$0) }
        }

        /// The value now.
        var value: Value { withLock { $0 } }
    }

    /// A gate handlers wait at until the test opens it (or their task is cancelled).
    final class DurableTestGate: Sendable {
        private struct State: Sendable {
            var isOpen = false
            var nextID = 0
            var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        }

        private let state = LockedState(State())

        /// Returns once the gate is open, or at once when the task is (or gets) cancelled.
        func wait() async {
            let id = self.state.withLock { state in
                state.nextID += 1
                return state.nextID
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let passes = self.state.withLock { state in
                        if state.isOpen || Task.isCancelled { return true }
                        state.waiters[id] = continuation
                        return false
                    }
                    if passes { continuation.resume() }
                }
            } onCancel: {
                let waiter = self.state.withLock { $0.waiters.removeValue(forKey: id) }
                waiter?.resume()
            }
        }

        /// Lets every waiter (and every later one) through.
        func open() {
            let waiters = self.state.withLock { state in
                state.isOpen = true
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// The job kinds of the durable queue's tests (each test registers the handlers it needs).
    enum DurableTestKinds {
        struct Greeting: Codable, Sendable, Hashable {
            var name: String
            var times: Int
        }

        struct Reply: Codable, Sendable, Hashable {
            var text: String
            var attempt: Int
        }

        static let greet = DurableJobKind<Greeting, Reply>("greet")
        static let echo = DurableJobKind<String, String>("echo")
        static let noop = DurableJobKind<Int, DurableNothing>("noop")
        /// Returns the attempt's number.
        static let flaky = DurableJobKind<Int, Int>("flaky")
        static let double = DurableJobKind<Int, Int>("double")
        static let fail = DurableJobKind<Int, Int>("fail")
        static let sleepy = DurableJobKind<Int, DurableNothing>("sleepy")
        static let effect = DurableJobKind<Int, String>("effect")
        static let tick = DurableJobKind<DurableNothing, DurableNothing>("tick")
        static let orphan = DurableJobKind<Int, DurableNothing>("orphan")
        static let progress = DurableJobKind<Int, DurableNothing>("progress")
    }

    extension DurableWorkerConfiguration {
        /// A configuration for tests: polling every 100 ms, maintenance every 200 ms, 5 s to shut down, no pruning.
        static func test(
            name: String = "test-worker", queues: [String] = ["default"], concurrency: Int = 4,
            leaseDuration: Duration = .seconds(10), listens: Bool = true, shutdownGracePeriod: Duration = .seconds(5),
            maintenanceInterval: Duration = .milliseconds(200)
        ) -> DurableWorkerConfiguration {
            DurableWorkerConfiguration(
                name: name, queues: queues, concurrency: concurrency, leaseDuration: leaseDuration,
                pollInterval: .milliseconds(100), listens: listens, shutdownGracePeriod: shutdownGracePeriod,
                maintenanceInterval: maintenanceInterval, retention: nil, migrates: true)
        }
    }

    /// A worker whose `run()` runs in a task of its own.
    struct RunningDurableWorker: Sendable {
        let worker: DurableWorker
        let task: Task<Void, any Error>

        /// Shuts the worker down gracefully and waits for `run()` to return.
        func stop() async throws {
            worker.shutdown()
            try await task.value
        }

        /// Cancels `run()` (no grace period) and waits for it, ignoring its error.
        func abandon() async {
            worker.shutdown()
            task.cancel()
            _ = try? await task.value
        }
    }

    /// A running client on the test server and a queue in a fresh schema (`dq_…`), dropped at the end.
    final class DurableFixture: Sendable {
        let server: PostgresServer.Server
        let client: PostgresClient
        let queue: DurableQueue
        /// The queue's schema: lowercase letters, digits and `_`, so usable unquoted in SQL.
        let schema: String
        let logger = Logger(label: "switchyard.durable.tests")
        private let runner: Task<Void, Never>
        private let workers = DurableTestBox<[RunningDurableWorker]>([])

        private init() async throws {
            let server = try await PostgresServer.server()
            let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
            let schema = "dq_" + String((0..<12).map { _ in alphabet.randomElement()! })
            let client = try await PostgresClient(url: PostgresURL(server.url), maximumConnections: 20)
            self.server = server
            self.schema = schema
            self.client = client
            runner = Task { await client.run() }
            queue = DurableQueue(client: client, schema: schema)
        }

        /// Runs `body` with a fixture whose queue is migrated (unless `migrated` is false: the schema does not exist),
        /// then stops its workers and client and drops the schema, whether `body` threw or not.
        static func with(migrated: Bool = true, _ body: (DurableFixture) async throws -> Void) async throws {
            let fixture = try await DurableFixture()
            do {
                if migrated { try await fixture.queue.migrate() }
                try await body(fixture)
            } catch {
                await fixture.close()
                throw error
            }
            await fixture.close()
        }

        /// Stops what is left running (workers without grace, then the client) and drops the schema.
        private func close() async {
            for worker in workers.value { await worker.abandon() }
            runner.cancel()
            await runner.value
            do {
                _ = try await PostgresServer.psql(server.url, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
            } catch {
                print("could not drop the test schema \(schema): \(error)")
            }
        }

        // MARK: Workers

        /// Starts a worker for the queue (stopped without grace at the end of the test if still running).
        func start(
            _ jobs: DurableJobs, _ configuration: DurableWorkerConfiguration = .test(), metrics: TestMetrics? = nil
        ) -> RunningDurableWorker {
            let worker: DurableWorker
            if let metrics {
                worker = DurableWorker(queue: queue, jobs: jobs, configuration: configuration, metricsFactory: metrics)
            } else {
                worker = DurableWorker(queue: queue, jobs: jobs, configuration: configuration)
            }
            let running = RunningDurableWorker(worker: worker, task: Task { try await worker.run() })
            workers.withLock { $0.append(running) }
            return running
        }

        /// Runs `body` while one worker per configuration runs `jobs`, then shuts them all down gracefully and waits
        /// for their `run()` to return (without grace when `body` throws).
        func withWorkers<Result>(
            _ jobs: DurableJobs, _ configurations: [DurableWorkerConfiguration], metrics: TestMetrics? = nil,
            _ body: ([DurableWorker]) async throws -> Result
        ) async throws -> Result {
            let running = configurations.map { start(jobs, $0, metrics: metrics) }
            let result: Result
            do {
                result = try await body(running.map(\.worker))
            } catch {
                for worker in running { await worker.abandon() }
                throw error
            }
            for worker in running { worker.worker.shutdown() }
            for worker in running { try await worker.task.value }
            return result
        }

        /// Runs `body` while a worker runs `jobs`; see ``withWorkers(_:_:metrics:_:)``.
        func withWorker<Result>(
            _ jobs: DurableJobs, _ configuration: DurableWorkerConfiguration = .test(), metrics: TestMetrics? = nil,
            _ body: (DurableWorker) async throws -> Result
        ) async throws -> Result {
            try await withWorkers(jobs, [configuration], metrics: metrics) { workers in try await body(workers[0]) }
        }

        // MARK: Reading and waiting

        /// The output lines of `sql` run by `psql` (values separated by `|`).
        func rows(_ sql: String) async throws -> [String] {
            try await PostgresServer.psql(server.url, sql)
        }

        /// The first column of the first row of `sql` (an integer; 0 without rows), read through the client.
        func integer(_ sql: String) async throws -> Int {
            let rows = try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            var result = 0
            var found = false
            for try await value in rows.decode(Int.self) where !found {
                result = value
                found = true
            }
            return result
        }

        /// Runs `sql` through the client, reading (and dropping) its rows.
        func execute(_ sql: String) async throws {
            let rows = try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            for try await _ in rows {}
        }

        /// The state of the job `id` now.
        func state(of id: Int64) async throws -> DurableJobState {
            try await queue.status(of: id).state
        }

        /// Polls `condition` every `interval` until it holds; throws when it still does not after `limit`.
        func waitUntil(
            _ what: String, within limit: Duration = .seconds(20), every interval: Duration = .milliseconds(10),
            _ condition: () async throws -> Bool
        ) async throws {
            let deadline = ContinuousClock.now + limit
            while !(try await condition()) {
                guard ContinuousClock.now < deadline else {
                    throw DurableTestError("not within \(limit): \(what)")
                }
                try await Task.sleep(for: interval)
            }
        }

        /// Waits until the job `id` is in `state`.
        func waitFor(_ id: Int64, toBe expected: DurableJobState, within limit: Duration = .seconds(20)) async throws {
            try await waitUntil("job \(id) is \(expected)", within: limit) { try await state(of: id) == expected }
        }

        /// Waits until `count` connections LISTEN for the queue's cancellations (a worker LISTENs for wake-ups, then
        /// for cancellations, on one connection whose last statement stays the second LISTEN).
        func waitUntilListening(workers count: Int = 1) async throws {
            let statement = "LISTEN \"\(schema)_cancel\";"
            try await waitUntil("\(count) workers LISTEN on \(schema)_cancel") {
                try await integer(
                    "SELECT count(*) FROM pg_stat_activity WHERE query = '\(statement)' AND state = 'idle'") >= count
            }
        }

        /// Moves the lease of the running job `id` into the past and runs the schema's `rescue()`, in one transaction
        /// (so that no worker's maintenance rescues it first). Returns the rescued jobs as `id state`.
        func expireLeaseAndRescue(_ id: Int64) async throws -> [String] {
            let schema = self.schema
            let logger = self.logger
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query(
                    PostgresQuery(
                        unsafeSQL: """
                            UPDATE \(schema).jobs SET lease_until = now() - interval '1 second'
                            WHERE id = \(id) AND state = 'running'
                            """), logger: logger)
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT job_id, job_state FROM \(schema).rescue()"), logger: logger)
                var rescued: [String] = []
                for try await (job, state) in rows.decode((Int64, String).self) { rescued.append("\(job) \(state)") }
                return rescued
            }
        }
    }
#endif
