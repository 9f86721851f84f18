import Foundation
import SwitchyardTesting
import Synchronization
import Testing

@testable import Switchyard

/// Every shape in which mixing synchronous, asynchronous, enqueued and observing accesses could deadlock when the
/// lock was handed to a party that could not run, arranged exactly on a pool of 1 and of 2 threads: something
/// holds the value, an asynchronous party queues, then every pool thread blocks in a synchronous access; then the
/// holder releases. Each test fails (its watchdog expires) instead of hanging if the accesses never complete.
/// Serialized: each test occupies a pool's every thread on purpose.
@Suite("Mixed access forms never deadlock", .serialized, .timeLimit(.minutes(2)))
struct MixedAccessDeadlockTests {
    /// Pools of 1 and 2 threads of their own (`NarrowPool`). The global pool is exercised by the reported loop
    /// below only: arranging "every global thread blocked" would stall every other suite running in parallel.
    static let widths = [1, 2]

    static func threads(_ width: Int) -> Int { width }

    @Test("Isolated: a queued await, then every pool thread in a synchronous access", arguments: widths)
    func isolatedAwaitThenSynchronous(width: Int) async {
        let value = Isolated(0, label: "await then sync")
        guard
            await expectNoDeadlock(
                width: width, waiting: { value.lock.waitingTotal },
                hold: { stay in value.withValueBlocking { _ in stay() } },
                queued: [(1, { await value.withValue { $0 += 1 } })],
                blocking: { bump(value) })
        else { return }
        #expect(await value.withValue { $0 } == 1 + Self.threads(width))
    }

    @Test("Isolated: enqueue followed by a synchronous helper, on every pool thread", arguments: widths)
    func isolatedEnqueueThenSynchronous(width: Int) async {
        let value = Isolated(0, label: "enqueue then sync")
        guard
            await expectNoDeadlock(
                width: width, waiting: { value.lock.waitingTotal },
                hold: { stay in value.withValueBlocking { _ in stay() } },
                queued: [],
                blocking: {
                    value.enqueue { $0 += 1 }
                    bump(value)
                }, waitersPerBlocker: 2)
        else { return }
        let total = CallbackExpectation("enqueued accesses ran")
        value.enqueue({ $0 }, deliveringOn: .task()) { _ in total.fulfill() }
        await total.fulfillment(within: .seconds(20))
        #expect(await value.withValue { $0 } == 2 * Self.threads(width))
    }

    @Test("Isolated: a queued await, then values() registering on every pool thread", arguments: widths)
    func isolatedAwaitThenObserve(width: Int) async {
        let value = Isolated(0, label: "await then observe")
        guard
            await expectNoDeadlock(
                width: width, waiting: { value.lock.waitingTotal },
                hold: { stay in value.withValueBlocking { _ in stay() } },
                queued: [(1, { await value.withValue { $0 += 1 } })],
                blocking: { _ = value.values() })
        else { return }
        #expect(await value.withValue { $0 } == 1)
    }

    @Test("Isolated: an actor awaits an access, then blocks its own thread in a synchronous one")
    func isolatedOnOneActor() async {
        let value = Isolated(0, label: "actor")
        let actor = PinnedActor()
        let holder = await holdOnThread { stay in value.withValueBlocking { _ in stay() } }
        let done = CallbackExpectation("both accesses finished", expectedCount: .exactly(2))
        Task {
            await actor.run { _ in
                await value.withValue { $0 += 1 }
                done.fulfill()
            }
        }
        #expect(await arrange("the actor's await queues") { value.lock.waitingTotal == 1 })
        Task {
            await actor.run { _ in
                bump(value)
                done.fulfill()
            }
        }
        #expect(await arrange("the actor's thread blocks") { value.lock.waitingTotal == 2 })
        holder.open()
        guard await done.fulfillment(within: .seconds(10)).isSuccess else { return }
        #expect(await value.withValue { $0 } == 2)
    }

    @Test("Isolated: four tasks loop enqueue + synchronous helper on the global pool (the reported shape)")
    func isolatedEnqueueLoop() async {
        let value = Isolated(0, label: "loop")
        let done = CallbackExpectation("every task finished", expectedCount: .exactly(4))
        for _ in 0..<4 {
            Task.detached {
                for _ in 0..<500 {
                    value.enqueue { $0 += 1 }
                    bump(value)
                }
                done.fulfill()
            }
        }
        await withTaskExecutorPreference(NarrowPool(width: 1, name: "watchdog")) {
            _ = await done.fulfillment(within: .seconds(20))
        }
    }

    @Test(
        "ReadWriteIsolated: a reader holds, a write queues, then every pool thread in a synchronous read",
        arguments: widths)
    func readWriteAwaitWriteThenRead(width: Int) async {
        let value = ReadWriteIsolated(0, label: "write then read")
        guard
            await expectNoDeadlock(
                width: width, waiting: { value.lock.waitingTotal },
                hold: { stay in value.readBlocking { _ in stay() } },
                queued: [(1, { await value.write { $0 += 1 } })],
                blocking: { _ = value.readBlocking { $0 } })
        else { return }
        #expect(await value.read { $0 } == 1)
    }

