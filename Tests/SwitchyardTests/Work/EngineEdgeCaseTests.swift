import Switchyard
import Testing

/// Releases a job when it is deallocated: its deinit calls back into the engine.
private final class Lease: Sendable {
    let queue: WorkQueue
    let released: Arrivals
    init(queue: WorkQueue, released: Arrivals) {
        self.queue = queue
        self.released = released
    }
    deinit {
        let released = self.released
        _ = try? queue.trySubmit("release lease") { released.arrive() }
    }
}

@Suite("Engine edge cases: deinits, barriers, deadlock counting")
struct EngineEdgeCaseTests {
    @Test("a body whose captured state calls into the engine from deinit is released outside the lock")
    func deinitCallsBack() async throws {
        let queue = WorkQueue(name: "leases", width: 1)
        let released = Arrivals()
        queue.suspend()
        let lease = Lease(queue: queue, released: released)
        let job = try queue.trySubmit("uses lease") { _ = lease }
        _ = consume lease
        job.cancel()  // drops the body, and with it the last reference to the lease
        queue.resume()
        await released.wait(for: 1)
        await queue.waitUntilIdle()
        #expect(released.count == 1)
        #expect(job.state == .cancelled)
        #expect(queue.counts.cancelled == 1)  // the job that held the lease
        #expect(queue.counts.succeeded == 1)  // the job the lease's deinit submitted
    }

    @Test("a body awaiting several pending jobs counts once: no false deadlock while another job can finish")
    func severalWaitsCountOnce() async throws {
        let queue = WorkQueue(name: "two slots", width: 2)
        let gate = AsyncGate()
        let started = Arrivals()
        try queue.trySubmit("other") {
            started.arrive()
            await gate.wait()
        }
        await started.wait(for: 1)
        let waiter = try queue.trySubmit("waiter") { () async throws -> Int in
            let first = try! queue.trySubmit("first") { 1 }
            let second = try! queue.trySubmit("second") { 2 }
            async let a = first.value
            async let b = second.value
            started.arrive()
            return try await a + b
        }
        await started.wait(for: 2)
        gate.open()
        #expect(try await waiter.value == 3)
    }

    @Test("a job awaiting itself is reported, not hung")
    func selfAwait() async throws {
        let queue = WorkQueue(name: "self", width: 2)
        let box = JobBox()
        let job = try queue.trySubmit("narcissus", options: JobOptions(isHeld: true)) { () async throws -> Int in
            try await box.job!.value
        }
        box.job = job
        job.release()
        guard case .failure(.failed(let error)) = await job.result,
            case .wouldDeadlock(let report)? = error as? JobError<any Error>
        else {
            Issue.record("expected a deadlock report")
            return
        }
        #expect(report.waitingJob == "narcissus" && report.awaitedJob == "narcissus")
    }

