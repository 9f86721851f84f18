import Foundation
import SwitchyardTesting
import Synchronization
import Testing

@testable import Switchyard

@Suite("ReadWriteIsolated", .timeLimit(.minutes(1)))
struct ReadWriteIsolatedTests {
    @Test("readers really overlap: two readers are inside at once")
    func readersOverlap() async {
        let value = ReadWriteIsolated(0, label: "overlap")
        let inside = SharedCounter()
        let maximumInside = SharedCounter()
        let bothInside = CallbackExpectation("both readers inside at the same time")
        let release = ThreadGate(waiters: 2)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await onThreads(2) { _ in
                    value.readBlocking { _ in
                        let now = inside.add()
                        maximumInside.raise(to: now)
                        if now == 2 { bothInside.fulfill() }
                        release.wait()  // hold the read until the test has seen both inside
                        inside.subtract()
                    }
                }
            }
            await bothInside.fulfillment(within: .seconds(30))
            #expect(value.debugDescription.hasSuffix("read by 2"))
            release.open()
        }
        #expect(maximumInside.value == 2)
    }

    @Test("writers finish within a bound while readers hammer")
    func writersAreNotStarved() async {
        let value = ReadWriteIsolated(0, label: "hammered")
        let stop = SharedFlag()
        let readersRunning = CallbackExpectation("readers running", expectedCount: .exactly(4))
        let wrote = CallbackExpectation("100 writes finished")
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await onThreads(5) { index in
                    if index < 4 {
                        readersRunning.fulfill()
                        while !stop.value { _ = value.readBlocking { $0 } }
                    } else {
                        for _ in 0..<100 { value.writeBlocking { $0 += 1 } }
                        wrote.fulfill()
                    }
                }
            }
            await readersRunning.fulfillment(within: .seconds(30))
            // A reader-preferring lock (pthread_rwlock's default) can starve the writer here forever.
            await wrote.fulfillment(within: .seconds(30))
            stop.set(true)
        }
        #expect(await value.read { $0 } == 100)
    }

    @Test("writer preference: a waiting writer blocks new readers")
    func waitingWriterBlocksNewReaders() async {
        let value = ReadWriteIsolated(0, label: "preference")
        let log = Isolated([String](), label: "preference log")
        let holder = await holdOnThread { stay in value.readBlocking { _ in stay() } }
        let done = CallbackExpectation("writer and late reader ran", expectedCount: .exactly(2))
        // Queued in this order while the first read is held: writer W, then reader R.
        await PreferenceSequencer().start(value: value, log: log, done: done, release: holder)
        await done.fulfillment(within: .seconds(30))
        #expect(await log.read { $0 } == ["W", "R"])
    }

    @Test("phase-fair: readers waiting when a writer leaves all enter before the next writer")
    func readersAreNotStarved() async {
        let value = ReadWriteIsolated(0, label: "phases")
        let log = Isolated([String](), label: "phase log")
        let holder = await holdOnThread { stay in value.writeBlocking { _ in stay() } }
        let done = CallbackExpectation("all ran", expectedCount: .exactly(3))
        // Queued in this order: reader R1, writer W2, reader R2.
        await PhaseSequencer().start(value: value, log: log, done: done, release: holder)
        await done.fulfillment(within: .seconds(30))
        let order = await log.read { $0 }
        #expect(order.count == 3)
        #expect(Set(order.prefix(2)) == ["R1", "R2"], "both readers enter in the read phase: \(order)")
        #expect(order.last == "W2")
    }

    @Test("enqueued writes in line share tasks, 32 in a row; a reader queued during a run gets its phase next")
    func enqueuedBurstSharesTasks() async {
        let value = ReadWriteIsolated([Int](), label: "burst")
        let ran = CallbackExpectation("enqueued accesses ran", expectedCount: .exactly(101))
        let seenByRead = Isolated(-1, label: "read count")
        await value.write { _ in
            for index in 0..<100 {
                value.enqueueWrite { list in
                    list.append(index)
                    if index == 9 {
                        // Queued while the run holds the value: the run ends after this write, the read phase
                        // comes next (phase-fair), and the remaining writes follow in new tasks.
                        value.enqueueRead({ $0.count }, deliveringOn: .task()) { result in
                            if case .success(let count) = result { seenByRead.withValueBlocking { $0 = count } }
                            ran.fulfill()
                        }
                    }
                    ran.fulfill()
                }
            }
        }
        await ran.fulfillment(within: .seconds(30))
        #expect(await value.read { $0 } == Array(0..<100))
        #expect(await seenByRead.read { $0 } == 10, "the read ran right after the write that queued it")
        // Writes 0–9 in one task; 10–99 in runs of 32, 32 and 26.
        #if SWITCHYARD_TEST_HOOKS
            #expect(value.enqueuedTasksStarted.load(ordering: .relaxed) == 4)
        #endif
    }

    @Test("asynchronous writes run in FIFO order; enqueued writes deliver in order")
    func asynchronousOrder() async {
        let value = ReadWriteIsolated([Int](), label: "order")
        for index in 0..<100 { await value.write { $0.append(index) } }
        let queue = DispatchQueue(label: "rw delivery")
        let delivered = Isolated([Int](), label: "delivered")
        let all = CallbackExpectation("delivered", expectedCount: .exactly(100))
        for index in 100..<200 {
            value.enqueueWrite(
                { list -> Int in
                    list.append(index)
                    return index
                }, deliveringOn: .queue(queue)
            ) { result in
                if case .success(let index) = result { delivered.withValueBlocking { $0.append(index) } }
                all.fulfill()
            }
        }
        await all.fulfillment(within: .seconds(30))
        #expect(await value.read { $0 } == Array(0..<200))
        #expect(await delivered.read { $0 } == Array(100..<200))
        let read = CallbackExpectation("enqueued read delivered")
        value.enqueueRead({ $0.count }, deliveringOn: .task()) { result in
            if case .success(let count) = result { #expect(count == 200) }
            read.fulfill()
        }
        await read.fulfillment(within: .seconds(30))
    }

    @Test("readIfAvailable and writeIfAvailable never block: nil while held against them")
    func ifAvailable() async {
        let value = ReadWriteIsolated(1, label: "try")
        #expect(
            value.writeIfAvailable { number -> Int in
                number += 1
                return number
            } == 2)
        #expect(value.readIfAvailable { $0 } == 2)
        let holder = await holdOnThread { stay in value.readBlocking { _ in stay() } }
        #expect(value.readIfAvailable { $0 } == 2, "readers share")
        #expect(value.writeIfAvailable { $0 = 3 } == nil, "a writer needs the value to itself")
        holder.open()
        #expect(await value.read { $0 } == 2)
    }

    @Test("observers see every write in order")
    func observation() async {
        let value = ReadWriteIsolated(0, label: "observed")
        let stream = value.values(bufferingPolicy: .unbounded)
        for _ in 0..<3 { await value.write { $0 += 1 } }
        _ = await value.read { $0 }
        var seen: [Int] = []
        for await element in stream {
            seen.append(element)
            if element == 3 { break }
        }
        #expect(seen == [0, 1, 2, 3])
    }
}

