import Switchyard
import SwitchyardTesting
import Testing

@Suite("Snapshots with limits, recent failures, cancelling from a snapshot")
struct LimitedSnapshotTests {
    struct Failure: Error, CustomStringConvertible {
        let number: Int
        var description: String { "failure \(number)" }
    }

    @Test("a limited snapshot lists running jobs in start order, waiting ones from the offset; counts cover all")
    func limits() async throws {
        let queue = WorkQueue(name: "limited", width: 2)
        let gate = AsyncGate()
        let started = Arrivals()
        // Ten held jobs first, then two that run: the running ones sit behind the waiting ones in the queue.
        var held: [Job<Void, Never>] = []
        for index in 0..<10 {
            held.append(try queue.trySubmit("held \(index)", options: JobOptions(isHeld: true)) {})
        }
        var running: [Job<Void, Never>] = []
        for index in 0..<2 {
            running.append(
                try queue.trySubmit("running \(index)") {
                    started.arrive()
                    await gate.wait()
                })
        }
        await started.wait(for: 2)
        let first = queue.snapshot(runningLimit: 1, waitingLimit: 3)
        #expect(first.jobs.map(\.name) == ["running 0", "held 0", "held 1", "held 2"])
        #expect(first.counts.running == 2 && first.counts.pending == 10)
        let page = queue.snapshot(runningLimit: 0, waitingLimit: 4, waitingOffset: 8)
        #expect(page.jobs.map(\.name) == ["held 8", "held 9"])
        let none = queue.snapshot(runningLimit: 0, waitingLimit: 0)
        #expect(none.jobs.isEmpty && none.counts.submitted == 12)
        #expect(queue.snapshot(runningLimit: 5, waitingLimit: 0).jobs.map(\.name) == ["running 0", "running 1"])
        gate.open()
        for job in running { _ = await job.result }
        for job in held { job.cancel() }
        await queue.waitUntilIdle()
        #expect(queue.snapshot(runningLimit: 10, waitingLimit: 10).jobs.isEmpty)
    }

    @Test("a retried job leaves the running list between attempts and comes back on the next")
    func retriesLeaveTheRunningList() async throws {
        let clock = ManualClock()
        let queue = WorkQueue(name: "retrying", width: 1)
        let attempts = Arrivals()
        let job = try queue.trySubmit(
            "flaky", options: JobOptions().retrying(.constant(maximumAttempts: 2, delay: .seconds(1)), clock: clock)
        ) { () async throws -> Void in
            attempts.arrive()
            throw Failure(number: 1)
        }
        await attempts.wait(for: 1)
        try await clock.waitForSleepers(count: 1)
        let between = queue.snapshot(runningLimit: 5, waitingLimit: 5)
        #expect(between.jobs.map(\.state) == [.waiting])
        clock.advance(by: .seconds(1))
        await #expect(throws: (any Error).self) { try await job.value }
        #expect(queue.recentFailures.map(\.attempts) == [2])
    }

    @Test("recent failures: newest first, at most the limit, with the job's error and state")
    func recentFailures() async throws {
        let queue = WorkQueue(name: "failing", width: 4)
        let count = WorkQueue.recentFailureLimit + 3
        for number in 0..<count {
            let job = try queue.trySubmit("job \(number)") { () async throws -> Void in throw Failure(number: number) }
            _ = await job.result
        }
        let failures = queue.recentFailures
        #expect(failures.count == WorkQueue.recentFailureLimit)
        #expect(failures.first?.name == "job \(count - 1)")
        #expect(failures.last?.name == "job 3")
        #expect(failures.allSatisfy { $0.state == .failed && $0.attempts == 1 })
        #expect(String(describing: failures[0].error).contains("failure \(count - 1)"))
        #expect(queue.snapshot().recentFailures.map(\.identifier) == failures.map(\.identifier))
    }

    @Test("a job failed by its dependency is recorded as dependencyFailed")
    func dependencyFailures() async throws {
        let queue = WorkQueue(name: "cascade", width: 1)
        let parent = try queue.trySubmit("parent") { () async throws -> Void in throw Failure(number: 7) }
        let child = try queue.trySubmit(
            "child", options: JobOptions(dependencies: [parent.dependency(policy: .propagateFailure)])
        ) {}
        _ = await child.result
        let failures = queue.recentFailures
        #expect(failures.map(\.name) == ["child", "parent"])
        #expect(failures.map(\.state) == [.dependencyFailed, .failed])
    }

    @Test("cancelling through a snapshot cancels the job; after it finished it does nothing")
    func cancelThroughSnapshot() async throws {
        let queue = WorkQueue(name: "cancel", width: 1)
        let gate = AsyncGate()
        let started = Arrivals()
        let running = try queue.trySubmit("running") {
            started.arrive()
            await gate.wait()
            try Task.checkCancellation()
        }
        let waiting = try queue.trySubmit("waiting") {}
        await started.wait(for: 1)
        let snapshot = queue.snapshot(runningLimit: 10, waitingLimit: 10)
        for job in snapshot.jobs { job.cancel() }
        gate.open()
        guard case .failure(.cancelled) = await running.result else {
            Issue.record("the running job was not cancelled")
            return
        }
        guard case .failure(.cancelled) = await waiting.result else {
            Issue.record("the waiting job was not cancelled")
            return
        }
        for job in snapshot.jobs { job.cancel() }  // finished: no effect
        #expect(queue.counts.cancelled == 2)
    }
}
