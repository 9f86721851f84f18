import SwitchyardTesting
import Testing

@testable import Switchyard

@Suite("ObserverList: delivery in write order, without holding a writer for long")
struct ObserverListTests {
    @Test("a drainer that keeps finding new values hands over to a task after a few batches; order is kept")
    func drainerIsBounded() async throws {
        let list = ObserverList<Int>()
        let delivered = Log<Int>()
        let total = 4 * ObserverList<Int>.drainRounds + 1  // the writer's share, then three tasks' worth
        let done = CallbackExpectation("all values delivered")
        let later = CallbackExpectation("a value written after the drain")
        // Each delivery queues the next value, as other writers would while this thread drains.
        // The observer captures the list: it is removed at the end, or the two would keep each other alive.
        let observer = list.add(
            ObserverList<Int>.Observer(
                yield: { value in
                    delivered.append(value)
                    if value + 1 < total {
                        #expect(!list.enqueue(value + 1), "the drainer role stays taken while values are queued")
                    } else if value + 1 == total {
                        done.fulfill()
                    } else {
                        later.fulfill()
                    }
                },
                finish: {}))
        #expect(list.enqueue(0))
        list.drainQueued()  // returns after `drainRounds` batches instead of delivering them all
        #expect(delivered.all.count <= ObserverList<Int>.drainRounds)
        await CallbackExpectation.fulfillment(of: [done], within: .seconds(30))
        #expect(delivered.all == Array(0..<total))
        // A later value is delivered too, by its writer or by the task if it is still finishing its last round.
        if list.enqueue(total) { list.drainQueued() }
        await CallbackExpectation.fulfillment(of: [later], within: .seconds(30))
        #expect(delivered.all == Array(0...total))
        list.remove(observer)
    }
}
