import Foundation
import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

/// Counts how often each job ran and in what order jobs started.
private final class RunLedger: Sendable {
    private struct State {
        var runs: [Int]
        var order: [Int] = []
    }

    private let state: TestMutex<State>

    init(count: Int) { state = TestMutex(State(runs: Array(repeating: 0, count: count))) }

    func ran(_ index: Int) {
        state.withLock {
            $0.runs[index] += 1
            $0.order.append(index)
        }
    }
    var runs: [Int] { state.withLock { $0.runs } }
    var order: [Int] { state.withLock { $0.order } }
}

/// Runs `body(index)` on `count` new OS threads at once (not on the cooperative pool: the bodies never suspend and
/// may spin), and returns their results in index order once all have returned.
private func onThreads<Result: Sendable>(
    _ count: Int, _ body: @escaping @Sendable (Int) -> Result
) async -> [Result] {
    let results = TestMutex([Result?](repeating: nil, count: count))
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let remaining = TestMutex(count)
        for index in 0..<count {
            Thread.detachNewThread {
                let result = body(index)
                results.withLock { $0[index] = result }
                if remaining.withLock({
                    $0 -= 1
                    return $0 == 0
                }) {
                    continuation.resume()
                }
            }
        }
    }
    return results.withLock { $0.map { $0! } }
}

/// Jobs per test: 20,000, or a tenth of `SWITCHYARD_STRESS_JOBS` when set. CI sets it for the run where every
/// engine transition re-checks all unfinished jobs: these tests are quadratic there, and their threads wait for the
/// engine lock alongside the workers on the cooperative pool, so at the size the other stress tests use they held
/// the pool long enough for the tests running alongside to time out.
private let jobBudget =
    ProcessInfo.processInfo.environment["SWITCHYARD_STRESS_JOBS"].flatMap(Int.init).map { max(100, $0 / 10) }
    ?? 20_000

/// Whether the threads of ``keepEngineLockBusy(_:while:)`` spin: only while the submitting thread submits. While
/// it waits for its jobs to run, they wait too, leaving the cores to the engine's workers and the tests alongside.
private final class SpinSwitch: Sendable {
    private static let spinning = 0
    private static let paused = 1
    private static let stopped = 2
    /// Changed only with `condition` locked, so a thread that checks it there and waits cannot miss a change.
    private let state = Atomic(spinning)
    private let condition = NSCondition()

    func pause() { set(Self.paused) }
    func resume() { set(Self.spinning) }
    func stop() { set(Self.stopped) }

    private func set(_ new: Int) {
        condition.lock()
        state.store(new, ordering: .releasing)
        condition.broadcast()
        condition.unlock()
    }

    /// Whether to spin on: waits out a pause, then returns `true` unless the switch was stopped.
    func shouldSpin() -> Bool {
        let current = state.load(ordering: .acquiring)
        if current != Self.paused { return current == Self.spinning }
        condition.lock()
        defer { condition.unlock() }
        while state.load(ordering: .acquiring) == Self.paused { condition.wait() }
        return state.load(ordering: .acquiring) == Self.spinning
    }
}

/// Takes and releases the engine lock over and over (each `counts` read is one hold), so that submissions on other
/// threads often find it busy, while `spin` is on and until `jobBudget` holds were made. Between holds it waits
/// twice as long as the hold took, so two such threads leave the lock free a third of the time: the engine's
/// workers wait for it on cooperative-pool threads, and a lock held without pause (each hold visits every
/// unfinished job when internal checks are on) stalls the pool and every test running alongside. Creates no jobs,
/// for the same reason.
private func keepEngineLockBusy(_ queue: WorkQueue, while spin: SpinSwitch) {
    let clock = ContinuousClock()
    var holds = 0
    while holds < jobBudget && spin.shouldSpin() {
        let start = clock.now
        _ = queue.counts
        holds += 1
        let pauseUntil = start + (clock.now - start) * 3
        while clock.now < pauseUntil {}
    }
}

