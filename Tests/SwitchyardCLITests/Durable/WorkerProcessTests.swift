#if CLI && SWITCHYARD_TEST_HOOKS
    import Foundation
    import PostgresTestServer
    import Testing

    /// `switchyard enqueue`, `worker` and `jobs` as separate processes on one queue, as they run on many machines:
    /// what a process's death, a cancellation from elsewhere and a server restart do to the delivery contract.
    @Suite(
        "durable queue across processes", .serialized,
        .enabled(if: PostgresServer.isAvailable, Comment(rawValue: PostgresServer.skipReason)),
        .timeLimit(.minutes(3)))
    struct WorkerProcessTests {
        @Test("kill -9 of a worker mid-run: every job completed exactly once, rescued within the lease")
        func killNine() async throws {
            let queue = QueueUnderTest(try await PostgresServer.server(), "kill")
            defer { Task { await queue.drop() } }
            // Three jobs whose first attempt outlasts the test: enqueued first, they take three of the victim's four
            // slots, and are still running when it is killed however late a loaded machine lets this test see it
            // work. Their second attempts, on the survivor, are quick.
            let stuck = 3
            let jobs = 150
            let first = try await SwitchyardProcess.run([
                "enqueue", "test-record", "--database", queue.url, "--table", "results", "--count", "\(stuck)",
                "--first-attempt-sleep-ms", "600000",
            ])
            try #require(first.status == 0, "\(first.standardError)")
            let stuckIDs = first.standardOutput.split(separator: "\n").joined(separator: ", ")
            _ = try await queue.sql(
                "CREATE TABLE results (job_id bigint, value bigint, attempt bigint, at timestamptz DEFAULT clock_timestamp())"
            )
            // The victim alone until it has completed one of the others on its fourth slot; killed mid-run; then
            // the survivor, which rescues the victim's jobs.
            let victim = try queue.startWorker(name: "victim")
            let rest = try await SwitchyardProcess.run([
                "enqueue", "test-record", "--database", queue.url, "--table", "results", "--count", "\(jobs - stuck)",
                "--sleep-ms", "100",
            ])
            try #require(rest.status == 0, "\(rest.standardError)")
            try await queue.waitUntil(
                "the victim runs the stuck jobs and has completed another",
                """
                SELECT count(*) = \(stuck) AND (SELECT count(*) > 0 FROM results) FROM jobs j
                JOIN workers w ON w.id = j.worker
                WHERE w.name = 'victim' AND j.state = 'running' AND j.id IN (\(stuckIDs))
                """)
            kill(victim.pid, SIGKILL)
            let killedAt = ContinuousClock.now
            #expect(await victim.exit.value == 128 + SIGKILL)
            let running = try await queue.count("SELECT count(*) FROM jobs WHERE state = 'running'")
            let survivor = try queue.startWorker(name: "survivor")
            try await queue.waitUntil(
                "every job succeeded", "SELECT count(*) = \(jobs) FROM jobs WHERE state = 'succeeded'")
            let finished = ContinuousClock.now - killedAt
            #expect(try await queue.count("SELECT count(*) FROM results") == jobs, "one row per job: none twice")
            #expect(try await queue.count("SELECT count(DISTINCT job_id) FROM results") == jobs, "none lost")
            #expect(
                try await queue.count(
                    "SELECT count(*) FROM results r JOIN jobs j ON j.id = r.job_id AND r.attempt <> j.attempt") == 0,
                "every row was written by the job's final attempt")
            let rescued = try await queue.count("SELECT count(*) FROM jobs WHERE failures > 0")
            #expect(rescued >= stuck, "the victim's running jobs were rescued (\(running) were running)")
            // Lease 2 s, maintenance every 0.2 s: the victim's jobs are back within about 2.2 s, and the rest of the
            // queue is short.
            #expect(finished < .seconds(30), "rescued and finished \(finished) after the kill")
            #expect(await terminate(survivor) == 0)
            print(
                "killNine: \(running) jobs were running on the victim, \(rescued) rescued, all done \(finished) after the kill"
            )
        }

        @Test("a running job cancelled by `switchyard jobs --cancel` from another process: its task stops at once")
        func cancelFromAnotherProcess() async throws {
            let queue = QueueUnderTest(try await PostgresServer.server(), "cancel")
            defer { Task { await queue.drop() } }
            let worker = try queue.startWorker(name: "sleeper")
            let enqueued = try await SwitchyardProcess.run([
                "enqueue", "test-sleep", "--database", queue.url, "--ms", "60000",
            ])
            try #require(enqueued.status == 0, "\(enqueued.standardError)")
            let id = try #require(Int(enqueued.standardOutput.split(separator: "\n").last ?? ""))
            try await queue.waitUntil("the job runs", "SELECT state = 'running' FROM jobs WHERE id = \(id)")
            let cancelled = try await SwitchyardProcess.run(["jobs", "--database", queue.url, "--cancel", "\(id)"])
            #expect(cancelled.status == 0, "\(cancelled.standardError)")
            let asked = ContinuousClock.now
            try await queue.waitUntil(
                "the job is cancelled", limit: .seconds(5), "SELECT state = 'cancelled' FROM jobs WHERE id = \(id)")
            let took = ContinuousClock.now - asked
            // The worker stops the task within a second (NOTIFY, or the next renewal: every 0.67 s here). Measured
            // from this process, the time also holds the worker's write of the outcome and this test's reads, which
            // a loaded 2-core machine (the whole suite at once) can stretch past a second.
            #expect(took < .seconds(2.5), "cancelled \(took) after the request")
            #expect(try await queue.sql("SELECT error FROM jobs WHERE id = \(id)").last == "cancelled while running")
            #expect(await terminate(worker) == 0)
        }

        @Test("migrations from two processes at once: both succeed, the schema is at version 1")
        func concurrentMigrations() async throws {
            let queue = QueueUnderTest(try await PostgresServer.server(), "migrate")
            defer { Task { await queue.drop() } }
            async let first = SwitchyardProcess.run(["enqueue", "test-sleep", "--database", queue.url, "--ms", "1"])
            async let second = SwitchyardProcess.run(["enqueue", "test-sleep", "--database", queue.url, "--ms", "1"])
            let (a, b) = try await (first, second)
            #expect(a.status == 0, "\(a.standardError)")
            #expect(b.status == 0, "\(b.standardError)")
            #expect(try await queue.count("SELECT max(version) FROM migrations") == 1)
            #expect(try await queue.count("SELECT count(*) FROM jobs") == 2)
        }

        @Test("an unreachable --database fails at once with a clear message")
        func unreachable() async throws {
            let started = ContinuousClock.now
            let result = try await SwitchyardProcess.run([
                "worker", "--database", "postgres://nobody@127.0.0.1:1/none?sslmode=disable",
            ])
            #expect(result.status == 1)
            #expect(result.standardError.contains("127.0.0.1:1"), "\(result.standardError)")
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }
#endif
