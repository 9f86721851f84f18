import Foundation
import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

/// Randomized stress of the lock behind both isolation types: every form of access at once, from threads and
/// tasks. Invariants checked inside every critical section: a writer is alone; a reader never overlaps a writer.
/// The seed is printed; rerun a failure with `SWITCHYARD_SEED=<seed> swift test --filter AccessLockStress`.
@Suite("AccessLock stress", .timeLimit(.minutes(3)))
struct AccessLockStressTests {
    private final class Occupancy: Sendable {
        let readers = Atomic<Int>(0)
        let writers = Atomic<Int>(0)
        let violations = Atomic<Int>(0)

        func enterWrite() {
            let writersNow = writers.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
            if writersNow != 1 || readers.load(ordering: .acquiring) != 0 {
                violations.wrappingAdd(1, ordering: .relaxed)
            }
        }
        func leaveWrite() { writers.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
        func enterRead() {
            readers.wrappingAdd(1, ordering: .acquiringAndReleasing)
            if writers.load(ordering: .acquiring) != 0 { violations.wrappingAdd(1, ordering: .relaxed) }
        }
        func leaveRead() { readers.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
    }

    @Test("ReadWriteIsolated: random mix of every access form keeps exclusion and counts")
    func readWriteMix() async {
        let seed = SeededRandomNumberGenerator.forTest("AccessLockStressTests.readWriteMix").seed
        let value = ReadWriteIsolated(0, label: "stress")
        let occupancy = Occupancy()
        let operations = 1_000
        let writes = SharedCounter()
        let enqueuedDone = CallbackExpectation("enqueued writes", expectedCount: .exactly(operations / 4))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await onThreads(3) { index in
                    var random = SeededRandomNumberGenerator(seed: seed &+ UInt64(index))
                    for _ in 0..<operations {
                        if Bool.random(using: &random) {
                            value.writeBlocking { number in
                                occupancy.enterWrite()
                                number += 1
                                occupancy.leaveWrite()
                            }
                            writes.add()
                        } else {
                            value.readBlocking { _ in
                                occupancy.enterRead()
                                occupancy.leaveRead()
                            }
                        }
                    }
                }
            }
            for index in 0..<3 {
                group.addTask {
                    var random = SeededRandomNumberGenerator(seed: seed &+ 100 &+ UInt64(index))
                    for _ in 0..<operations / 2 {
                        if Int.random(in: 0..<4, using: &random) == 0 {
                            await value.write { number in
                                occupancy.enterWrite()
                                number += 1
                                occupancy.leaveWrite()
                            }
                            writes.add()
                        } else {
                            await value.read { _ in
                                occupancy.enterRead()
                                occupancy.leaveRead()
                            }
                        }
                    }
                }
            }
            group.addTask {
                for _ in 0..<operations / 4 {
                    value.enqueueWrite(
                        { number -> Void in
                            occupancy.enterWrite()
                            number += 1
                            occupancy.leaveWrite()
                        }, deliveringOn: .task()
                    ) { _ in enqueuedDone.fulfill() }
                }
                await enqueuedDone.fulfillment(within: .seconds(30))
                writes.add(operations / 4)
            }
        }
        #expect(occupancy.violations.load(ordering: .relaxed) == 0, "seed \(seed)")
        #expect(await value.read { $0 } == writes.value, "seed \(seed)")
        #expect(value.debugDescription.hasSuffix(": free"), "seed \(seed)")
    }

    @Test("Isolated: random mix of every access form keeps exclusion and counts")
    func exclusiveMix() async {
        let seed = SeededRandomNumberGenerator.forTest("AccessLockStressTests.exclusiveMix").seed
        let value = Isolated(0, label: "stress")
        let occupancy = Occupancy()
        let operations = 1_000
        let enqueuedDone = CallbackExpectation("enqueued", expectedCount: .exactly(operations / 4))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await onThreads(3) { index in
                    var random = SeededRandomNumberGenerator(seed: seed &+ UInt64(index))
                    for _ in 0..<operations {
                        value.withValueBlocking { number in
                            occupancy.enterWrite()
                            number += 1
                            for _ in 0..<Int.random(in: 0..<8, using: &random) { number += 0 }
                            occupancy.leaveWrite()
                        }
                    }
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<operations {
                        await value.withValue { number in
                            occupancy.enterWrite()
                            number += 1
                            occupancy.leaveWrite()
                        }
                    }
                }
            }
            group.addTask {
                for _ in 0..<operations / 4 {
                    value.enqueue(
                        { number -> Void in
                            occupancy.enterWrite()
                            number += 1
                            occupancy.leaveWrite()
                        }, deliveringOn: .task()
                    ) { _ in enqueuedDone.fulfill() }
                }
                await enqueuedDone.fulfillment(within: .seconds(30))
            }
        }
        #expect(occupancy.violations.load(ordering: .relaxed) == 0, "seed \(seed)")
        #expect(await value.read { $0 } == 6 * operations + operations / 4, "seed \(seed)")
    }
}
