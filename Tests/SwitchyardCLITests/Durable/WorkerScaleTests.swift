#if CLI && SWITCHYARD_TEST_HOOKS
    import Foundation
    import PostgresNIO
    import PostgresTestServer
    import Switchyard
    import SwitchyardPostgres
    import SwitchyardTesting
    import Testing

    /// The input of the `switchyard.test.record` kind of `switchyard worker` (debug builds): it sleeps, then inserts
    /// `(job_id, value, attempt)` into `table` in the transaction that completes the job.
    struct RecordInput: Codable, Sendable {
        var table: String
        var value: Int64
        var sleepMilliseconds: Int
    }

    enum TestKinds {
        static let record = DurableJobKind<RecordInput, DurableNothing>("switchyard.test.record")
        /// Sleeps the input's milliseconds and returns them.
        static let sleep = DurableJobKind<Int, Int>("switchyard.test.sleep")
    }

    /// Many jobs through several `switchyard worker` processes, and a server restart under them.
    @Suite(
        "durable queue at scale across processes", .serialized,
        .enabled(if: PostgresServer.isAvailable, Comment(rawValue: PostgresServer.skipReason)),
        .timeLimit(.minutes(5)))
    struct WorkerScaleTests {
        @Test(
            "3 workers × 20,000 jobs with dependencies, priorities and a global width: once each, in order, within the width"
        )
        func threeWorkers() async throws {
            let count = Int(ProcessInfo.processInfo.environment["SWITCHYARD_DURABLE_PROCESS_JOBS"] ?? "") ?? 20_000
            print("threeWorkers: \(count) jobs")
            var random = SeededRandomNumberGenerator.forTest("threeWorkers")
            let queue = QueueUnderTest(try await PostgresServer.server(), "scale")
            defer { Task { await queue.drop() } }
            let enqueueStarted = ContinuousClock.now
            var enqueued = Duration.zero
            var widest = 0
            try await withDurableQueue(queue) { durable in
                try await durable.setWidth(3, of: "narrow")
                try await enqueueMixed(durable, count: count, random: &random)
                enqueued = ContinuousClock.now - enqueueStarted
                let workers = try (0..<3).map { index in
                    try queue.startWorker(
                        name: "w\(index)", concurrency: 8, extra: ["--queue", "default", "--queue", "narrow"])
                }
                // Samples the narrow queue's running jobs until everything has finished.
                let deadline = ContinuousClock.now + .seconds(240)
                while ContinuousClock.now < deadline {
                    let rows = try await durable.client.query(
                        """
                        SELECT count(*) FILTER (WHERE queue = 'narrow' AND state = 'running'),
                            count(*) FILTER (WHERE state <> 'succeeded') FROM \(unescaped: queue.schema).jobs
                        """)
                    var unfinished = 1
                    for try await (running, left) in rows.decode((Int64, Int64).self) {
                        widest = max(widest, Int(running))
                        unfinished = Int(left)
                    }
                    if unfinished == 0 { break }
                    try await Task.sleep(for: .milliseconds(5))
                }
                for worker in workers { #expect(await terminate(worker) == 0) }
            }
            let drained = ContinuousClock.now - enqueueStarted - enqueued
            print("threeWorkers: enqueued in \(enqueued), drained in \(drained)")
            // A job run twice would have been claimed twice: its attempt would be 2.
            #expect(try await queue.count("SELECT count(*) FROM jobs WHERE state = 'succeeded'") == count, "none lost")
            #expect(try await queue.count("SELECT count(*) FROM jobs WHERE attempt <> 1") == 0, "none twice")
            #expect(widest <= 3, "the narrow queue's width held: at most \(widest) running at once")
            #expect(
                try await queue.count(
                    """
                    SELECT count(*) FROM edges e JOIN jobs p ON p.id = e.parent JOIN jobs c ON c.id = e.child
                    WHERE c.started_at < p.finished_at
                    """) == 0, "every job started after its dependencies finished")
            print("threeWorkers: at most \(widest) narrow jobs running at once")
        }

        @Test("PostgreSQL restarted mid-run: the workers reconnect and finish every job exactly once")
        func serverRestart() async throws {
            let server = try await PostgresServer.startPrivate("restart")
            defer { Task { await PostgresServer.stopPrivate(server) } }
            let queue = QueueUnderTest(server, "restart")
            let jobs = 1_500
            let enqueued = try await SwitchyardProcess.run([
                "enqueue", "test-record", "--database", queue.url, "--table", "results", "--count", "\(jobs)",
                "--sleep-ms", "10",
            ])
            try #require(enqueued.status == 0, "\(enqueued.standardError)")
            _ = try await queue.sql("CREATE TABLE results (job_id bigint, value bigint, attempt bigint)")
            let workers = try (0..<2).map { try queue.startWorker(name: "r\($0)", concurrency: 4) }
            try await queue.waitUntil("a quarter of the jobs are done", "SELECT count(*) >= \(jobs / 4) FROM results")
            try await PostgresServer.restart(server)
            try await queue.waitUntil(
                "every job succeeded", limit: .seconds(120),
                "SELECT count(*) = \(jobs) FROM jobs WHERE state = 'succeeded'")
            #expect(try await queue.count("SELECT count(*) FROM results") == jobs)
            #expect(try await queue.count("SELECT count(DISTINCT job_id) FROM results") == jobs)
            for worker in workers { #expect(await terminate(worker) == 0) }
        }
    }

    /// Enqueues `count` jobs that only return: four fifths in bulk by queue and priority (a tenth on the queue
    /// `narrow`), the rest in groups of 50 that each depend on one or two earlier jobs.
    func enqueueMixed(_ durable: DurableQueue, count: Int, random: inout SeededRandomNumberGenerator) async throws {
        var ids: [Int64] = []
        let independent = count * 4 / 5
        for level in 0..<JobPriority.levelCount {
            for (queueName, share) in [("default", 9), ("narrow", 1)] {
                let n = independent / JobPriority.levelCount * share / 10
                let options = DurableJobOptions(queue: queueName, priority: JobPriority.allLevels[level])
                ids += try await durable.enqueue(TestKinds.sleep, many: Array(repeating: 0, count: n), options: options)
                    .map(\.id)
            }
        }
        while ids.count < count {
            var options = DurableJobOptions(
                queue: random.next() % 10 == 0 ? "narrow" : "default",
                priority: JobPriority.allLevels[Int(random.next() % 5)])
            for _ in 0..<(1 + Int(random.next() % 2)) {
                options.dependencies.append(DurableDependency(ids[Int(random.next() % UInt64(ids.count))]))
            }
            let group = min(50, count - ids.count)
            ids += try await durable.enqueue(TestKinds.sleep, many: Array(repeating: 0, count: group), options: options)
                .map(\.id)
        }
    }

    /// Runs `body` with a migrated `DurableQueue` on `queue`'s schema (its client running meanwhile).
    func withDurableQueue(_ queue: QueueUnderTest, _ body: (DurableQueue) async throws -> Void) async throws {
        let client = try await PostgresClient(url: PostgresURL(queue.url), maximumConnections: 4)
        let running = Task { await client.run() }
        defer { running.cancel() }
        let durable = DurableQueue(client: client, schema: queue.schema)
        do {
            try await durable.migrate()
            try await body(durable)
        } catch let error as PSQLError {
            // postgres-nio's description of its error hides the server's message.
            throw PostgresServerError(description: String(reflecting: error))
        }
    }
#endif
