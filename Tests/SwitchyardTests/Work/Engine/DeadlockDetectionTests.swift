import Switchyard
import SwitchyardTesting
import Testing

private struct Flaky: Error {}

/// The deadlock report a finished job's body threw, if that is how it ended.
private func deadlockReport<Success>(of job: Job<Success, any Error>) async -> DeadlockReport? {
    guard case .failure(.failed(let error)) = await job.result,
        case .wouldDeadlock(let report)? = error as? JobError<Never>
    else { return nil }
    return report
}

/// Waits until `job` has been escalated above `.background`: a task at a higher priority registered its wait.
private func waitUntilAwaited<Success, Failure>(_ job: Job<Success, Failure>) async {
    while job.effectivePriority == .background { await Task.yield() }
}

/// A job whose first attempt runs until `gate` opens and then fails, retried once after a one-second backoff on
/// `clock`, when it returns 7. Returns once the first attempt is running.
private func startFlakyJob(
    on queue: WorkQueue, clock: ManualClock, gate: AsyncGate
) async throws -> Job<Int, Flaky> {
    let started = Arrivals()
    let attempts = SharedCounter()
    let flaky = try queue.trySubmit(
        "flaky", priority: .background,
        options: JobOptions().retrying(.constant(maximumAttempts: 2, delay: .seconds(1)), clock: clock)
    ) { () async throws(Flaky) -> Int in
        if attempts.add() == 1 {
            started.arrive()
            await gate.wait()
            throw Flaky()
        }
        return 7
    }
    await started.wait(for: 1)
    return flaky
}

/// A deadlock that arises after the waits began — a width shrinks, an awaited job goes back to waiting for a
/// retry — ends the waits with a report instead of hanging (see `BlockedJobs`).
@Suite("Deadlocks found after the wait began", .timeLimit(.minutes(1)))
struct DeadlockDetectionTests {
    /// Submits a job at `.high` that awaits `awaited` (and reports when it began).
    private func awaiting(
        _ awaited: Job<Int, Never>, named name: String, on queue: WorkQueue
    ) throws -> Job<Int, any Error> {
        try queue.trySubmit(name, priority: .userInitiated) { () async throws -> Int in
            try await awaited.value
        }
    }

    @Test("a width shrink that leaves every slot to blocked jobs ends the newest one's wait, naming both jobs")
    func widthShrink() async throws {
        let queue = WorkQueue(name: "shrinking", width: 3)
        let first = try queue.trySubmit("first inner", priority: .background, options: JobOptions(isHeld: true)) { 1 }
        let second = try queue.trySubmit("second inner", priority: .background, options: JobOptions(isHeld: true)) { 2 }
        let older = try awaiting(first, named: "older", on: queue)
        let newer = try awaiting(second, named: "newer", on: queue)
        await waitUntilAwaited(first)
        await waitUntilAwaited(second)
        #expect(queue.counts.running == 2)  // a slot is free: no deadlock yet

        queue.width = 2
        let report = await deadlockReport(of: newer)
        #expect(report?.waitingJob == "newer")
        #expect(report?.awaitedJob == "second inner")
        #expect(report?.domain == "shrinking")
        #expect(report?.width == 2)

        // The older job holds a slot and one is free again: releasing its job lets it finish.
        first.release()
        #expect(try await older.value == 1)
        second.release()
        await queue.waitUntilIdle()
    }

    @Test("a shrink below the running count ends the waits of as many blocked jobs as fill the width, newest first")
    func shrinkBelowRunning() async throws {
        let queue = WorkQueue(name: "collapsing", width: 4)
        var inner: [Job<Int, Never>] = []
        var outer: [Job<Int, any Error>] = []
        for index in 0..<3 {
            inner.append(
                try queue.trySubmit("inner \(index)", priority: .background, options: JobOptions(isHeld: true)) {
                    index
                })
        }
        for index in 0..<3 { outer.append(try awaiting(inner[index], named: "outer \(index)", on: queue)) }
        for job in inner { await waitUntilAwaited(job) }

        queue.width = 1
        // Even the oldest one alone would hold the only slot: all three are reported.
        for index in (0..<3).reversed() {
            let report = await deadlockReport(of: outer[index])
            #expect(report?.waitingJob == "outer \(index)")
            #expect(report?.awaitedJob == "inner \(index)")
            #expect(report?.width == 1)
        }
        for job in inner { job.release() }
        await queue.waitUntilIdle()
    }

