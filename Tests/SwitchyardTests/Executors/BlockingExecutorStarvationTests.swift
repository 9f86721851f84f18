import SwitchyardTesting
import Testing

@testable import Switchyard

/// Blocking waits made on the executor's own threads can never take every thread from the work they wait for.
@Suite("BlockingExecutor: blocking waits on its own threads", .timeLimit(.minutes(1)))
struct BlockingExecutorStarvationTests {
    @Test("producers blocked on a full channel give up their threads to the consumer queued behind them")
    func waitersGiveUpTheirSlots() async throws {
        let executor = BlockingExecutor(name: "test-slots", maximumThreads: 2)
        let channel = BoundedChannel<Int>(capacity: 1, name: "items")
        let producers = (0..<2).map { index in
            Task { try await executor.run { for item in 0..<5 { try channel.sendBlocking(index * 10 + item) } } }
        }
        // Both threads are taken by producers before the consumer is queued.
        #expect(
            await arrange("both producers wait") {
                channel.description.contains("1/1") && executor.statistics.threads >= 2
            })
        let consumer = Task {
            try await executor.run { () throws -> Int in
                var received = 0
                while try channel.receiveBlocking() != nil { received += 1 }
                return received
            }
        }
        for producer in producers { try await producer.value }
        channel.finish()
        #expect(try await consumer.value == 10)
        #expect(executor.statistics.peakThreads <= executor.hardThreadLimit)
    }

    @Test("at the hard limit, a wait fails naming the executor and the channel instead of hanging")
    func starvationIsReported() async throws {
        let executor = BlockingExecutor(name: "test-starve", maximumThreads: 1)  // hard limit 2
        let channel = BoundedChannel<Int>(capacity: 1, name: "batches")
        let producers = (0..<2).map { index in
            Task { try await executor.run { for item in 0..<5 { try channel.sendBlocking(index * 10 + item) } } }
        }
        #expect(await arrange("both threads wait") { executor.statistics.threads == 2 })
        let consumer = Task {
            try await executor.run { () throws -> Int in
                var received = 0
                while try channel.receiveBlocking() != nil { received += 1 }
                return received
            }
        }
        // A wait that finds the executor starved fails; its thread then runs the consumer, so the rest proceed.
        var starved = 0
        for producer in producers {
            do {
                try await producer.value
            } catch let error as BlockingExecutorStarvation {
                starved += 1
                #expect(error.executor == "test-starve")
                #expect(error.description.contains("channel \"batches\""))
            }
        }
        #expect(starved >= 1)
        channel.finish()
        _ = try await consumer.value
    }
}
