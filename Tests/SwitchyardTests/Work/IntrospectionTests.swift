import Switchyard
import SwitchyardTesting
import Testing

@Suite("Snapshots, lifecycle events and progress")
struct IntrospectionTests {
    @Test("jobs are numbered per queue from 1, and snapshots, events and descriptions show that number")
    func perQueueNumbers() async throws {
        _ = try WorkQueue(name: "elsewhere", width: 1).trySubmit("unrelated") {}
        let queue = WorkQueue(name: "numbered", width: 1)
        let gate = AsyncGate()
        let first = try queue.trySubmit("first") { await gate.wait() }
        let second = try queue.trySubmit("second") {}
        #expect(first.number == 1 && second.number == 2)
        #expect(second.identifier > first.identifier)
        #expect(second.description.hasPrefix("Job \"second\" #2 of \"numbered\""))
        let snapshot = queue.snapshot()
        #expect(snapshot.jobs.map(\.number).sorted() == [1, 2])
        #expect(snapshot.description.split(separator: "\n").contains { $0.contains("2") && $0.contains("second") })
        gate.open()
        try await first.value
        try await second.value
    }

    @Test("snapshot times: submitted and started instants fall between readings of the clock around them")
    func snapshotTimes() async throws {
        let queue = WorkQueue(name: "times", width: 1)
        let gate = AsyncGate()
        let started = Arrivals()
        let beforeSubmit = ContinuousClock.now
        let running = try queue.trySubmit("running") {
            started.arrive()
            await gate.wait()
        }
        let waiting = try queue.trySubmit("waiting") {}
        let afterSubmit = ContinuousClock.now
        await started.wait(for: 1)
        let afterStart = ContinuousClock.now
        let snapshot = queue.snapshot()
        let jobs = Dictionary(uniqueKeysWithValues: snapshot.jobs.map { ($0.name, $0) })
        let first = try #require(jobs["running"])
        let second = try #require(jobs["waiting"])
        #expect(beforeSubmit <= first.submittedAt && first.submittedAt <= second.submittedAt)
        #expect(second.submittedAt <= afterSubmit)
        let startedAt = try #require(first.startedAt)
        #expect(first.submittedAt <= startedAt && startedAt <= afterStart)
        #expect(second.startedAt == nil)
        #expect(afterStart <= snapshot.takenAt)
        gate.open()
        try await running.value
        try await waiting.value
    }

