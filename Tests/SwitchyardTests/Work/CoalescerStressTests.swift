import SwitchyardTesting
import Testing

@testable import Switchyard

/// Many callers on few keys, leaving at random, with `cancelAll()` and plain submissions to the same queue keeping
/// the engine's lock busy: every caller ends with its key's value or a job error, and nothing is left behind (no
/// key in flight, no waiter, no job). Run on an unbounded queue (jobs pushed to the engine's intake under the
/// coalescer's lock and admitted after it) and on a bounded one (admitted under both locks).
@Suite("Coalescer stress: joins, leaves and cancelAll racing", .timeLimit(.minutes(3)))
struct CoalescerStressTests {
    @Test("every caller gets its key's value or an error; nothing is left in flight", arguments: [nil, 8] as [Int?])
    func randomTraffic(maximumPending: Int?) async throws {
        var random = SeededRandomNumberGenerator.forTest(
            "CoalescerStressTests \(maximumPending.map(String.init) ?? "unbounded")")
        let queue = WorkQueue(name: "stress", width: 3, maximumPending: maximumPending)
        let coalescer = Coalescer<Int, Int>(queue: queue)
        let loads = SharedCounter()
        let rounds = 40
        var values = 0
        var errors = 0
        for _ in 0..<rounds {
            let callers = (0..<24).map { _ in
                let key = Int.random(in: 0..<4, using: &random)
                let yields = Int.random(in: 0..<3, using: &random)
                return (
                    key,
                    Task { () throws(JobError<any Error>) -> Int in
                        try await coalescer.value(for: key) { key in
                            loads.add()
                            for _ in 0..<yields { await Task.yield() }
                            return key * 2
                        }
                    }
                )
            }
            let noise = (0..<4).map { _ in try? queue.trySubmit("noise") { await Task.yield() } }
            for (_, caller) in callers where Bool.random(using: &random) && Bool.random(using: &random) {
                caller.cancel()
            }
            if Int.random(in: 0..<4, using: &random) == 0 { queue.cancelAll() }
            for (key, caller) in callers {
                switch await caller.result {
                case .success(let value):
                    #expect(value == key * 2)
                    values += 1
                case .failure:
                    errors += 1
                }
            }
            for job in noise { _ = await job?.result }
            await queue.waitUntilIdle()
            #expect(coalescer.inFlightCount == 0)
            for key in 0..<4 { #expect(coalescer.waiterCount(for: key) == 0) }
            #expect(queue.snapshot().jobs.isEmpty)
        }
        #expect(loads.value <= values + errors)
        print("CoalescerStressTests: \(values) values, \(errors) errors, \(loads.value) loads in \(rounds) rounds")
    }
}
