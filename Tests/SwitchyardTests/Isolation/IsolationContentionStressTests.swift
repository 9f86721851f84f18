import Foundation
import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

/// Exact results of both isolation types under heavy contention: many threads, tasks and enqueued accesses at once.
/// These flood the cooperative pool and the CPU. Under Thread Sanitizer and internal checks, CI runs suites named
/// `…StressTests` apart from the rest (see `.ci/run`) so that ordering tests elsewhere are not starved behind them. In
/// the plain `swift test` they run beside every other suite on the same cores and take many times as long as alone:
/// hence every stress suite's limit of three minutes, and watchdogs (``untilStalled(stallLimit:progress:onStall:_:)``)
/// that fail as soon as nothing has moved for 30 s.
@Suite("Isolation: contention stress", .timeLimit(.minutes(3)))
struct IsolationContentionStressTests {
    /// Two fields a writer always changes together: a reader that sees them differ saw a torn write.
    struct Pair: Sendable { var a = 0, b = 0 }

    @Test("exact results under contention: threads × synchronous writes")
    func exactUnderThreadContention() async {
        let threads = 8
        let writes = 20_000
        let counter = Isolated(0, label: "counter")
        await onThreads(threads) { _ in
            for _ in 0..<writes { counter.withValueBlocking { $0 += 1 } }
        }
        #expect(await counter.read { $0 } == threads * writes)
    }

    @Test("exact results with synchronous, asynchronous and enqueued writes racing")
    func exactUnderMixedForms() async {
        let perForm = 5_000
        let counter = Isolated(0, label: "mixed")
        let enqueued = CallbackExpectation("enqueued writes ran", expectedCount: .exactly(perForm))
        let bodiesRan = SharedCounter()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await onThreads(2) { _ in
                    for _ in 0..<perForm / 2 { counter.withValueBlocking { $0 += 1 } }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<perForm / 4 { await counter.withValue { $0 += 1 } }
                }
            }
            group.addTask {
                await onThreads(1) { _ in
                    for _ in 0..<perForm {
                        counter.enqueue(
                            {
                                $0 += 1
                                bodiesRan.add()
                            }, deliveringOn: .task()
                        ) { _ in enqueued.fulfill() }
                    }
                }
            }
        }
        // The suite's time limit ends the test long before the wait's hour. The watchdog fails it once nothing has
        // moved for 30 s, telling a stalled lock (bodies waiting behind it) from stalled deliveries.
        _ = await untilStalled(
            progress: { bodiesRan.value + enqueued.fulfillmentCount },
            onStall: { Issue.record("enqueued bodies ran: \(bodiesRan.value); \(counter.debugDescription)") }
        ) {
            await enqueued.fulfillment(within: .seconds(3_600))
        }
        #expect(await counter.read { $0 } == 3 * perForm)
    }

    @Test("exact results under contention, and readers never see a torn write")
    func exactUnderContention() async {
        let writers = 4
        let writes = 10_000
        let pair = ReadWriteIsolated(Pair(), label: "pair")
        let torn = SharedCounter()
        await onThreads(writers + 4) { index in
            if index < writers {
                for _ in 0..<writes {
                    pair.writeBlocking {
                        $0.a += 1
                        $0.b += 1
                    }
                }
            } else {
                for _ in 0..<writes { if pair.readBlocking({ $0.a != $0.b }) { torn.add() } }
            }
        }
        #expect(torn.value == 0)
        let final = await pair.read { $0 }
        #expect(final.a == writers * writes && final.b == writers * writes)
    }
}
