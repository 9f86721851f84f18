#if Postgres
    import PostgresNIO
    import SwitchyardPostgres
    import Testing

    extension DurableQueueTests {
        /// Cancellation, lost leases, stale attempts, shutdown, and what the snapshot shows meanwhile.
        @Suite("Durable queue: cancellation, rescue and shutdown")
        struct Faults {
            typealias Kinds = DurableTestKinds

            /// When `sleepy` handlers started and saw their cancellation.
            struct SleepEvents: Sendable {
                var started: [Int64: ContinuousClock.Instant] = [:]
                var cancelled: [Int64: ContinuousClock.Instant] = [:]
            }

            /// `sleepy` (records its start, sleeps 30 s, records when it sees its cancellation) and `noop`.
            static func sleepyJobs(_ events: DurableTestBox<SleepEvents>) -> DurableJobs {
                var jobs = DurableJobs()
                jobs.register(Kinds.sleepy) { _, context in
                    events.withLock { $0.started[context.jobID] = ContinuousClock.now }
                    do {
                        try await Task.sleep(for: .seconds(30))
                    } catch {
                        events.withLock { $0.cancelled[context.jobID] = ContinuousClock.now }
                        throw error
                    }
                    return DurableNothing()
                }
                jobs.register(Kinds.noop) { _, _ in DurableNothing() }
                return jobs
            }

            /// Cancels a running `sleepy` job: its handler must see it within `limit`, and the job and its dependent
            /// end cancelled.
            static func cancelRunning(
                _ f: DurableFixture, _ configuration: DurableWorkerConfiguration, within limit: Duration
            ) async throws {
                let events = DurableTestBox(SleepEvents())
                let job = try await f.queue.enqueue(Kinds.sleepy, 1)
                let dependent = try await f.queue.enqueue(Kinds.noop, 2, options: DurableJobOptions().after(job))
                try await f.withWorker(sleepyJobs(events), configuration) { _ in
                    if configuration.listens { try await f.waitUntilListening() }
                    try await f.waitUntil("the job starts") { events.value.started[job.id] != nil }
                    let asked = ContinuousClock.now
                    #expect(try await f.queue.cancel(job.id) == .running)
                    try await f.waitUntil("the handler sees its cancellation") { events.value.cancelled[job.id] != nil }
                    let seen = try #require(events.value.cancelled[job.id])
                    #expect(seen - asked < limit, "the handler saw the cancellation \(seen - asked) after it was asked")
                    try await f.waitFor(job.id, toBe: .cancelled)
                    try await f.waitFor(dependent.id, toBe: .cancelled)
                }
                let error = await #expect(throws: DurableError.self) { try await job.result() }
                #expect(error?.kind == .jobCancelled)
                #expect(error?.message == "cancelled while running")
                let dependentError = await #expect(throws: DurableError.self) { try await dependent.result() }
                #expect(dependentError?.message == "cancelled: dependency \(job.id) cancelled")
            }

            /// Inserts `worker` into `results` in the transaction that completes the job with the output `worker`.
            static func complete(_ context: DurableJobContext, as worker: String, schema: String) async throws
                -> String
            {
                try await context.withCompletingTransaction { connection in
                    try await connection.query(
                        "INSERT INTO \(unescaped: schema).results (job, worker) VALUES (\(context.jobID), \(worker))",
                        logger: context.logger)
                    return worker
                }
            }

            // MARK: Cancellation

            @Test("cancel() of a running job: its task is cancelled within 1 s (NOTIFY); it and its dependent too")
            func cancelRunningJob() async throws {
                try await DurableFixture.with { f in
                    // A 10 s lease: the first renewal comes after 3.3 s, so only the NOTIFY can be this fast.
                    try await Self.cancelRunning(f, .test(leaseDuration: .seconds(10)), within: .seconds(1))
                }
            }

            @Test("cancel() with listens false: the cancellation arrives with a lease renewal, within about 1 s")
            func cancelWithoutListening() async throws {
                try await DurableFixture.with { f in
                    try await Self.cancelRunning(
                        f, .test(leaseDuration: .seconds(1), listens: false), within: .seconds(1))
                }
            }

            // MARK: Leases

            @Test("a paused worker's attempt, rescued and completed elsewhere, cannot complete it: staleAttempt")
            func staleAttempt() async throws {
                try await DurableFixture.with { f in
                    let s = f.schema
                    try await f.execute("CREATE TABLE \(s).results (job bigint NOT NULL, worker text NOT NULL)")
                    let gate = DurableTestGate()
                    let firstStarted = DurableTestBox(false)
                    let firstError = DurableTestBox<(any Error)?>(nil)
                    var first = DurableJobs()
                    first.register(Kinds.effect) { _, context in
                        firstStarted.withLock { $0 = true }
                        await gate.wait()
                        do {
                            return try await Self.complete(context, as: "w1", schema: s)
                        } catch {
                            firstError.withLock { $0 = error }
                            throw error
                        }
                    }
                    var second = DurableJobs()
                    second.register(Kinds.effect) { _, context in
                        try await Self.complete(context, as: "w2", schema: s)
                    }
                    let job = try await f.queue.enqueue(Kinds.effect, 1)
                    // W1 would renew after 100 s: in this test, only the SQL below moves its lease. One slot, taken by
                    // the attempt at the gate, so W1 cannot claim the job again.
                    let w1 = f.start(first, .test(name: "w1", concurrency: 1, leaseDuration: .seconds(300)))
                    try await f.waitUntil("W1 starts the job") { firstStarted.value }
                    // W1 "pauses": its lease runs out, the job is rescued, and W2 runs and completes it.
                    #expect(try await f.expireLeaseAndRescue(job.id) == ["\(job.id) available"])
                    let w2 = f.start(second, .test(name: "w2"))
                    #expect(try await job.result() == "w2")
                    try await w2.stop()
                    // W1 resumes: its completing transaction is refused and its insert rolled back.
                    gate.open()
                    try await f.waitUntil("W1's attempt ends") { firstError.value != nil }
                    let error = firstError.value
                    #expect((error as? DurableError)?.kind == .staleAttempt, "\(String(describing: error))")
                    try await w1.stop()
                    #expect(try await f.rows("SELECT job, worker FROM \(s).results") == ["\(job.id)|w2"])
                    let status = try await job.status()
                    #expect(status.state == .succeeded && status.attempt == 2 && status.failures == 1)
                    // The schema's finish, called for the stale attempt 1, returns nothing and changes nothing.
                    let finished = try await f.rows(
                        """
                        SELECT * FROM \(s).finish(ARRAY[\(job.id)]::bigint[], ARRAY[1], ARRAY[0::smallint], \
                        ARRAY['{}'], ARRAY[''])
                        """)
                    #expect(finished.isEmpty)
                    #expect(try await job.status() == status)
                    #expect(try await job.result() == "w2")
                }
            }

            @Test("rescue: a job whose lease expired is available again, one failure counted; a live worker runs it")
            func rescue() async throws {
                try await DurableFixture.with { f in
                    let s = f.schema
                    let job = try await f.queue.enqueue(Kinds.effect, 7)
                    // A worker that claims the job, then dies: its row stays, its lease is never renewed.
                    let ghost = try await f.integer(
                        """
                        INSERT INTO \(s).workers (name, host, pid, kinds, queues, concurrency, lease_ms)
                        VALUES ('ghost', 'nowhere', 1, ARRAY['effect'], ARRAY['default'], 1, 60000) RETURNING id
                        """)
                    let claimed = try await f.rows(
                        "SELECT job_id FROM \(s).claim(\(ghost), ARRAY['effect'], ARRAY['default'], 1, 60000)")
                    #expect(claimed == ["\(job.id)"])
                    #expect(try await f.state(of: job.id) == .running)
                    #expect(try await f.expireLeaseAndRescue(job.id) == ["\(job.id) available"])
                    let rescued = try await job.status()
                    #expect(rescued.state == .available && rescued.failures == 1 && rescued.attempt == 1)
                    #expect(
                        rescued.error?.contains("lease expired: worker ghost (nowhere, pid 1)") == true,
                        "\(String(describing: rescued.error))")
                    let attempts = DurableTestBox<[String]>([])
                    var jobs = DurableJobs()
                    jobs.register(Kinds.effect) { input, context in
                        attempts.withLock { $0.append("attempt \(context.attempt) after \(context.failures) failures") }
                        return "rescued \(input)"
                    }
                    let output = try await f.withWorker(jobs) { _ in try await job.result() }
                    #expect(output == "rescued 7")
                    #expect(attempts.value == ["attempt 2 after 1 failures"])
                }
            }

            // MARK: Shutdown

            @Test("graceful shutdown: an attempt still running after the grace period is cancelled, its job released")
            func gracefulShutdownReleases() async throws {
                try await DurableFixture.with { f in
                    let events = DurableTestBox(SleepEvents())
                    let job = try await f.queue.enqueue(Kinds.sleepy, 1)
                    let worker = f.start(
                        Self.sleepyJobs(events), .test(name: "leaving", shutdownGracePeriod: .milliseconds(200)))
                    try await f.waitUntil("the job starts") { events.value.started[job.id] != nil }
                    let began = ContinuousClock.now
                    try await worker.stop()
                    let took = ContinuousClock.now - began
                    #expect(took < .seconds(2), "run() returned \(took) after shutdown()")
                    let cancelled = try #require(events.value.cancelled[job.id])
                    #expect(cancelled - began >= .milliseconds(200), "cancelled before the grace period ended")
                    let status = try await job.status()
                    #expect(status.state == .available && status.failures == 0 && status.attempt == 1)
                    #expect(status.worker == nil && status.error == nil && status.finishedAt == nil)
                    #expect(try await f.integer("SELECT count(*) FROM \(f.schema).workers") == 0)
                }
            }

            // MARK: Snapshot

            @Test("snapshot: a job no live worker runs says why; a running job shows its worker and reported progress")
            func snapshot() async throws {
                try await DurableFixture.with { f in
                    let gate = DurableTestGate()
                    var jobs = DurableJobs()
                    jobs.register(Kinds.progress) { _, context in
                        context.reportProgress(completed: 3, total: 10)
                        await gate.wait()
                        return DurableNothing()
                    }
                    let orphan = try await f.queue.enqueue(Kinds.orphan, 1)
                    let busy = try await f.queue.enqueue(Kinds.progress, 2)
                    let configuration = DurableWorkerConfiguration.test(
                        name: "snapshot-worker", leaseDuration: .milliseconds(300))
                    try await f.withWorker(jobs, configuration) { _ in
                        try await f.waitUntil("the running job's progress is stored by a renewal") {
                            let running = try await f.queue.snapshot().running.first(where: { $0.id == busy.id })
                            return running?.completedUnits == 3 && running?.totalUnits == 10
                        }
                        let snapshot = try await f.queue.snapshot()
                        let waiting = try #require(snapshot.waiting.first(where: { $0.id == orphan.id }))
                        #expect(
                            waiting.reason?.contains("no live worker runs kind orphan") == true,
                            "\(String(describing: waiting.reason))")
                        let running = try #require(snapshot.running.first(where: { $0.id == busy.id }))
                        #expect(
                            running.worker?.contains("snapshot-worker") == true, "\(String(describing: running.worker))"
                        )
                        #expect(snapshot.workers.contains(where: { $0.name == "snapshot-worker" && $0.isAlive }))
                        #expect(snapshot.description.contains("3/10 (30%)"), "\(snapshot)")
                        gate.open()
                        try await f.waitFor(busy.id, toBe: .succeeded)
                    }
                }
            }
        }
    }
#endif