    @Test("snapshot names every waiting reason; description prints a table")
    func snapshotReasons() async throws {
        let clock = ManualClock()
        let queue = WorkQueue(name: "inspect", width: 1)
        let gate = AsyncGate()
        let started = Arrivals()
        let running = try queue.trySubmit("running") {
            started.arrive()
            await gate.wait()
        }
        await started.wait(for: 1)
        let x = try queue.trySubmit("x", options: JobOptions(isHeld: true)) {}
        let y = try queue.trySubmit("y", priority: .background) {}
        try queue.trySubmit("needs x and y", options: JobOptions().after(x).after(y)) {}
        try queue.trySubmit("later", options: JobOptions().delayed(by: .seconds(3), clock: clock)) {}
        let snapshot = queue.snapshot()
        let reasons = Dictionary(uniqueKeysWithValues: snapshot.jobs.map { ($0.name, $0.waitingReasons) })
        #expect(reasons["running"] == [])
        #expect(reasons["x"] == [.held])
        #expect(reasons["y"] == [.slot(priority: .medium, domain: "inspect", running: 1, width: 1)])
        #expect(
            reasons["needs x and y"]
                == [
                    .dependencies([
                        .init(identifier: x.identifier, name: "x"), .init(identifier: y.identifier, name: "y"),
                    ])
                ])
        #expect(reasons["later"] == [.delay(.seconds(3))])
        #expect(snapshot.jobs.first { $0.name == "y" }?.effectivePriority == .medium)  // escalated by its dependent
        let text = queue.description
        #expect(text.contains("WorkQueue \"inspect\" width 1"))
        #expect(text.contains("dependencies \"x\", \"y\""))
        #expect(text.contains("background→medium"))
        queue.cancelAll()
        gate.open()
        try? await running.value
        await queue.waitUntilIdle()
    }

    @Test("lifecycle events arrive in order")
    func events() async throws {
        let queue = WorkQueue(name: "events", width: 1)
        let stream = queue.events()
        let job = try queue.trySubmit("one") { 1 }
        _ = try await job.value
        var kinds: [JobEvent.Kind] = []
        for await event in stream {
            #expect(event.jobName == "one")
            kinds.append(event.kind)
            if event.kind == .finished {
                #expect(event.state == .succeeded)
                break
            }
        }
        #expect(kinds == [.submitted, .started, .finished])
    }

    @Test("an observer that falls behind keeps the newest events, bounded by default")
    func eventsAreBounded() async throws {
        let queue = WorkQueue(name: "events", width: 1)
        let stream = queue.events()  // not read until every job has finished
        // Three events each: half as many jobs as the buffer's events overflow it. (Not more: with the engine's
        // internal checks every transition re-checks every unfinished job.)
        let jobs = WorkQueue.defaultEventBuffer / 2
        for index in 0..<jobs { try queue.trySubmit("job \(index)") {} }
        await queue.waitUntilIdle()
        var received = 0
        var first: String?
        for await event in stream {
            if first == nil { first = event.jobName }
            received += 1
            if event.jobName == "job \(jobs - 1)" && event.kind == .finished { break }
        }
        #expect(received == WorkQueue.defaultEventBuffer)
        #expect(first != "job 0")
    }

    @Test("progress adds every job's units; finished jobs count as complete")
    func progressAggregation() async throws {
        let queue = WorkQueue(name: "progress", width: 2)
        let group = JobGroup(name: "group")
        let gate = AsyncGate()
        let reported = Arrivals()
        let worker = try queue.trySubmit("worker", options: JobOptions(group: group)) {
            JobContext.current?.reportProgress(completed: 25, total: 100)
            reported.arrive()
            await gate.wait()
        }
        try queue.trySubmit("unit", options: JobOptions(group: group)) {}
        await reported.wait(for: 1)
        while queue.currentProgress.finishedJobs < 1 { await Task.yield() }
        let progress = queue.currentProgress
        #expect(progress.completedUnits == 26 && progress.totalUnits == 101)
        #expect(progress.finishedJobs == 1 && progress.totalJobs == 2)
        #expect(progress.fractionCompleted == 0.625, "each job one share: 1 + 25/100 of 2")
        #expect(group.currentProgress.completedUnits == 26)
        gate.open()
        try await worker.value
        await queue.waitUntilIdle()
        #expect(queue.currentProgress.fractionCompleted == 1)
        #expect(queue.currentProgress.isFinished)
    }

    @Test("progress never moves backwards while jobs run: a job reporting a large total late keeps its share")
    func progressNeverMovesBackwards() async throws {
        let queue = WorkQueue(name: "monotonic", width: 2)
        let gate = AsyncGate()
        let started = Arrivals()
        let proceed = AsyncGate()
        let late = try queue.trySubmit("late reporter") {
            started.arrive()
            await proceed.wait()
            JobContext.current?.reportProgress(completed: 0, total: 100)  // a 100-unit total, announced late
            await gate.wait()
            JobContext.current?.reportProgress(completed: 10, total: 100)
            JobContext.current?.reportProgress(completed: 5, total: 100)  // a retry starting over
            await gate.wait()
        }
        await started.wait(for: 1)
        for index in 0..<6 { try queue.trySubmit("quick \(index)") {} }
        while queue.currentProgress.finishedJobs < 6 { await Task.yield() }
        let before = queue.currentProgress.fractionCompleted
        #expect(abs(before - 6.0 / 7.0) < 1e-9)
        proceed.open()
        while queue.snapshot().jobs.first(where: { $0.name == "late reporter" })?.totalUnits != 100 {
            await Task.yield()
        }
        #expect(queue.currentProgress.fractionCompleted >= before, "a late total does not move it back")
        gate.open()
        try await late.value
        #expect(queue.currentProgress.fractionCompleted == 1)
    }

    @Test("progress updates are throttled by time and change size; completion is always delivered")
    func progressThrottling() async throws {
        let clock = ManualClock()
        let queue = WorkQueue(name: "throttled", width: 1)
        var updates = queue.progressUpdates(interval: .seconds(1), minimumChange: 0.05, clock: clock)
            .makeAsyncIterator()
        #expect(await updates.next()?.totalJobs == 0)  // the current state first
        let gate = AsyncGate()
        let step = AsyncGate()
        let reported = Arrivals()
        let job = try queue.trySubmit("steps") {
            let context = JobContext.current!
            context.reportProgress(completed: 1, total: 1000)  // tiny change: not delivered
            context.reportProgress(completed: 500, total: 1000)  // big change, but within the interval
            reported.arrive()
            await step.wait()
            context.reportProgress(completed: 510, total: 1000)
            await gate.wait()
        }
        await reported.wait(for: 1)
        try await clock.waitForSleepers(count: 1)  // the trailing delivery waits for the interval
        clock.advance(by: .seconds(1))
        let trailing = await updates.next()
        #expect(trailing?.completedUnits == 500)
        step.open()
        gate.open()
        try await job.value
        var last: WorkProgress?
        while let update = await updates.next() {
            last = update
            if update.isFinished { break }
        }
        #expect(last?.isFinished == true)
        #expect(last?.completedUnits == 1000)
    }

    @Test("a progress observer's clock is user code: its now may use the engine (it is never read under the lock)")
    func progressClockMayUseTheEngine() async throws {
        let queue = WorkQueue(name: "clocked", width: 1)
        let clock = EngineTouchingClock(base: ManualClock(), queue: queue)
        var updates = queue.progressUpdates(interval: .seconds(1), minimumChange: 0, clock: clock).makeAsyncIterator()
        #expect(await updates.next()?.totalJobs == 0)
        let job = try queue.trySubmit("reports") {
            for index in 1...100 { JobContext.current?.reportProgress(completed: Int64(index), total: 100) }
        }
        let finished = await withTaskExecutorPreference(NarrowPool(width: 1, name: "watchdog")) { () async -> Bool in
            let done = CallbackExpectation("the job finished")
            Task.detached {
                try? await job.value
                done.fulfill()
            }
            return await done.fulfillment(within: .seconds(30)).isSuccess
        }
        #expect(finished)
        var last: WorkProgress?
        while let update = await updates.next() {
            last = update
            if update.isFinished { break }
        }
        #expect(last?.completedUnits == 100)
    }
}

/// A clock whose `now` reads a queue's counts (which takes the engine lock): reading it under that lock would
/// deadlock.
private struct EngineTouchingClock: Clock {
    let base: ManualClock
    let queue: WorkQueue
    var now: ManualClock.Instant {
        _ = queue.counts
        return base.now
    }
    var minimumResolution: Duration { base.minimumResolution }
    func sleep(until deadline: ManualClock.Instant, tolerance: Duration?) async throws {
        try await base.sleep(until: deadline, tolerance: tolerance)
    }
}