/// The engine's intake: plain submissions that find the engine lock busy are admitted by its holder. These tests
/// keep the lock busy from several threads so that many submissions take that path, and check that none is lost,
/// run twice, reordered, or invisible to what the submitting thread does next.
@Suite("Intake stress: plain submissions while the engine lock is busy", .timeLimit(.minutes(3)))
struct IntakeStressTests {
    @Test("jobs submitted from many threads at once run exactly once; one cancelled right after submission never runs")
    func concurrentSubmissions() async throws {
        var random = SeededRandomNumberGenerator.forTest("IntakeStressTests.concurrentSubmissions")
        let threads = 4
        let perThread = jobBudget / threads
        let queues = (0..<3).map { WorkQueue(name: "intake \($0)", width: Int.random(in: 1...3, using: &random)) }
        let ledger = RunLedger(count: threads * perThread)
        let seeds = (0..<threads).map { _ in random.next() }
        let submitted = await onThreads(threads) { thread -> [(index: Int, job: Job<Void, Never>, cancelled: Bool)] in
            var random = SeededRandomNumberGenerator(seed: seeds[thread])
            var jobs: [(index: Int, job: Job<Void, Never>, cancelled: Bool)] = []
            for offset in 0..<perThread {
                let index = thread * perThread + offset
                let queue = queues[Int.random(in: 0..<queues.count, using: &random)]
                var options = JobOptions()
                if let earlier = jobs.last, Int.random(in: 0..<20, using: &random) == 0 {
                    // A dependency takes the locked path: it must still be admitted after the plain jobs before it.
                    options.dependencies = [Dependency(earlier.job, policy: .runAnyway)]
                }
                let job = try! queue.trySubmit("job \(index)", options: options) { ledger.ran(index) }
                let cancel = Int.random(in: 0..<10, using: &random) == 0
                if cancel { job.cancel() }
                jobs.append((index, job, cancel))
            }
            return jobs
        }
        for (index, job, cancelled) in submitted.joined() {
            let result = await job.result
            let runs = ledger.runs[index]
            switch result {
            case .success:
                #expect(runs == 1, "job \(index) succeeded after running \(runs) times")
            case .failure(.cancelled):
                #expect(cancelled, "job \(index) was cancelled without a cancel")
                #expect(runs == 0, "job \(index) ran \(runs) times but reports cancelled")
            case .failure(let error):
                Issue.record("job \(index) failed: \(error)")
            }
        }
        for queue in queues {
            await queue.waitUntilIdle()
            #expect(queue.counts.pending == 0 && queue.counts.running == 0)
        }
    }

