#if Postgres
    import MetricsTestKit
    import PostgresNIO
    import PostgresTestServer
    import Switchyard
    import SwitchyardPostgres
    import Testing

    /// The durable queue against the test server, each test in a schema of its own. The nested suites (other files)
    /// run serialized with these: timings (cancellation within 1 s, widths) are measured on a quiet server.
    @Suite(
        "Durable queue", .serialized,
        .enabled(if: PostgresServer.isAvailable, Comment(rawValue: PostgresServer.skipReason)),
        .timeLimit(.minutes(2)))
    struct DurableQueueTests {
        typealias Kinds = DurableTestKinds

        struct Flaky: Error, CustomStringConvertible {
            var attempt: Int
            var description: String { "attempt \(attempt) failed on purpose" }
        }

        struct ShapeA: Codable, Sendable { var x: Int }
        struct ShapeB: Codable, Sendable { var y: String }
        struct Rollback: Error {}

        // MARK: Schema

        @Test("migrate() twice: 0 then 1, and the second changes nothing")
        func migrateTwice() async throws {
            try await DurableFixture.with(migrated: false) { f in
                let first = try await f.queue.migrate()
                let second = try await f.queue.migrate()
                #expect(first == 0 && second == 1)
                #expect(try await f.queue.schemaVersion() == 1)
                #expect(try await f.integer("SELECT count(*) FROM \(f.schema).migrations") == 1)
            }
        }

        @Test("migrate() from two callers at once on a fresh schema: both succeed, one of them applies version 1")
        func migrateConcurrently() async throws {
            try await DurableFixture.with(migrated: false) { f in
                async let first = f.queue.migrate()
                async let second = f.queue.migrate()
                let before = try await [first, second].sorted()
                #expect(before == [0, 1])
                #expect(try await f.queue.schemaVersion() == 1)
            }
        }

        @Test("schemaVersion() of a queue never migrated (no schema at all) is 0")
        func versionBeforeMigration() async throws {
            try await DurableFixture.with(migrated: false) { f in
                let version = try await f.queue.schemaVersion()
                #expect(version == 0)
            }
        }

        @Test("a schema newer than the library: migrate() throws schemaTooNew")
        func schemaTooNew() async throws {
            try await DurableFixture.with { f in
                try await f.execute("INSERT INTO \(f.schema).migrations (version) VALUES (2)")
                let error = await #expect(throws: DurableError.self) { try await f.queue.migrate() }
                #expect(error?.kind == .schemaTooNew)
                #expect(try await f.queue.schemaVersion() == 2)
            }
        }

        // MARK: Running jobs

        @Test("a job enqueued, run by a worker, its typed output read back by result()")
        func enqueueRunResult() async throws {
            try await DurableFixture.with { f in
                var jobs = DurableJobs()
                jobs.register(Kinds.greet) { greeting, context in
                    let text = Array(repeating: "hello \(greeting.name)", count: greeting.times)
                    return Kinds.Reply(text: text.joined(separator: ", "), attempt: context.attempt)
                }
                let job = try await f.queue.enqueue(Kinds.greet, Kinds.Greeting(name: "Ada", times: 2))
                #expect(job.isNew)
                let reply = try await f.withWorker(jobs) { _ in try await job.result() }
                #expect(reply == Kinds.Reply(text: "hello Ada, hello Ada", attempt: 1))
                let status = try await job.status()
                #expect(status.state == .succeeded && status.attempt == 1 && status.failures == 0)
                #expect(status.kind == "greet" && status.queue == "default" && status.finishedAt != nil)
                // Any process with the id reads the same result.
                #expect(try await f.queue.job(job.id, of: Kinds.Reply.self).result() == reply)
            }
        }

        @Test("5,000 jobs enqueued in one call, drained by a worker running 8 at once: each succeeded exactly once")
        func bulk() async throws {
            try await DurableFixture.with { f in
                let seen = DurableTestBox<[Int64: Int]>([:])
                var jobs = DurableJobs()
                jobs.register(Kinds.noop) { _, context in
                    seen.withLock { $0[context.jobID, default: 0] += 1 }
                    return DurableNothing()
                }
                let handles = try await f.queue.enqueue(Kinds.noop, many: Array(0..<5_000))
                let ids = Set(handles.map(\.id))
                #expect(ids.count == 5_000 && handles.allSatisfy(\.isNew))
                try await f.withWorker(jobs, .test(concurrency: 8)) { _ in
                    try await f.waitUntil("5,000 jobs succeed", within: .seconds(90), every: .milliseconds(50)) {
                        try await f.integer("SELECT count(*) FROM \(f.schema).jobs WHERE state = 'succeeded'") == 5_000
                    }
                }
                let runs = seen.value
                #expect(Set(runs.keys) == ids)
                #expect(runs.values.allSatisfy { $0 == 1 }, "some job ran more than once")
                #expect(try await f.integer("SELECT count(*) FROM \(f.schema).jobs WHERE state <> 'succeeded'") == 0)
            }
        }

        @Test("retries: two failed attempts, then a success on the third; with 2 attempts the job fails with the error")
        func retries() async throws {
            try await DurableFixture.with { f in
                var jobs = DurableJobs()
                jobs.register(Kinds.flaky) { _, context in
                    guard context.attempt > 2 else { throw Flaky(attempt: context.attempt) }
                    return context.attempt
                }
                let options = DurableJobOptions().retrying(maximumAttempts: 3, backoff: .milliseconds(10))
                let succeeds = try await f.queue.enqueue(Kinds.flaky, 1, options: options)
                let fails = try await f.queue.enqueue(
                    Kinds.flaky, 2, options: options.retrying(maximumAttempts: 2, backoff: .milliseconds(10)))
                try await f.withWorker(jobs) { _ in
                    let output = try await succeeds.result()
                    #expect(output == 3)
                    let error = await #expect(throws: DurableError.self) { try await fails.result() }
                    #expect(error?.kind == .jobFailed)
                    #expect(error?.jobID == fails.id)
                    #expect(error?.message == "attempt 2 failed on purpose")
                }
                let succeeded = try await succeeds.status()
                #expect(succeeded.state == .succeeded && succeeded.attempt == 3 && succeeded.failures == 2)
                let failed = try await fails.status()
                #expect(failed.state == .failed && failed.attempt == 2 && failed.failures == 2)
            }
        }

        @Test("an input that does not decode as the handler's type fails the job for good; the worker runs on")
        func undecodableInput() async throws {
            try await DurableFixture.with { f in
                let enqueued = DurableJobKind<ShapeA, DurableNothing>("shape")
                let registered = DurableJobKind<ShapeB, DurableNothing>("shape")
                let runs = DurableTestBox(0)
                var jobs = DurableJobs()
                jobs.register(registered) { _, _ in
                    runs.withLock { $0 += 1 }
                    return DurableNothing()
                }
                jobs.register(Kinds.echo) { text, _ in text }
                let bad = try await f.queue.enqueue(enqueued, ShapeA(x: 1))
                let good = try await f.queue.enqueue(Kinds.echo, "still running")
                try await f.withWorker(jobs) { _ in
                    let error = await #expect(throws: DurableError.self) { try await bad.result() }
                    #expect(error?.kind == .jobFailed)
                    #expect(
                        error?.message.contains("the input of kind shape does not decode") == true,
                        "\(String(describing: error))")
                    let output = try await good.result()
                    #expect(output == "still running")
                }
                let status = try await bad.status()
                #expect(status.failures == 1 && status.attempt == 1 && status.maximumAttempts == 3)
                #expect(runs.value == 0)
            }
        }

        @Test("a handler's PermanentJobError fails the job at once, without the retries its options allow")
        func permanentError() async throws {
            try await DurableFixture.with { f in
                var jobs = DurableJobs()
                jobs.register(Kinds.fail) { value, _ in throw PermanentJobError("no such file: \(value).csv") }
                let job = try await f.queue.enqueue(Kinds.fail, 42, options: DurableJobOptions(maximumAttempts: 5))
                try await f.withWorker(jobs) { _ in
                    let error = await #expect(throws: DurableError.self) { try await job.result() }
                    #expect(error?.kind == .jobFailed)
                    #expect(error?.message == "no such file: 42.csv")
                }
                let status = try await job.status()
                #expect(status.state == .failed && status.attempt == 1 && status.failures == 1)
            }
        }

        @Test("an output PostgreSQL cannot store (a NUL character) fails its job for good; the others still succeed")
        func unstorableOutput() async throws {
            try await DurableFixture.with { f in
                var jobs = DurableJobs()
                jobs.register(Kinds.echo) { text, _ in text == "nul" ? "a\u{0}b" : text }
                let bad = try await f.queue.enqueue(Kinds.echo, "nul")
                let good = try await f.queue.enqueue(Kinds.echo, many: ["x", "y"])
                try await f.withWorker(jobs) { _ in
                    let error = await #expect(throws: DurableError.self) { try await bad.result() }
                    #expect(error?.kind == .jobFailed)
                    #expect(error?.message.contains("NUL") == true, "\(String(describing: error))")
                    for job in good {
                        let output = try await job.result()
                        #expect(output == "x" || output == "y")
                    }
                }
            }
        }

        // MARK: Enqueueing

        @Test("an input PostgreSQL cannot store (a NUL character) is refused at enqueue, with the reason")
        func unstorableInput() async throws {
            try await DurableFixture.with { f in
                let error = await #expect(throws: DurableError.self) {
                    try await f.queue.enqueue(Kinds.echo, "a\u{0}b")
                }
                #expect(error?.kind == .unstorable)
                let count = try await f.integer("SELECT count(*) FROM \(f.schema).jobs")
                #expect(count == 0)
            }
        }

        @Test("a uniqueness key: a second enqueue returns the unfinished job; once it finished, the key is free")
        func uniqueness() async throws {
            try await DurableFixture.with { f in
                var jobs = DurableJobs()
                jobs.register(Kinds.echo) { text, _ in text }
                let options = DurableJobOptions().unique("k")
                let first = try await f.queue.enqueue(Kinds.echo, "first", options: options)
                let second = try await f.queue.enqueue(Kinds.echo, "second", options: options)
                #expect(first.isNew && !second.isNew)
                #expect(second.id == first.id)
                #expect(try await f.integer("SELECT count(*) FROM \(f.schema).jobs") == 1)
                let output = try await f.withWorker(jobs) { _ in try await first.result() }
                #expect(output == "first")
                let third = try await f.queue.enqueue(Kinds.echo, "third", options: options)
                #expect(third.isNew && third.id != first.id)
            }
        }

        @Test("enqueue in the caller's transaction: no job when it rolls back, the job when it commits")
        func enqueueInTransaction() async throws {
            try await DurableFixture.with { f in
                let error = await #expect(throws: PostgresTransactionError.self) {
                    try await f.client.withTransaction(logger: f.logger) { connection in
                        _ = try await f.queue.enqueue(Kinds.echo, "rolled back", on: connection)
                        throw Rollback()
                    }
                }
                #expect(error?.closureError is Rollback)
                #expect(try await f.integer("SELECT count(*) FROM \(f.schema).jobs") == 0)
                let job = try await f.client.withTransaction(logger: f.logger) { connection in
                    try await f.queue.enqueue(Kinds.echo, "committed", on: connection)
                }
                #expect(try await f.state(of: job.id) == .available)
                #expect(try await f.integer("SELECT count(*) FROM \(f.schema).jobs") == 1)
            }
        }

        // MARK: Maintenance and metrics

        @Test("prune deletes the finished jobs older than the age, with their edges; recent and unfinished ones stay")
        func prune() async throws {
            try await DurableFixture.with { f in
                let s = f.schema
                let old = try await f.queue.enqueue(Kinds.echo, "old")
                let recent = try await f.queue.enqueue(Kinds.echo, "recent")
                let unfinished = try await f.queue.enqueue(Kinds.echo, "unfinished")
                let child = try await f.queue.enqueue(
                    Kinds.echo, "child", options: DurableJobOptions().after(old, policy: .runAnyway))
                #expect(try await f.queue.cancel(old.id) == .cancelled)
                #expect(try await f.queue.cancel(recent.id) == .cancelled)
                #expect(try await f.state(of: child.id) == .available)
                // An unfinished job with an old finished_at (no real one has any) shows that the state is checked.
                try await f.execute(
                    """
                    UPDATE \(s).jobs SET finished_at = now() - interval '2 hours'
                    WHERE id IN (\(old.id), \(unfinished.id))
                    """)
                #expect(try await f.queue.prune(finishedBefore: .seconds(3600)) == 1)
                let left = try await f.rows("SELECT id FROM \(s).jobs ORDER BY id")
                #expect(left == ["\(recent.id)", "\(unfinished.id)", "\(child.id)"])
                #expect(try await f.integer("SELECT count(*) FROM \(s).edges") == 0)
                let error = await #expect(throws: DurableError.self) { try await f.queue.status(of: old.id) }
                #expect(error?.kind == .noSuchJob)
            }
        }

        @Test("metrics: three successes counted under outcome succeeded, with three durations")
        func metrics() async throws {
            try await DurableFixture.with { f in
                let metrics = TestMetrics()
                var jobs = DurableJobs()
                jobs.register(Kinds.echo) { text, _ in text }
                let handles = try await f.queue.enqueue(Kinds.echo, many: ["a", "b", "c"])
                try await f.withWorker(jobs, metrics: metrics) { _ in
                    for handle in handles { _ = try await handle.result() }
                }
                let dimensions = [("queue", "default"), ("kind", "echo")]
                let succeeded = try metrics.expectCounter(
                    "switchyard_durable_jobs_total", dimensions + [("outcome", "succeeded")])
                #expect(succeeded.totalValue == 3)
                let durations = try metrics.expectTimer("switchyard_durable_job_duration_seconds", dimensions)
                #expect(durations.values.count == 3)
            }
        }
    }
#endif
