import Foundation
import SwitchyardTesting
import Synchronization
import Testing

@testable import Switchyard

@Suite("BlockingExecutor", .timeLimit(.minutes(1)))
struct BlockingExecutorTests {
    /// The name of the calling OS thread, as the kernel shows it.

    @Test("blocking work on it does not stall unrelated async work")
    func blockingDoesNotStallTheCooperativePool() async throws {
        // More blocked jobs than the cooperative pool has threads: on the pool they would stall everything.
        let blockedCount = 2 * ProcessInfo.processInfo.activeProcessorCount + 2
        let executor = BlockingExecutor(name: "test-blk", maximumThreads: blockedCount)
        let gate = ThreadGate(waiters: blockedCount)
        let allBlocked = CallbackExpectation("all blocking jobs are blocked", expectedCount: .exactly(blockedCount))
        let jobs = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<blockedCount {
                    group.addTask {
                        try await executor.run {
                            allBlocked.fulfill()
                            gate.wait()  // a genuinely blocking call
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        await allBlocked.fulfillment(within: .seconds(30))
        // Unrelated async work still runs to completion while every blocking job is blocked.
        let sum = await withTaskGroup(of: Int.self) { group in
            for index in 1...1_000 { group.addTask { index } }
            return await group.reduce(0, +)
        }
        #expect(sum == 500_500)
        #expect(executor.statistics.busy == blockedCount)
        gate.open()
        try await jobs.value
    }

    @Test("when all threads are busy, work waits in FIFO order and no extra thread starts")
    func boundedThreadsAndFIFO() async throws {
        let executor = BlockingExecutor(name: "test-fifo", maximumThreads: 1)
        let gate = ThreadGate()
        let blocked = CallbackExpectation("first job blocked")
        let order = Isolated([Int](), label: "start order")
        let first = Task {
            try await executor.run {
                blocked.fulfill()
                gate.wait()
            }
        }
        await blocked.fulfillment(within: .seconds(30))
        let finished = CallbackExpectation("queued jobs ran", expectedCount: .exactly(5))
        for index in 0..<5 {
            executor.execute {
                order.withValueBlocking { $0.append(index) }
                finished.fulfill()
            }
        }
        let stats = executor.statistics
        #expect(stats.threads == 1 && stats.busy == 1 && stats.queued == 5, "\(stats)")
        gate.open()
        try await first.value
        await finished.fulfillment(within: .seconds(30))
        #expect(await order.read { $0 } == [0, 1, 2, 3, 4])
        #expect(executor.statistics.peakThreads == 1)
    }

    #if SWITCHYARD_TEST_HOOKS  // uses a test hook of the library (debug builds only)
        @Test("a refused thread start leaves its work queued for the threads there are; a thread that frees up runs it")
        func refusedThreadStart() async throws {
            let executor = BlockingExecutor(name: "test-refused", maximumThreads: 4)
            let gate = ThreadGate()
            let blocked = CallbackExpectation("first job blocked")
            let first = Task {
                try await executor.run {
                    blocked.fulfill()
                    gate.wait()
                }
            }
            await blocked.fulfillment(within: .seconds(30))
            executor.refuseThreadStarts(1)
            let ran = CallbackExpectation("queued job ran")
            executor.execute { ran.fulfill() }  // needs a second thread, whose start is refused
            let stats = executor.statistics
            #expect(stats.threads == 1 && stats.busy == 1 && stats.queued == 1, "nothing lost, nothing run: \(stats)")
            gate.open()
            try await first.value
            await ran.fulfillment(within: .seconds(30))
            #expect(executor.statistics.completed == 2)
            // Starts are no longer refused: work that needs a second thread gets one again.
            let secondGate = ThreadGate()
            let secondBlocked = CallbackExpectation("blocker running")
            let blocker = Task {
                try await executor.run {
                    secondBlocked.fulfill()
                    secondGate.wait()
                }
            }
            await secondBlocked.fulfillment(within: .seconds(30))
            #expect(try await executor.run { 5 } == 5)
            #expect(executor.statistics.peakThreads >= 2)
            secondGate.open()
            try await blocker.value
        }
    #endif

    @Test("a long executor name is cut before the thread number, so the number shows (Linux keeps 15 bytes)")
    func longNamesKeepTheNumber() async throws {
        let executor = BlockingExecutor(name: "a-very-long-executor-name", maximumThreads: 1)
        let name = try await executor.run { currentThreadName() }
        #if os(Linux)
            #expect(name == "a-very-long-e-1")
            // Cut before a character, never inside one: "é" is two bytes, and only one would fit.
            let accented = BlockingExecutor(name: "abcdefghijklé-x", maximumThreads: 1)
            #expect(try await accented.run { currentThreadName() } == "abcdefghijkl-1")
        #else
            #expect(name == "a-very-long-executor-name-1")
        #endif
    }

    @Test("work goes to the thread that went idle last, so the others stay idle and can time out")
    func lastIdleThreadTakesWork() async throws {
        let executor = BlockingExecutor(name: "test-lifo", maximumThreads: 3, idleTimeout: .seconds(3_600))
        let gates = (0..<3).map { _ in ThreadGate() }
        let running = Arrivals()
        let runs = (0..<3).map { index in
            Task {
                try await executor.run { () -> String in
                    running.arrive()
                    gates[index].wait()
                    return currentThreadName()
                }
            }
        }
        await running.wait(for: 3)  // three threads, each holding one run
        var names: [String] = []
        for index in [1, 0, 2] {  // they go idle in this order
            gates[index].open()
            names.append(try await runs[index].value)
            while executor.waitingThreadCount < names.count { await Task.yield() }
        }
        #expect(Set(names).count == 3)
        for _ in 0..<5 {
            #expect(try await executor.run { currentThreadName() } == names.last, "the last one idle")
        }
    }

    @Test("run executes on the executor's named threads; so does code under withTaskExecutorPreference")
    func runsOnNamedThreads() async throws {
        let executor = BlockingExecutor(name: "test-name", maximumThreads: 2)
        let name = try await executor.run { currentThreadName() }
        #expect(name.hasPrefix("test-name-"))
        let preferred = await withTaskExecutorPreference(executor) { await Self.nonisolatedThreadName() }
        #expect(preferred.hasPrefix("test-name-"))
    }

    private nonisolated static func nonisolatedThreadName() async -> String { currentThreadName() }

    @Test("a queued run is cancelled at once and its body never runs")
    func cancellationWhileQueued() async throws {
        let executor = BlockingExecutor(name: "test-cancel", maximumThreads: 1)
        let gate = ThreadGate()
        let blocked = CallbackExpectation("blocker running")
        let bodyRan = SharedFlag()
        let blocker = Task {
            try await executor.run {
                blocked.fulfill()
                gate.wait()
            }
        }
        await blocked.fulfillment(within: .seconds(30))
        let queued = Task { try await executor.run { bodyRan.set(true) } }
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        gate.open()
        try await blocker.value
        // The cancelled run left the queue: run something after it and check that nothing else ran.
        try await executor.run {}
        #expect(bodyRan.value == false)
        #expect(executor.statistics.completed == 2, "the blocker and the last run; the cancelled one is not counted")
    }

    @Test("work submitted one after another reuses the same thread")
    func sequentialRunsReuseOneThread() async throws {
        let executor = BlockingExecutor(name: "test-reuse", maximumThreads: 8)
        for index in 0..<50 {
            let echoed = try await executor.run { index }
            #expect(echoed == index)
        }
        // The worker counts as available before it wakes the caller, so no second thread is ever needed.
        #expect(executor.statistics.peakThreads == 1)
    }

    @Test(
        "an idle timeout of zero or less makes idle threads exit at once (a negative one used to spin)",
        arguments: [Duration.zero, .milliseconds(-500)])
    func nonPositiveIdleTimeout(timeout: Duration) async throws {
        let executor = BlockingExecutor(name: "test-idle", maximumThreads: 2, idleTimeout: timeout)
        #expect(try await executor.run { 7 } == 7)
        // The thread exits right after its work; wait for that (bounded), without sleeping.
        let deadline = ContinuousClock.now + .seconds(30)
        while executor.statistics.threads > 0 && ContinuousClock.now < deadline { await Task.yield() }
        #expect(executor.statistics.threads == 0)
        #expect(try await executor.run { 8 } == 8)  // and a new one starts for new work
    }

    @Test("errors thrown by the body reach the caller")
    func errorsPropagate() async {
        struct Failure: Error {}
        await #expect(throws: Failure.self) {
            try await BlockingExecutor.shared.run { throw Failure() }
        }
    }

    @Test("work whose captured object's deinit submits more work to the same executor does not deadlock")
    func deinitOfCapturedObjectSubmits() async throws {
        let executor = BlockingExecutor(name: "deinit", maximumThreads: 1)
        let submitted = CallbackExpectation("the deinit's work ran")
        final class SubmitsOnDeinit: Sendable {
            let executor: BlockingExecutor
            let submitted: CallbackExpectation
            init(_ executor: BlockingExecutor, _ submitted: CallbackExpectation) {
                self.executor = executor
                self.submitted = submitted
            }
            deinit { executor.execute { [submitted] in submitted.fulfill() } }
        }
        // The closure holds the only reference: it is released on the worker thread once the closure has run.
        executor.execute { [holder = SubmitsOnDeinit(executor, submitted)] in _ = holder }
        await submitted.fulfillment(within: .seconds(10))
        await executor.shutdown()
    }
}