    @Test("one thread's jobs start in submission order on a width-1 queue, whichever path each submission takes")
    func submissionOrder() async throws {
        var random = SeededRandomNumberGenerator.forTest("IntakeStressTests.submissionOrder")
        let count = jobBudget
        // Queues under one domain share a lock (see `EngineRegion`): holds on `busy` keep `queue`'s lock busy.
        let shared = LimitDomain(name: "shared", width: 64)
        let queue = WorkQueue(name: "ordered", width: 1, limit: shared)
        let busy = WorkQueue(name: "busy", limit: shared)
        let ledger = RunLedger(count: count)
        let seed = random.next()
        // Thread 0 submits the ordered jobs; threads 1 and 2 keep the engine lock busy meanwhile.
        let spin = SpinSwitch()
        let handles = await onThreads(3) { thread -> [Job<Void, Never>] in
            if thread > 0 {
                keepEngineLockBusy(busy, while: spin)
                return []
            }
            var random = SeededRandomNumberGenerator(seed: seed)
            var jobs: [Job<Void, Never>] = []
            for index in 0..<count {
                jobs.append(try! queue.trySubmit("ordered \(index)") { ledger.ran(index) })
                if Int.random(in: 0..<100, using: &random) == 0 { _ = queue.counts }  // a locked hold in between
            }
            spin.stop()
            return jobs
        }
        for job in handles.joined() { _ = await job.result }
        let order = ledger.order
        #expect(order.count == count)
        let firstOutOfOrder = zip(order, order.dropFirst()).first { $0 >= $1 }
        #expect(
            firstOutOfOrder == nil,
            "job \(firstOutOfOrder.map { "\($0.1)" } ?? "") started after \(firstOutOfOrder.map { "\($0.0)" } ?? "")")
    }

    @Test("delayed jobs submitted from many threads at once all wait for their delay, then run exactly once")
    func delayedSubmissions() async throws {
        let threads = 3
        let perThread = jobBudget / 10
        let clock = ManualClock()
        let queue = WorkQueue(name: "delayed", width: 2)
        let ledger = RunLedger(count: threads * perThread)
        let submitted = await onThreads(threads) { thread -> [Job<Void, Never>] in
            (0..<perThread).map { offset in
                let index = thread * perThread + offset
                let options = JobOptions().delayed(by: .seconds(1), clock: clock)
                return try! queue.trySubmit("delayed \(index)", options: options) { ledger.ran(index) }
            }
        }
        try await clock.waitForSleepers(count: threads * perThread)
        #expect(ledger.runs.allSatisfy { $0 == 0 }, "a delayed job ran before its delay")
        clock.advance(by: .seconds(1))
        for job in submitted.joined() { _ = await job.result }
        #expect(ledger.runs.allSatisfy { $0 == 1 })
    }

    @Test("cancelAll right after a burst of submissions cancels every one of them (none is still in the intake)")
    func cancelAllSeesEverySubmission() async throws {
        let rounds = jobBudget / 100
        let shared = LimitDomain(name: "shared", width: 64)
        let busy = WorkQueue(name: "busy", limit: shared)
        let spin = SpinSwitch()
        let ledger = RunLedger(count: rounds * 50)
        let results = await onThreads(3) { thread -> [Job<Void, Never>] in
            if thread > 0 {
                keepEngineLockBusy(busy, while: spin)
                return []
            }
            var jobs: [Job<Void, Never>] = []
            for round in 0..<rounds {
                let queue = WorkQueue(name: "round \(round)", width: 1, limit: shared)
                queue.suspend()
                for index in 0..<50 {
                    let slot = round * 50 + index
                    jobs.append(try! queue.trySubmit("job \(slot)") { ledger.ran(slot) })
                }
                queue.cancelAll()
                queue.resume()
            }
            spin.stop()
            return jobs
        }
        for job in results[0] {
            let result = await job.result
            guard case .failure(.cancelled) = result else {
                Issue.record("\(job.name) was not cancelled: \(result)")
                continue
            }
        }
        #expect(ledger.runs.allSatisfy { $0 == 0 })
    }

    @Test("jobs joining a group while the engine lock is busy are members at once; the group's cancel reaches them all")
    func groupMembersThroughTheIntake() async throws {
        var random = SeededRandomNumberGenerator.forTest("IntakeStressTests.groupMembersThroughTheIntake")
        let rounds = jobBudget / 100
        let shared = LimitDomain(name: "shared", width: 64)
        let busy = WorkQueue(name: "busy", limit: shared)
        let spin = SpinSwitch()
        let ledger = RunLedger(count: rounds * 50)
        let miscounts = TestMutex<[String]>([])
        let seed = random.next()
        // Even rounds: the queue is suspended and the group cancelled after its 49th job (the 50th joins after the
        // cancel). Odd rounds: the queue runs and the thread waits for the group.
        let results = await onThreads(3) { thread -> [(slot: Int, job: Job<Void, Never>)] in
            if thread > 0 {
                keepEngineLockBusy(busy, while: spin)
                return []
            }
            var random = SeededRandomNumberGenerator(seed: seed)
            var jobs: [(slot: Int, job: Job<Void, Never>)] = []
            for round in 0..<rounds {
                let queue = WorkQueue(name: "round \(round)", width: 1, limit: shared)
                let cancels = round % 2 == 0
                if cancels { queue.suspend() }
                let group = JobGroup(name: "group \(round)")
                for index in 0..<50 {
                    let slot = round * 50 + index
                    if cancels && index == 49 { group.cancel() }
                    let options = JobOptions(group: group)
                    jobs.append((slot, try! queue.trySubmit("job \(slot)", options: options) { ledger.ran(slot) }))
                    let checksCount = cancels && index < 49 && Int.random(in: 0..<10, using: &random) == 0
                    if checksCount && group.count != index + 1 {
                        miscounts.withLock { $0.append("round \(round): \(group.count) members after \(index + 1)") }
                    }
                }
                if cancels {
                    queue.resume()
                    continue
                }
                spin.pause()
                if !group.waitBlocking() || ledger.runs[(round * 50)..<(round * 50 + 50)].contains(0) {
                    miscounts.withLock { $0.append("round \(round): the group emptied before its jobs ran") }
                }
                spin.resume()
            }
            spin.stop()
            return jobs
        }
        #expect(miscounts.withLock { $0 }.isEmpty, "\(miscounts.withLock { $0 }.prefix(3))")
        let runs = ledger.runs
        for (slot, job) in results[0] {
            let result = await job.result
            if (slot / 50) % 2 == 0 {
                #expect(runs[slot] == 0, "job \(slot) of a cancelled group ran")
                guard case .failure(.cancelled) = result else {
                    Issue.record("job \(slot) of a cancelled group ended \(result)")
                    continue
                }
            } else {
                #expect(runs[slot] == 1, "job \(slot) ran \(runs[slot]) times")
            }
        }
    }
}
