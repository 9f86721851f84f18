import SwitchyardTesting
import Testing

@testable import Switchyard

private struct LoadFailed: Error {}

@Suite("Coalescer: one job per key, reference-counted waiters")
struct CoalescerTests {
    @Test("concurrent requests for one key share one load")
    func sharedLoad() async throws {
        let queue = WorkQueue(name: "loads", width: 4)
        let coalescer = Coalescer<String, Int>(queue: queue)
        let loads = SharedCounter()
        let gate = AsyncGate()
        let callers = (0..<5).map { _ in
            Task {
                try await coalescer.value(for: "a") { _ in
                    loads.add()
                    await gate.wait()
                    return 42
                }
            }
        }
        while coalescer.inFlightCount == 0 || queue.counts.running == 0 { await Task.yield() }
        gate.open()
        for caller in callers { #expect(try await caller.value == 42) }
        #expect(loads.value == 1)
        #expect(coalescer.inFlightCount == 0)
    }

    @Test("one waiter leaving does not cancel the job; the last one leaving does")
    func referenceCounting() async throws {
        let queue = WorkQueue(name: "refcount", width: 1)
        let coalescer = Coalescer<Int, Int>(queue: queue)
        let started = Arrivals()
        let cancelled = SharedFlag()
        let load: @Sendable (Int) async throws -> Int = { key in
            started.arrive()
            do {
                try await Task.sleep(for: .seconds(600))
            } catch {
                cancelled.set(true)
                throw error
            }
            return key
        }
        let first = Task { try await coalescer.value(for: 1, load: load) }
        let second = Task { try await coalescer.value(for: 1, load: load) }
        await started.wait(for: 1)
        first.cancel()
        await #expect(throws: JobError<any Error>.self) { try await first.value }
        #expect(!cancelled.value)
        #expect(coalescer.inFlightCount == 1)
        second.cancel()
        await #expect(throws: JobError<any Error>.self) { try await second.value }
        await queue.waitUntilIdle()
        #expect(cancelled.value)
        #expect(coalescer.inFlightCount == 0)
    }

    @Test("failures are not cached: the next request loads again")
    func failuresNotCached() async throws {
        let queue = WorkQueue(name: "failures", width: 1)
        let coalescer = Coalescer<String, Int>(queue: queue)
        let loads = SharedCounter()
        await #expect(throws: JobError<any Error>.self) {
            try await coalescer.value(for: "k") { _ in
                loads.add()
                throw LoadFailed()
            }
        }
        await queue.waitUntilIdle()
        let value = try await coalescer.value(for: "k") { _ in
            loads.add()
            return 7
        }
        #expect(value == 7)
        #expect(loads.value == 2)
    }

    @Test("the shared job runs at the highest priority among its waiters")
    func waiterPriority() async throws {
        let queue = WorkQueue(name: "priority", width: 1)
        let coalescer = Coalescer<Int, Int>(queue: queue)
        let gate = AsyncGate()
        let blocker = try queue.trySubmit("blocker") { await gate.wait() }
        let low = Task { try await coalescer.value(for: 1, priority: .background) { $0 } }
        // Not `counts.ready`: the blocker itself may still be ready (admitted but not yet started) when counted.
        while coalescer.waiterCount(for: 1) == 0 { await Task.yield() }
        let high = Task { try await coalescer.value(for: 1, priority: .userInteractive) { $0 } }
        while queue.snapshot().jobs.first(where: { $0.name != "blocker" })?.effectivePriority != .userInteractive {
            await Task.yield()
        }
        let job = queue.snapshot().jobs.first { $0.name != "blocker" }
        #expect(job?.requestedPriority == .background)
        #expect(job?.effectivePriority == .userInteractive)
        gate.open()
        try await blocker.value
        #expect(try await low.value == 1)
        #expect(try await high.value == 1)
    }

    @Test("the first caller's priority leaves with it: the job falls back to the highest caller still waiting")
    func firstCallerLeaves() async throws {
        let queue = WorkQueue(name: "first leaves", width: 1)
        let coalescer = Coalescer<Int, Int>(queue: queue)
        let gate = AsyncGate()
        let blocker = try queue.trySubmit("blocker") { await gate.wait() }
        let urgent = Task { try await coalescer.value(for: 1, priority: .userInteractive) { $0 } }
        while coalescer.waiterCount(for: 1) < 1 { await Task.yield() }
        let background = Task { try await coalescer.value(for: 1, priority: .background) { $0 } }
        while coalescer.waiterCount(for: 1) < 2 { await Task.yield() }
        var shared = queue.snapshot().jobs.first { $0.name != "blocker" }
        #expect(shared?.effectivePriority == .userInteractive)
        urgent.cancel()
        await #expect(throws: JobError<any Error>.self) { try await urgent.value }
        shared = queue.snapshot().jobs.first { $0.name != "blocker" }
        #expect(shared?.effectivePriority == .background, "no one urgent waits any more")
        gate.open()
        try await blocker.value
        #expect(try await background.value == 1)
    }

    @Test(
        "many waiters leave in random order: counts, priority and the job's fate stay right after each",
        arguments: [false, true])
    func randomLeaves(everyoneLeaves: Bool) async throws {
        var random = SeededRandomNumberGenerator.forTest("CoalescerTests.randomLeaves \(everyoneLeaves)")
        let queue = WorkQueue(name: "leaves", width: 1)
        let coalescer = Coalescer<Int, Int>(queue: queue)
        let gate = AsyncGate()
        // Keeps the shared job pending, so its effective priority shows in snapshots.
        let blocker = try queue.trySubmit("blocker") { await gate.wait() }
        let count = 300
        let levels = (0..<count).map { _ in Int.random(in: 0..<JobPriority.levelCount, using: &random) }
        let callers = levels.map { level in
            Task { try await coalescer.value(for: 1, priority: JobPriority(level: level)) { $0 * 2 } }
        }
        while coalescer.waiterCount(for: 1) < count { await Task.yield() }
        var remaining = Set(0..<count)
        let leaving = Array(0..<count).shuffled(using: &random)
            .prefix(everyoneLeaves ? count : Int.random(in: 1..<count, using: &random))
        for index in leaving {
            callers[index].cancel()
            await #expect(throws: JobError<any Error>.self) { try await callers[index].value }
            remaining.remove(index)
            #expect(coalescer.waiterCount(for: 1) == remaining.count)
            let shared = queue.snapshot().jobs.first { $0.name != "blocker" }
            if remaining.isEmpty {
                #expect(shared == nil, "the last waiter leaving cancels the job (a snapshot lists unfinished jobs)")
            } else if let shared {
                // The first caller's priority is the job's only while that caller waits: the highest waiting wins.
                #expect(shared.requestedPriority == .background)
                let expected = remaining.map { levels[$0] }.max()!
                #expect(shared.effectivePriority.level == expected, "after \(count - remaining.count) left")
            } else {
                Issue.record("the shared job is gone while \(remaining.count) wait")
            }
        }
        gate.open()
        try await blocker.value
        for index in remaining.sorted() { #expect(try await callers[index].value == 2) }
        await queue.waitUntilIdle()
        #expect(coalescer.inFlightCount == 0)
        print("CoalescerTests.randomLeaves: \(leaving.count) of \(count) waiters left")
    }
}
