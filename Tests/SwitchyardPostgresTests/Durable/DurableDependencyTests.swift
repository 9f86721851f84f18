#if Postgres
    import Switchyard
    import SwitchyardPostgres
    import Testing

    extension DurableQueueTests {
        /// Dependencies, priorities, widths and periodic schedules.
        @Suite("Durable queue: dependencies and scheduling")
        struct Scheduling {
            typealias Kinds = DurableTestKinds

            struct Load: Sendable {
                var running = 0
                var peak = 0
            }

            @Test("a job whose input is another's output waits for it, then runs with that output")
            func inputFrom() async throws {
                try await DurableFixture.with { f in
                    let inputs = DurableTestBox<[Int]>([])
                    var jobs = DurableJobs()
                    jobs.register(Kinds.double) { value, _ in
                        inputs.withLock { $0.append(value) }
                        return value * 2
                    }
                    let first = try await f.queue.enqueue(Kinds.double, 5)
                    let second = try await f.queue.enqueue(Kinds.double, inputFrom: first)
                    #expect(try await f.state(of: second.id) == .waiting)
                    let output = try await f.withWorker(jobs) { _ in try await second.result() }
                    #expect(output == 20)
                    #expect(inputs.value == [5, 10])
                    let parentStatus = try await first.status()
                    let childStatus = try await second.status()
                    let parentFinished = try #require(parentStatus.finishedAt)
                    let childStarted = try #require(childStatus.startedAt)
                    #expect(childStarted >= parentFinished)
                }
            }

            @Test("a failed dependency: cancelDependent cancels, propagateFailure fails, runAnyway runs the dependent")
            func failedDependency() async throws {
                try await DurableFixture.with { f in
                    let ran = DurableTestBox<[Int]>([])
                    var jobs = DurableJobs()
                    jobs.register(Kinds.fail) { _, _ in throw DurableTestError("parent failed on purpose") }
                    jobs.register(Kinds.noop) { value, _ in
                        ran.withLock { $0.append(value) }
                        return DurableNothing()
                    }
                    let parent = try await f.queue.enqueue(
                        Kinds.fail, 0, options: DurableJobOptions(maximumAttempts: 1))
                    func child(_ value: Int, _ policy: DependencyPolicy) async throws -> DurableJob<DurableNothing> {
                        try await f.queue.enqueue(
                            Kinds.noop, value, options: DurableJobOptions().after(parent, policy: policy))
                    }
                    let cancelled = try await child(1, .cancelDependent)
                    let failed = try await child(2, .propagateFailure)
                    let runs = try await child(3, .runAnyway)
                    try await f.withWorker(jobs) { _ in
                        let cancelError = await #expect(throws: DurableError.self) { try await cancelled.result() }
                        #expect(cancelError?.kind == .jobCancelled)
                        #expect(cancelError?.message == "cancelled: dependency \(parent.id) failed")
                        let failError = await #expect(throws: DurableError.self) { try await failed.result() }
                        #expect(failError?.kind == .jobFailed)
                        #expect(failError?.message == "dependency \(parent.id) failed: parent failed on purpose")
                        _ = try await runs.result()
                    }
                    #expect(ran.value == [3])
                }
            }

            @Test("priority escalation: a userInteractive job waiting on a chain lifts every unfinished job of it to 4")
            func escalation() async throws {
                try await DurableFixture.with { f in
                    let low = try await f.queue.enqueue(
                        Kinds.noop, 1, options: DurableJobOptions(priority: .background))
                    let middle = try await f.queue.enqueue(
                        Kinds.noop, 2, options: DurableJobOptions(priority: .utility).after(low))
                    let high = try await f.queue.enqueue(
                        Kinds.noop, 3, options: DurableJobOptions(priority: .userInteractive).after(middle))
                    let lowStatus = try await f.queue.status(of: low.id)
                    #expect(lowStatus.priority == 0 && lowStatus.effectivePriority == 4)
                    let middleStatus = try await middle.status()
                    #expect(middleStatus.priority == 1 && middleStatus.effectivePriority == 4)
                    #expect(try await high.status().state == .waiting)
                }
            }

            @Test("priority order: 20 background jobs waiting, a userInteractive one enqueued last runs first")
            func priorityOrder() async throws {
                try await DurableFixture.with { f in
                    let order = DurableTestBox<[Int64]>([])
                    var jobs = DurableJobs()
                    jobs.register(Kinds.noop) { _, context in
                        order.withLock { $0.append(context.jobID) }
                        return DurableNothing()
                    }
                    let background = try await f.queue.enqueue(
                        Kinds.noop, many: Array(0..<20), options: DurableJobOptions(priority: .background))
                    let urgent = try await f.queue.enqueue(
                        Kinds.noop, 20, options: DurableJobOptions(priority: .userInteractive))
                    try await f.withWorker(jobs, .test(concurrency: 1)) { _ in
                        for job in background + [urgent] { _ = try await job.result() }
                    }
                    let ran = order.value
                    #expect(ran.first == urgent.id)
                    #expect(Array(ran.dropFirst()) == background.map(\.id), "FIFO within a level")
                }
            }

            @Test("a queue's global width holds across three workers of 5 slots: at most 2 of its jobs at once")
            func globalWidth() async throws {
                try await DurableFixture.with { f in
                    try await f.queue.setWidth(2, of: "narrow")
                    let load = DurableTestBox(Load())
                    var jobs = DurableJobs()
                    jobs.register(Kinds.noop) { _, _ in
                        load.withLock { load in
                            load.running += 1
                            load.peak = max(load.peak, load.running)
                        }
                        defer { load.withLock { $0.running -= 1 } }
                        try await Task.sleep(for: .milliseconds(20))
                        return DurableNothing()
                    }
                    _ = try await f.queue.enqueue(
                        Kinds.noop, many: Array(0..<40), options: DurableJobOptions(queue: "narrow"))
                    let configurations = (1...3).map {
                        DurableWorkerConfiguration.test(name: "narrow-\($0)", queues: ["narrow"], concurrency: 5)
                    }
                    try await f.withWorkers(jobs, configurations) { _ in
                        try await f.waitUntil("40 jobs of queue narrow succeed", within: .seconds(60)) {
                            try await f.integer(
                                "SELECT count(*) FROM \(f.schema).jobs WHERE queue = 'narrow' AND state = 'succeeded'")
                                == 40
                        }
                    }
                    let peak = load.value.peak
                    #expect(peak >= 1 && peak <= 2, "\(peak) jobs of queue narrow ran at once")
                }
            }

            @Test("periodic: a due schedule enqueues exactly one job for its tick across three workers, and moves on")
            func periodic() async throws {
                try await DurableFixture.with { f in
                    let s = f.schema
                    let cron = try CronSchedule("* * * * *")
                    try await f.queue.schedule("every-minute", Kinds.tick, DurableNothing(), cron: cron)
                    let tick = try await f.integer(
                        """
                        UPDATE \(s).periodic SET next_at = date_trunc('second', now()) - interval '1 second'
                        WHERE name = 'every-minute' RETURNING extract(epoch FROM next_at)::bigint
                        """)
                    var jobs = DurableJobs()
                    jobs.register(Kinds.tick) { _, _ in DurableNothing() }
                    let count = "SELECT count(*) FROM \(s).jobs WHERE unique_key = 'periodic:every-minute:\(tick)'"
                    let configurations = (1...3).map {
                        DurableWorkerConfiguration.test(name: "periodic-\($0)", maintenanceInterval: .milliseconds(100))
                    }
                    try await f.withWorkers(jobs, configurations) { _ in
                        try await f.waitUntil("the tick's job is enqueued") { try await f.integer(count) >= 1 }
                        // Several more maintenance rounds of every worker, in which no second job may appear.
                        try await Task.sleep(for: .milliseconds(500))
                    }
                    #expect(try await f.integer(count) == 1)
                    #expect(try await f.integer("SELECT count(*) FROM \(s).periodic WHERE next_at > now()") == 1)
                }
            }
        }
    }
#endif
