import SwitchyardTesting
import Testing

@testable import Switchyard

@Suite("WaiterQueue")
struct WaiterQueueTests {
    @Test("first in, first out; a waiter that leaves is skipped; leaving twice or after its turn finds nothing")
    func order() {
        var queue = WaiterQueue<String>()
        for (identifier, name) in ["a", "b", "c", "d"].enumerated() {
            queue.append(name, identifier: UInt64(identifier))
        }
        #expect(queue.remove(1) == "b")
        #expect(queue.remove(1) == nil)
        #expect(queue.count == 3)
        #expect(queue.popFirst() == "a")
        #expect(queue.remove(0) == nil)
        #expect(queue.popFirst() == "c")
        queue.append("e", identifier: 9)
        #expect(queue.removeAll() == ["d", "e"])
        #expect(queue.isEmpty)
        #expect(queue.popFirst() == nil)
    }

    @Test("random appends, pops and leaves against an array: same waiters in the same order, stale entries bounded")
    func matchesModel() {
        var random = SeededRandomNumberGenerator.forTest("WaiterQueue.matchesModel")
        var queue = WaiterQueue<UInt64>()
        var model: [UInt64] = []
        var next: UInt64 = 0
        for step in 0..<200_000 {
            // Phases that favour growing, then leaving, so the queue both fills up and drains through leaves.
            let growing = (step / 5_000) % 2 == 0
            let roll = Int.random(in: 0..<10, using: &random)
            let (appends, pops) = growing ? (6, 2) : (2, 3)  // out of 10; the rest are leaves
            if roll < appends {
                queue.append(next, identifier: next)
                model.append(next)
                next += 1
            } else if roll < appends + pops {
                #expect(queue.popFirst() == model.first)
                if !model.isEmpty { model.removeFirst() }
            } else {
                // Mostly a waiting identifier, sometimes one that already left or was served.
                let identifier =
                    model.isEmpty || Int.random(in: 0..<8, using: &random) == 0
                    ? UInt64.random(in: 0...next, using: &random) : model.randomElement(using: &random)!
                let expected = model.firstIndex(of: identifier).map { model.remove(at: $0) }
                #expect(queue.remove(identifier) == expected)
            }
            #expect(queue.count == model.count)
            #expect(queue.storedCount <= 2 * queue.count + 16, "stale identifiers bounded at step \(step)")
        }
        #expect(queue.removeAll() == model)
    }
}