    @Test("an awaited job that goes back to waiting for a retry counts again, and a deadlock it completes is reported")
    func retryCompletesDeadlock() async throws {
        let clock = ManualClock()
        let queue = WorkQueue(name: "retrying", width: 2)
        let gate = AsyncGate()
        let flaky = try await startFlakyJob(on: queue, clock: clock, gate: gate)
        let waiter = try queue.trySubmit("waiter", priority: .userInitiated) { () async throws -> Int in
            try await flaky.value
        }
        await waitUntilAwaited(flaky)  // counted as not blocking: the flaky job is running
        queue.width = 1  // both keep running; nothing is stuck while the flaky job can finish
        #expect(queue.counts.running == 2)

        gate.open()  // the attempt fails: the job needs a slot again, and the only one is the waiter's
        guard case .failure(.failed(let error)) = await waiter.result,
            case .wouldDeadlock(let report)? = error as? JobError<Flaky>
        else {
            Issue.record("expected a deadlock report")
            return
        }
        #expect(report.waitingJob == "waiter")
        #expect(report.awaitedJob == "flaky")
        #expect(report.width == 1)

        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        #expect(try await flaky.value == 7)
        await queue.waitUntilIdle()
    }

    @Test("a retried job awaited by a running job counts again: the next wait completing the deadlock is reported")
    func retryCountsAgain() async throws {
        let clock = ManualClock()
        let queue = WorkQueue(name: "recounting", width: 3)
        let failGate = AsyncGate()
        let flaky = try await startFlakyJob(on: queue, clock: clock, gate: failGate)
        let waiter = try queue.trySubmit("waiter", priority: .userInitiated) { () async throws -> Int in
            try await flaky.value
        }
        await waitUntilAwaited(flaky)
        failGate.open()
        try await clock.waitForSleepers(count: 1)  // the flaky job waits for its backoff; the waiter counts again
        let held = try queue.trySubmit("held", priority: .background, options: JobOptions(isHeld: true)) { 0 }
        let second = try awaiting(held, named: "second", on: queue)
        await waitUntilAwaited(held)
        queue.width = 2  // both running jobs now wait for jobs that need their slots
        let report = await deadlockReport(of: second)
        #expect(report?.waitingJob == "second")
        #expect(report?.awaitedJob == "held")
        clock.advance(by: .seconds(1))
        #expect(try await waiter.value == 7)
        held.release()
        await queue.waitUntilIdle()
    }

    @Test("a shrink is a deadlock once the blocked jobs alone fill the width, whatever other jobs still run")
    func blockedJobsFillTheWidth() async throws {
        let queue = WorkQueue(name: "mixed", width: 3)
        let gate = AsyncGate()
        let started = Arrivals()
        let runner = try queue.trySubmit("runner") {
            started.arrive()
            await gate.wait()
        }
        await started.wait(for: 1)
        let held = try queue.trySubmit("held", priority: .background, options: JobOptions(isHeld: true)) { 5 }
        let waiter = try awaiting(held, named: "waiter", on: queue)
        await waitUntilAwaited(held)

        queue.width = 2  // one blocked job, two slots: the runner's ending frees one for the held job
        #expect(queue.counts.running == 2)
        queue.width = 1  // the blocked job alone holds the only slot, even after the runner ends
        let report = await deadlockReport(of: waiter)
        #expect(report?.waitingJob == "waiter")
        #expect(report?.width == 1)
        gate.open()
        try await runner.value
        held.release()
        await queue.waitUntilIdle()
    }