/// Queues R1, W2, R2 in that order on one actor while a writer holds the value, then lets the holder go. Each
/// task creates the next just before it queues, so the queue order is the creation order (see `Sequencer`).
private actor PhaseSequencer {
    func start(
        value: ReadWriteIsolated<Int>, log: Isolated<[String]>, done: CallbackExpectation,
        release: ThreadGate
    ) {
        // Each body logs while it holds the value, so the log is the order of entry.
        Task {
            Task {
                Task {
                    Task { release.open() }
                    await value.read { _ in log.withValueBlocking { $0.append("R2") } }
                    done.fulfill()
                }
                await value.write { _ in log.withValueBlocking { $0.append("W2") } }
                done.fulfill()
            }
            await value.read { _ in log.withValueBlocking { $0.append("R1") } }
            done.fulfill()
        }
    }
}

/// Queues a writer, then a reader, on one actor while a reader holds the value, then releases the holder
/// (chained as in `PhaseSequencer`).
private actor PreferenceSequencer {
    func start(
        value: ReadWriteIsolated<Int>, log: Isolated<[String]>, done: CallbackExpectation,
        release: ThreadGate
    ) {
        Task {
            Task {
                Task { release.open() }
                await value.read { _ in log.withValueBlocking { $0.append("R") } }
                done.fulfill()
            }
            await value.write { _ in log.withValueBlocking { $0.append("W") } }
            done.fulfill()
        }
    }
}
