import Foundation
import SwitchyardTesting
import Synchronization
import Testing

@testable import Switchyard

/// Waiting work starts by priority (FIFO within one), follows escalation, and leaves the queue when cancelled.
@Suite("BlockingExecutor: priorities", .timeLimit(.minutes(1)))
struct BlockingExecutorPriorityTests {
    /// An executor of one thread, held by a blocking body until the returned gate opens.
    private func heldExecutor(_ name: String) async -> (BlockingExecutor, ThreadGate, Task<Void, any Error>) {
        let executor = BlockingExecutor(name: name, maximumThreads: 1)
        let gate = ThreadGate()
        let blocked = CallbackExpectation("the only thread is busy")
        let holder = Task {
            try await executor.run {
                blocked.fulfill()
                gate.wait()
            }
        }
        await blocked.fulfillment(within: .seconds(30))
        return (executor, gate, holder)
    }

    private func waitUntilQueued(_ executor: BlockingExecutor, _ count: Int) async {
        #expect(await arrange("\(count) queued") { executor.statistics.queued == count })
    }

    @Test("waiting work starts highest priority first, FIFO within one priority")
    func priorityOrder() async throws {
        let (executor, gate, holder) = await heldExecutor("test-prio")
        let order = Log<String>()
        let ran = CallbackExpectation("all ran", expectedCount: .exactly(5))
        var runs: [Task<Void, any Error>] = []
        for (name, priority) in [
            ("bg1", TaskPriority.background), ("bg2", .background), ("high", .high),
            ("medium", .medium),
        ] {
            runs.append(
                Task {
                    try await executor.run(priority: priority) {
                        order.append(name)
                        ran.fulfill()
                    }
                })
            await waitUntilQueued(executor, runs.count)
        }
        executor.execute(priority: .utility) {
            order.append("utility")
            ran.fulfill()
        }
        await waitUntilQueued(executor, 5)
        gate.open()
        try await holder.value
        await ran.fulfillment(within: .seconds(30))
        for run in runs { try await run.value }
        #expect(order.all == ["high", "medium", "utility", "bg1", "bg2"])
    }

    @Test("an escalated run overtakes the background work queued before it")
    func escalationOvertakes() async throws {
        let (executor, gate, holder) = await heldExecutor("test-escal")
        let order = Log<String>()
        var background: [Task<Void, any Error>] = []
        for index in 0..<3 {
            background.append(
                Task(priority: .background) {
                    try await executor.run { order.append("background \(index)") }
                })
            await waitUntilQueued(executor, index + 1)
        }
        let escalated = Task(priority: .background) { try await executor.run { order.append("escalated") } }
        await waitUntilQueued(executor, 4)
        escalated.escalatePriority(to: .high)
        gate.open()
        try await holder.value
        try await escalated.value
        for task in background { try await task.value }
        #expect(order.all.first == "escalated", "\(order.all)")
    }

    @Test("a WorkQueue's blocking job escalated while its task waits for a thread overtakes background work")
    func escalatedBlockingJobOvertakes() async throws {
        let (executor, gate, holder) = await heldExecutor("test-job-escal")
        let queue = WorkQueue(name: "background", width: 4, blockingExecutor: executor)
        let order = Log<String>()
        var background: [Job<Void, Never>] = []
        for index in 0..<3 {
            background.append(
                try await queue.submitBlocking("background \(index)", priority: .background) {
                    order.append("background \(index)")
                })
            await waitUntilQueued(executor, index + 1)
        }
        let urgent = WorkQueue(name: "urgent", width: 1, blockingExecutor: executor)
        let escalated = try await urgent.submitBlocking("escalated", priority: .background) {
            order.append("escalated")
        }
        await waitUntilQueued(executor, 4)  // its worker's task waits behind the three at background priority
        escalated.priority = .userInitiated
        gate.open()
        try await holder.value
        try await escalated.value
        for job in background { try await job.value }
        #expect(order.all.first == "escalated", "\(order.all)")
    }