    @Test("a limit domain that shrinks is reported by name when blocked jobs of its queues fill it")
    func domainShrink() async throws {
        let domain = LimitDomain(name: "shared budget", width: 3)
        let first = WorkQueue(name: "first", width: 2, limit: domain)
        let second = WorkQueue(name: "second", width: 2, limit: domain)
        let inFirst = try first.trySubmit("in first", priority: .background, options: JobOptions(isHeld: true)) { 1 }
        let inSecond = try second.trySubmit("in second", priority: .background, options: JobOptions(isHeld: true)) { 2 }
        let older = try awaiting(inSecond, named: "older", on: first)  // shares only the domain with what it awaits
        let newer = try awaiting(inFirst, named: "newer", on: second)
        await waitUntilAwaited(inFirst)
        await waitUntilAwaited(inSecond)

        domain.width = 2
        let report = await deadlockReport(of: newer)
        #expect(report?.waitingJob == "newer")
        #expect(report?.awaitedJob == "in first")
        #expect(report?.domain == "shared budget")
        inFirst.release()
        inSecond.release()
        #expect(try await older.value == 2)
        await first.waitUntilIdle()
        await second.waitUntilIdle()
    }

    @Test("when a retry completes a deadlock, the newest blocked job is reported, not the retried job's waiter")
    func retryReportsNewest() async throws {
        let clock = ManualClock()
        let queue = WorkQueue(name: "newest first", width: 3)
        let failGate = AsyncGate()
        let flaky = try await startFlakyJob(on: queue, clock: clock, gate: failGate)
        let older = try queue.trySubmit("older", priority: .userInitiated) { () async throws -> Int in
            try await flaky.value
        }
        await waitUntilAwaited(flaky)  // not counted: the flaky job is running
        let held = try queue.trySubmit("held", priority: .background, options: JobOptions(isHeld: true)) { 0 }
        let newer = try awaiting(held, named: "newer", on: queue)
        await waitUntilAwaited(held)
        queue.width = 2  // one blocked job (the newer), three running: no deadlock yet

        failGate.open()  // the older waiter counts again: two blocked jobs fill the width
        let report = await deadlockReport(of: newer)
        #expect(report?.waitingJob == "newer")
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        #expect(try await older.value == 7)  // its wait was left alone
        held.release()
        await queue.waitUntilIdle()
    }

    @Test("a body awaiting two jobs from child tasks has both waits ended when a shrink deadlocks it")
    func childTaskWaitsEndTogether() async throws {
        let queue = WorkQueue(name: "children", width: 2)
        let first = try queue.trySubmit("first", priority: .background, options: JobOptions(isHeld: true)) { 1 }
        let second = try queue.trySubmit("second", priority: .background, options: JobOptions(isHeld: true)) { 2 }
        let reports = Arrivals()
        let parent = try queue.trySubmit("parent", priority: .userInitiated) { () async -> [String] in
            async let a = first.result
            async let b = second.result
            var awaited: [String] = []
            for result in [await a, await b] {
                if case .failure(.wouldDeadlock(let report)) = result { awaited.append(report.awaitedJob) }
                reports.arrive()
            }
            return awaited
        }
        await waitUntilAwaited(first)
        await waitUntilAwaited(second)
        queue.width = 1  // the parent alone fills the width: every wait it counts ends
        #expect(Set(try await parent.value) == ["first", "second"])
        first.release()
        second.release()
        await queue.waitUntilIdle()
    }

    @Test("a coalescer's shared job that cannot start reports the deadlock to a caller inside a job, and is cancelled")
    func coalescerWaitEndsWithReport() async throws {
        let queue = WorkQueue(name: "coalescing", width: 2)
        let coalescer = Coalescer<String, Int>(queue: queue, name: "shared")
        let gate = AsyncGate()
        let started = Arrivals()
        let other = try queue.trySubmit("other") {
            started.arrive()
            await gate.wait()
        }
        await started.wait(for: 1)
        let caller = try queue.trySubmit("caller", priority: .userInitiated) { () async throws -> Int in
            try await coalescer.value(for: "k") { _ in 5 }
        }
        // The shared job drops its own request to background once the caller's wait is registered.
        while queue.snapshot().jobs.first(where: { $0.name == "shared k" })?.requestedPriority != .background {
            await Task.yield()
        }
        queue.width = 1
        guard case .failure(.failed(let error)) = await caller.result,
            case .wouldDeadlock(let report)? = error as? JobError<any Error>
        else {
            Issue.record("expected a deadlock report")
            return
        }
        #expect(report.waitingJob == "caller")
        #expect(report.awaitedJob == "shared k")
        #expect(coalescer.waiterCount(for: "k") == 0)
        gate.open()
        try await other.value
        await queue.waitUntilIdle()
        #expect(queue.counts.cancelled == 1, "the shared job lost its last caller")
    }
}
