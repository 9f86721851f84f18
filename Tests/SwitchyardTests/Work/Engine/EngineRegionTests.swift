import Foundation
import SwitchyardTesting
import Testing

@testable import Switchyard

/// Whether two queues are guarded by one lock now.
private func shareLock(_ first: WorkQueue, _ second: WorkQueue) -> Bool {
    first.region.current.toOpaque() == second.region.current.toOpaque()
}

/// The work engine's lock regions: queues that share no limit domain, dependency edge or group never take the
/// same lock; whatever connects them unites their regions, and everything stays exact across the merge.
@Suite("Engine regions: independent queues never share a lock", .timeLimit(.minutes(1)))
struct EngineRegionTests {
    @Test("separate queues have separate locks; a shared domain, an edge, addDependency or a group unites them")
    func whatUnitesRegions() async throws {
        let first = WorkQueue(name: "first")
        let second = WorkQueue(name: "second")
        #expect(!shareLock(first, second))

        let domain = LimitDomain(name: "domain", width: 2)
        let left = WorkQueue(name: "left", limit: domain)
        let right = WorkQueue(name: "right", limit: domain)
        #expect(shareLock(left, right))
        #expect(!shareLock(left, first))

        // A wait from a job of one queue on a job of another does not unite them.
        let awaited = try first.trySubmit("awaited") { 1 }
        let waiting = try second.trySubmit("waiting") { try await awaited.value + 1 }
        #expect(try await waiting.value == 2)
        #expect(!shareLock(first, second))

        // A dependency edge does.
        let upstream = try first.trySubmit("upstream") { 1 }
        let downstream = try second.trySubmit("downstream", options: JobOptions(dependencies: [upstream.dependency()]))
        { 2 }
        #expect(try await downstream.value == 2)
        #expect(shareLock(first, second))

        // So does addDependency.
        let third = WorkQueue(name: "third")
        let held = try third.trySubmit("held", options: JobOptions(isHeld: true)) { 3 }
        try held.addDependency(left.trySubmit("on left") { 4 })
        held.release()
        #expect(try await held.value == 3)
        #expect(shareLock(third, left) && shareLock(third, right))

        // And a group spanning two queues.
        let fourth = WorkQueue(name: "fourth")
        let fifth = WorkQueue(name: "fifth")
        let group = JobGroup(name: "group")
        _ = try fourth.trySubmit("in group", options: JobOptions(group: group)) {}
        #expect(!shareLock(fourth, fifth))
        _ = try fifth.trySubmit("in group too", options: JobOptions(group: group)) {}
        await group.wait()
        #expect(shareLock(fourth, fifth))
    }

    @Test("a queue's jobs, dependencies, snapshots and progress go on while another queue's lock is held")
    func independentQueueRunsWhileAnotherIsLocked() async throws {
        let locked = WorkQueue(name: "locked")
        let free = WorkQueue(name: "free", width: 2)
        // A plain thread holds `locked`'s lock until the gate opens. Were any of the work below to need that lock,
        // it would hang and the suite's time limit would fail the test.
        let holder = await holdOnThread { stayInside in Engine.perform(in: locked.region) { _ in stayInside() } }
        // A plain submission to the locked queue does not wait for its lock: the holder admits it.
        let parked = try locked.trySubmit("admitted by the holder") { 7 }

        let first = try free.trySubmit("first") { 1 }
        let second = try free.trySubmit("second", options: JobOptions(dependencies: [first.dependency()])) { 2 }
        let group = JobGroup(name: "free group")
        let grouped = try free.trySubmit("grouped", options: JobOptions(group: group)) { 3 }
        let progress = free.progressUpdates(interval: .zero, clock: ManualClock())
        #expect(try await first.value + second.value + grouped.value == 6)
        await group.wait()
        await free.waitUntilIdle()
        #expect(free.snapshot().counts.succeeded == 3)
        var iterator = progress.makeAsyncIterator()
        #expect(await iterator.next() != nil)

        holder.open()
        #expect(try await parked.value == 7)
    }

    @Test("parked workers do not keep a region whose queues are gone alive")
    func regionEndsWithItsQueues() async throws {
        weak var region: EngineRegion?
        weak var weakQueue: WorkQueue?
        do {
            let queue = WorkQueue(name: "short-lived", width: 2)
            weakQueue = queue
            region = queue.region
            for index in 0..<20 { _ = try queue.trySubmit("job \(index)") {} }
            await queue.waitUntilIdle()
        }
        // The last job's worker lets go of it (and so of the queue) as it parks, right after the queue went idle.
        var turns = 0
        while region != nil && turns < 10_000 {
            await Task.yield()
            turns += 1
        }
        #expect(weakQueue == nil, "the queue outlived its jobs")
        #expect(region == nil, "the region outlived its only queue")
    }

    @Test("jobs submitted from several threads while edges and groups unite their queues run exactly once")
    func unitingWhileSubmitting() async throws {
        var random = SeededRandomNumberGenerator.forTest("EngineRegionTests.unitingWhileSubmitting")
        let threads = 3
        let perThread = 2_000
        let queues = (0..<6).map { WorkQueue(name: "queue \($0)", width: 1 + $0 % 3) }
        let groups = (0..<3).map { JobGroup(name: "group \($0)") }
        let runs = TestMutex([Int](repeating: 0, count: threads * perThread))
        let seeds = (0..<threads).map { _ in random.next() }
        let submitted = TestMutex([(index: Int, job: Job<Void, Never>, cancelled: Bool)]())
        await onThreads(threads) { thread in
            var random = SeededRandomNumberGenerator(seed: seeds[thread])
            var mine: [(index: Int, job: Job<Void, Never>, cancelled: Bool)] = []
            for offset in 0..<perThread {
                let index = thread * perThread + offset
                let queue = queues[Int.random(in: 0..<queues.count, using: &random)]
                var options = JobOptions()
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<3 where !mine.isEmpty:
                    options.dependencies = [mine.randomElement(using: &random)!.job.dependency(policy: .runAnyway)]
                case 3..<5:
                    options.group = groups.randomElement(using: &random)!
                case 5..<7 where !mine.isEmpty:  // three regions at once: the queue's, the edge's, the group's
                    options.dependencies = [mine.randomElement(using: &random)!.job.dependency(policy: .runAnyway)]
                    options.group = groups.randomElement(using: &random)!
                default:
                    break
                }
                let job = try! queue.trySubmit("job \(index)", options: options) {
                    runs.withLock { $0[index] += 1 }
                }
                let cancel = Int.random(in: 0..<20, using: &random) == 0
                if cancel { job.cancel() }
                mine.append((index, job, cancel))
            }
            submitted.withLock { $0 += mine }
        }
        for (index, job, cancelled) in submitted.withLock({ $0 }) {
            let result = await job.result
            let count = runs.withLock { $0[index] }
            switch result {
            case .success: #expect(count == 1, "job \(index) succeeded after running \(count) times")
            case .failure(.cancelled): #expect(cancelled && count == 0, "job \(index): cancelled, ran \(count) times")
            case .failure(let error): Issue.record("job \(index) failed: \(error)")
            }
        }
        for queue in queues {
            await queue.waitUntilIdle()
            let counts = queue.counts
            #expect(counts.pending == 0 && counts.running == 0)
        }
        for group in groups { #expect(group.count == 0) }
    }
}
