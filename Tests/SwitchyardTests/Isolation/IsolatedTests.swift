import Dispatch
import Foundation
import SwitchyardTesting
import Synchronization
import Testing

@testable import Switchyard

@Suite("Isolated", .timeLimit(.minutes(1)))
struct IsolatedTests {
    @Test("asynchronous accesses run in FIFO order")
    func asynchronousAccessesAreFIFO() async {
        let log = Isolated([Int](), label: "fifo log")
        let count = 50
        // A thread holds the value while the tasks queue up one after another.
        let holder = await holdOnThread { stay in log.withValueBlocking { _ in stay() } }
        let done = CallbackExpectation("all accesses ran", expectedCount: .exactly(count))
        await Sequencer().start(count: count, log: log, done: done, release: holder)
        await done.fulfillment(within: .seconds(30))
        let order = await log.read { $0 }
        #expect(order == Array(0..<count), "order: \(order)")
    }

    @Test("enqueued accesses run in call order and deliver results in that order on a serial queue")
    func enqueuedAccessesAreFIFO() async {
        let counter = Isolated(0, label: "enqueue order")
        let delivered = Isolated([Int](), label: "delivered")
        let count = 200
        let all = CallbackExpectation("all delivered", expectedCount: .exactly(count))
        let queue = DispatchQueue(label: "delivery")
        for _ in 0..<count {
            counter.enqueue(
                { value -> Int in
                    value += 1
                    return value
                }, deliveringOn: .queue(queue)
            ) { result in
                if case .success(let value) = result { delivered.withValueBlocking { $0.append(value) } }
                all.fulfill()
            }
        }
        await all.fulfillment(within: .seconds(30))
        #expect(await delivered.read { $0 } == Array(1...count))
    }

    @Test("enqueue from inside an access of the same instance is safe")
    func enqueueInsideAccess() async {
        let value = Isolated(0, label: "nested enqueue")
        let ran = CallbackExpectation("inner ran")
        await value.withValue { number in
            number = 1
            value.enqueue { number in
                number *= 10
                ran.fulfill()
            }
        }
        await ran.fulfillment(within: .seconds(30))
        #expect(await value.read { $0 } == 10)
    }

    @Test("typed errors pass through and observers still see the write")
    func typedErrors() async throws {
        struct Refused: Error, Equatable {}
        let value = Isolated(1, label: "typed")
        #expect(throws: Refused.self) {
            try value.withValueBlocking { (number: inout Int) throws(Refused) -> Void in
                number = 2
                throw Refused()
            }
        }
        #expect(await value.read { $0 } == 2)
    }

    @Test("enqueued accesses queued together share tasks, 32 in a row, in order; observers see each one")
    func enqueuedBurstSharesTasks() async {
        let value = Isolated([Int](), label: "burst")
        let stream = value.values(bufferingPolicy: .unbounded)
        let ran = CallbackExpectation("enqueued accesses ran", expectedCount: .exactly(100))
        // Queued while this access holds the value, so all 100 wait in line before the first one runs.
        await value.withValue { _ in
            for index in 0..<100 {
                value.enqueue { list in
                    list.append(index)
                    ran.fulfill()
                }
            }
        }
        await ran.fulfillment(within: .seconds(30))
        #expect(await value.read { $0 } == Array(0..<100))
        #if SWITCHYARD_TEST_HOOKS
            #expect(value.enqueuedTasksStarted.load(ordering: .relaxed) == 4, "100 accesses in runs of 32: 4 tasks")
        #endif
        var counts: [Int] = []
        for await element in stream {
            counts.append(element.count)
            if element.count == 100 { break }
        }
        // The initial value, the value after the holding access (it wrote nothing), then after each enqueued one.
        #expect(counts == [0] + Array(0...100))
    }

    @Test("a suspended task in line ends a run of enqueued accesses; order stays first come, first served")
    func taskWaiterEndsRun() async {
        let value = Isolated([Int](), label: "mixed line")
        let holder = await holdOnThread { stay in value.withValueBlocking { _ in stay() } }
        for index in 0..<10 { value.enqueue { $0.append(index) } }
        let waiter = Task { await value.withValue { $0.append(-1) } }
        while !value.debugDescription.contains("11 waiting") { await Task.yield() }
        let ran = CallbackExpectation("enqueued after the task ran")
        for index in 10..<20 {
            value.enqueue { list in
                list.append(index)
                if index == 19 { ran.fulfill() }
            }
        }
        holder.open()
        await waiter.value
        await ran.fulfillment(within: .seconds(30))
        #expect(await value.read { $0 } == Array(0..<10) + [-1] + Array(10..<20))
        #if SWITCHYARD_TEST_HOOKS
            #expect(value.enqueuedTasksStarted.load(ordering: .relaxed) == 2, "one run before the task, one after")
        #endif
    }

    @Test("observers get the current value, then every write in order")
    func observation() async {
        let value = Isolated(0, label: "observed")
        let stream = value.values(bufferingPolicy: .unbounded)
        for _ in 0..<5 { await value.withValue { $0 += 1 } }
        await value.read { _ in }  // reads are not writes: nothing emitted
        var seen: [Int] = []
        for await element in stream {
            seen.append(element)
            if element == 5 { break }
        }
        #expect(seen == [0, 1, 2, 3, 4, 5])
    }

    @Test("withValueIfAvailable runs on a free value and returns nil on a held one, without blocking")
    func ifAvailable() async {
        let value = Isolated(1, label: "try")
        #expect(
            value.withValueIfAvailable { number -> Int in
                number += 1
                return number
            } == 2)
        let holder = await holdOnThread { stay in value.withValueBlocking { _ in stay() } }
        #expect(value.withValueIfAvailable { $0 } == nil)
        holder.open()
        #expect(await value.read { $0 } == 2)
    }

    @Test("description names the label; debugDescription shows the state")
    func descriptions() {
        let value = Isolated(0, label: "hits")
        #expect(value.description == "Isolated<Int>(\"hits\")")
        #expect(value.debugDescription == "Isolated<Int>(\"hits\"): free")
        value.withValueBlocking { _ in
            #expect(value.debugDescription.hasSuffix("held exclusively"))
        }
        let unnamed = Isolated("x")
        #expect(unnamed.label.hasPrefix("SwitchyardTests/IsolatedTests.swift:"))
    }
}

/// Queues the FIFO test's accesses in a known order. All tasks run on this actor, and each creates the next one
/// just before it queues: the next cannot start until this one has suspended in the queue (the actor is serial
/// and the access does not leave it before queueing). The last one opens the holder's gate.
private actor Sequencer {
    func start(count: Int, log: Isolated<[Int]>, done: CallbackExpectation, release holder: ThreadGate) {
        launch(0, count: count, log: log, done: done, release: holder)
    }

    private func launch(
        _ index: Int, count: Int, log: Isolated<[Int]>, done: CallbackExpectation,
        release holder: ThreadGate
    ) {
        Task {
            if index + 1 < count {
                launch(index + 1, count: count, log: log, done: done, release: holder)
            } else {
                Task { holder.open() }
            }
            await log.withValue { $0.append(index) }
            done.fulfill()
        }
    }
}