    @Test(
        "a blocking job escalated while its worker's task waits after yielding between jobs overtakes background work")
    func escalatedAfterYieldOvertakes() async throws {
        let executor = BlockingExecutor(name: "test-yield-escal", maximumThreads: 1)
        let queue = WorkQueue(name: "yielding", width: 1, blockingExecutor: executor)
        let order = Log<String>()
        let firstRunning = CallbackExpectation("the first job runs")
        let release = ThreadGate()
        let first = try await queue.submitBlocking("first", priority: .background) {
            firstRunning.fulfill()
            release.wait()
            // Past the worker's run quantum (1 ms), so it yields before taking its next job.
            let start = ContinuousClock.now
            while ContinuousClock.now - start < .milliseconds(2) {}
        }
        await firstRunning.fulfillment(within: .seconds(30))
        let second = try await queue.submitBlocking("second", priority: .background) { order.append("second") }
        let holderRunning = CallbackExpectation("the first background item runs")
        let holderGate = ThreadGate()
        let backgroundRan = CallbackExpectation("the background items ran", expectedCount: 3)
        executor.execute(priority: .background) {
            holderRunning.fulfill()
            holderGate.wait()
            order.append("background 0")
            backgroundRan.fulfill()
        }
        for index in 1...2 {
            executor.execute(priority: .background) {
                order.append("background \(index)")
                backgroundRan.fulfill()
            }
        }
        await waitUntilQueued(executor, 3)
        release.open()
        // The worker yielded behind the three items; the first of them now holds the thread.
        await holderRunning.fulfillment(within: .seconds(30))
        await waitUntilQueued(executor, 3)
        second.priority = .userInitiated
        holderGate.open()
        try await first.value
        try await second.value
        await backgroundRan.fulfillment(within: .seconds(30))
        #expect(order.all == ["background 0", "second", "background 1", "background 2"], "\(order.all)")
    }

    @Test("a task resumed inside enqueueing(for:) is recorded in the ticket, and escalating the ticket moves it up")
    func ticketFollowsAResumedTask() async throws {
        let executor = BlockingExecutor(name: "test-ticket", maximumThreads: 1)
        let suspended = CallbackExpectation("the task waits on its continuation")
        let parked = Mutex<CheckedContinuation<Void, Never>?>(nil)
        let order = Log<String>()
        let resumed = Task(executorPreference: executor, priority: .background) {
            await withCheckedContinuation { continuation in
                parked.withLock { $0 = continuation }
                suspended.fulfill()
            }
            order.append("resumed")
        }
        await suspended.fulfillment(within: .seconds(30))
        let gate = ThreadGate()
        let blocked = CallbackExpectation("the only thread is busy")
        let holder = Task {
            try await executor.run {
                blocked.fulfill()
                gate.wait()
            }
        }
        await blocked.fulfillment(within: .seconds(30))
        for index in 0..<2 {
            executor.execute(priority: .background) { order.append("background \(index)") }
        }
        let ticket = EnqueueTicket(executor: executor)
        let continuation = try #require(parked.withLock { $0.take() })
        executor.enqueueing(for: ticket) { continuation.resume() }
        await waitUntilQueued(executor, 3)
        ticket.escalate(to: .high)
        gate.open()
        try await holder.value
        await resumed.value
        #expect(order.all.first == "resumed", "\(order.all)")
    }

    @Test("a cancelled run leaves the queue at once")
    func cancelledRunLeavesTheQueue() async throws {
        let (executor, gate, holder) = await heldExecutor("test-withdraw")
        let queued = Task { try await executor.run { Issue.record("a cancelled body ran") } }
        await waitUntilQueued(executor, 1)
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        #expect(executor.statistics.queued == 0, "taken out at cancel, not skipped later")
        gate.open()
        try await holder.value
        #expect(executor.statistics.completed == 1)
    }
}