    @Test(
        "ReadWriteIsolated: a queued read and write, then every pool thread in a synchronous write",
        arguments: widths)
    func readWriteAwaitReadThenWrite(width: Int) async {
        let value = ReadWriteIsolated(0, label: "read then write")
        guard
            await expectNoDeadlock(
                width: width, waiting: { value.lock.waitingTotal },
                hold: { stay in value.readBlocking { _ in stay() } },
                queued: [(1, { await value.write { $0 += 1 } }), (1, { _ = await value.read { $0 } })],
                blocking: { value.writeBlocking { $0 += 1 } })
        else { return }
        #expect(await value.read { $0 } == 1 + Self.threads(width))
    }

    @Test(
        "ReadWriteIsolated: enqueued writes followed by synchronous writes, on every pool thread",
        arguments: widths)
    func readWriteEnqueueThenSynchronous(width: Int) async {
        let value = ReadWriteIsolated(0, label: "enqueue then write")
        guard
            await expectNoDeadlock(
                width: width, waiting: { value.lock.waitingTotal },
                hold: { stay in value.writeBlocking { _ in stay() } },
                queued: [],
                blocking: {
                    value.enqueueWrite { $0 += 1 }
                    value.writeBlocking { $0 += 1 }
                },
                waitersPerBlocker: 2)
        else { return }
        let total = CallbackExpectation("enqueued writes ran")
        value.enqueueWrite({ $0 }, deliveringOn: .task()) { _ in total.fulfill() }
        await total.fulfillment(within: .seconds(20))
        #expect(await value.read { $0 } == 2 * Self.threads(width))
    }

    @Test("ReadWriteIsolated: a queued write, then values() registering on every pool thread", arguments: widths)
    func readWriteAwaitThenObserve(width: Int) async {
        let value = ReadWriteIsolated(0, label: "write then observe")
        guard
            await expectNoDeadlock(
                width: width, waiting: { value.lock.waitingTotal },
                hold: { stay in value.writeBlocking { _ in stay() } },
                queued: [(1, { await value.write { $0 += 1 } })],
                blocking: { _ = value.values() })
        else { return }
        #expect(await value.read { $0 } == 1)
    }
}

/// A synchronous helper, as ordinary code writes one: called from a task, it blocks that task's thread.
private func bump(_ value: Isolated<Int>) {
    value.withValueBlocking { $0 += 1 }
}

/// Holds the value on a plain thread, queues each of `queued` (one task each, on a pool of `width` threads; the
/// count is how many waiters it adds), then starts `blocking` on every pool thread and waits until all of them
/// wait too; then releases the holder and expects everything to finish within a watchdog. Returns whether it did
/// (the value must not be read after a hang: the read would wait for ever).
private func expectNoDeadlock(
    width: Int,
    waiting: @escaping @Sendable () -> Int,
    hold: @escaping @Sendable (_ stayInside: () -> Void) -> Void,
    queued: [(waiters: Int, access: @Sendable () async -> Void)],
    blocking: @escaping @Sendable () -> Void,
    waitersPerBlocker: Int = 1,
    sourceLocation: SourceLocation = #_sourceLocation
) async -> Bool {
    // The test's own waiting runs on a pool of its own, so a hang of the pool under test cannot stop the watchdog.
    await withTaskExecutorPreference(NarrowPool(width: 1, name: "watchdog")) {
        await expectNoDeadlockOnWatchdog(
            width: width, waiting: waiting, hold: hold, queued: queued, blocking: blocking,
            waitersPerBlocker: waitersPerBlocker, sourceLocation: sourceLocation)
    }
}

private func expectNoDeadlockOnWatchdog(
    width: Int,
    waiting: @escaping @Sendable () -> Int,
    hold: @escaping @Sendable (_ stayInside: () -> Void) -> Void,
    queued: [(waiters: Int, access: @Sendable () async -> Void)],
    blocking: @escaping @Sendable () -> Void,
    waitersPerBlocker: Int,
    sourceLocation: SourceLocation
) async -> Bool {
    let pool: any TaskExecutor = NarrowPool(width: width, name: "narrow pool")
    let width = MixedAccessDeadlockTests.threads(width)
    let holder = await holdOnThread(hold)
    let done = CallbackExpectation("every access finished", expectedCount: .exactly(queued.count + width))
    var expected = 0
    for (waiters, access) in queued {
        Task.detached(executorPreference: pool) {
            await access()
            done.fulfill()
        }
        expected += waiters
        let target = expected
        #expect(
            await arrange("an asynchronous access queues") { waiting() == target },
            "queued \(waiting()), expected \(target)", sourceLocation: sourceLocation)
    }
    let passed = SharedCounter()
    for _ in 0..<width {
        Task.detached(executorPreference: pool) {
            blocking()
            passed.add()
            done.fulfill()
        }
    }
    expected += width * waitersPerBlocker
    let target = expected
    // A synchronous access that never has to wait (a thread does not wait for a queued task) passes straight on.
    #expect(
        await arrange("every pool thread blocks") { waiting() == target || passed.value == width },
        "queued \(waiting()), expected \(target)", sourceLocation: sourceLocation)
    holder.open()
    return await done.fulfillment(within: .seconds(10)).isSuccess
}