    @Test("an edge that would make a barrier wait for itself is rejected as a cycle")
    func barrierCycle() async throws {
        let queue = WorkQueue(name: "barrier cycle", width: 2)
        let held = try queue.trySubmit("held", options: JobOptions(isHeld: true)) {}
        let barrier = try queue.trySubmit("barrier", options: .init().barrier()) {}
        #expect {
            try held.addDependency(barrier)
        } throws: { ($0 as? DependencyError)?.code == .cycle }
        held.release()
        try await barrier.value
    }

    @Test("a cancelled barrier still holds back what comes after it until the earlier jobs finish")
    func cancelledBarrierKeepsOrder() async throws {
        let queue = WorkQueue(name: "cancelled barrier", width: 4)
        let log = Log<String>()
        let gate = AsyncGate()
        try queue.trySubmit("early") {
            await gate.wait()
            log.append("early")
        }
        let first = try queue.trySubmit("first barrier", options: .init().barrier()) { log.append("first barrier") }
        first.cancel()
        try queue.trySubmit("middle") { log.append("middle") }
        let second = try queue.trySubmit("second barrier", options: .init().barrier()) { log.append("second barrier") }
        #expect(second.state == .waiting)
        gate.open()
        try await second.value
        await queue.waitUntilIdle()
        #expect(log.all == ["early", "middle", "second barrier"])
    }

    /// A barrier is an option, so every body form can be one: here a blocking body and a body with inputs.
    @Test("a blocking barrier and a barrier with inputs each wait for the jobs before them and hold back the rest")
    func barrierForms() async throws {
        let queue = WorkQueue(name: "barrier forms", width: 4)
        let log = Log<String>()
        let gate = AsyncGate()
        let early = try queue.trySubmit("early") {
            await gate.wait()
            log.append("early")
            return 2
        }
        let blocking = try queue.trySubmitBlocking("blocking barrier", options: .init().barrier()) {
            log.append("blocking barrier")
        }
        try queue.trySubmit("middle") { log.append("middle") }
        let withInputs = try queue.trySubmit("barrier with inputs", after: early, options: .init().barrier()) {
            value in log.append("barrier with input \(value)")
        }
        try queue.trySubmit("late") { log.append("late") }
        #expect(blocking.state == .waiting)
        gate.open()
        try await withInputs.value
        await queue.waitUntilIdle()
        #expect(log.all == ["early", "blocking barrier", "middle", "barrier with input 2", "late"])
    }

    @Test("a cancelled barrier behind an unfinished barrier keeps what comes after it behind that one")
    func cancelledBarrierBehindBarrier() async throws {
        let queue = WorkQueue(name: "barrier chain", width: 4)
        let log = Log<String>()
        let gate = AsyncGate()
        try queue.trySubmit("early") {
            await gate.wait()
            log.append("early")
        }
        try queue.trySubmit("first barrier", options: .init().barrier()) { log.append("first barrier") }
        // Nothing between the two barriers.
        let second = try queue.trySubmit("second barrier", options: .init().barrier()) { log.append("second barrier") }
        try queue.trySubmit("after second") { log.append("after second") }
        second.cancel()
        try queue.trySubmit("after the cancel") { log.append("after the cancel") }
        let snapshot = queue.snapshot()
        let standIn = try #require(snapshot.jobs.first { $0.name == "second barrier (stand-in: keeps the order)" })
        #expect(standIn.state == .waiting)
        #expect(
            standIn.waitingReasons.contains {
                if case .dependencies(let jobs) = $0 { jobs.map(\.name) == ["first barrier"] } else { false }
            })
        gate.open()
        await queue.waitUntilIdle()
        #expect(Array(log.all.prefix(2)) == ["early", "first barrier"])
        #expect(Set(log.all.dropFirst(2)) == ["after second", "after the cancel"])
        #expect(second.state == .cancelled)
    }

    @Test("the order a cancelled barrier keeps is visible to cycle checks")
    func cancelledBarrierCycle() async throws {
        let queue = WorkQueue(name: "barrier cycle")
        let held = try queue.trySubmit("held", options: JobOptions(isHeld: true)) {}
        let barrier = try queue.trySubmit("barrier", options: .init().barrier()) {}
        let after = try queue.trySubmit("after") {}
        barrier.cancel()
        // `after` waits for the stand-in, which waits for `held`: `held` may not wait for `after`.
        #expect(throws: DependencyError.self) { try held.addDependency(after) }
        held.release()
        await queue.waitUntilIdle()
        #expect(after.state == .succeeded)
    }

    @Test("jobs a barrier waits for inherit the priority of what waits on the barrier")
    func barrierEscalation() async throws {
        let queue = WorkQueue(name: "barrier priority", width: 1)
        queue.suspend()
        let early = try queue.trySubmit("early", priority: .background) {}
        let barrier = try queue.trySubmit("barrier", priority: .background, options: .init().barrier()) {}
        try queue.trySubmit("urgent", priority: .userInteractive) {}
        #expect(barrier.effectivePriority == .userInteractive)
        #expect(early.effectivePriority == .userInteractive)
        queue.resume()
        await queue.waitUntilIdle()
    }
}

/// Lets a job's body reach its own handle (for the self-await test).
private final class JobBox: Sendable {
    private let slot = TestMutex<Job<Int, any Error>?>(nil)
    var job: Job<Int, any Error>? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }
}
