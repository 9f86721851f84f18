import Synchronization
import Testing

@testable import Switchyard

@Suite("OrderedOutbox: order, one drainer, bounded drains")
struct OrderedOutboxTests {
    /// Set around the test's own call of `drain`; a detached task does not inherit it.
    @TaskLocal static var inCaller = false

    @Test("a drainer whose producers keep appending delivers a few batches, then a task goes on, in order")
    func drainIsBounded() async {
        let outbox = OrderedOutbox<Int>()
        let delivered = Mutex<[(item: Int, byCaller: Bool)]>([])
        let total = 100
        let (done, finished) = AsyncStream.makeStream(of: Void.self)
        // Every delivery appends the next item, like a producer that never pauses: one item per batch.
        let deliver: @Sendable (Int) -> Void = { item in
            delivered.withLock { $0.append((item, OrderedOutboxTests.inCaller)) }
            if item + 1 < total {
                #expect(!outbox.append(item + 1), "the drainer is still active")
            } else {
                finished.finish()
            }
        }
        #expect(outbox.append(0))
        OrderedOutboxTests.$inCaller.withValue(true) { outbox.drain(deliver) }
        for await _ in done {}
        let all = delivered.withLock { $0 }
        #expect(all.map(\.item) == Array(0..<total))
        let rounds = OrderedOutbox<Int>.drainRounds
        #expect(
            all.prefix(rounds).allSatisfy(\.byCaller) && !all.dropFirst(rounds).contains { $0.byCaller },
            "the caller delivered \(rounds) batches, then was let go")
    }
}
