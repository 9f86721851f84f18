import Switchyard
import SwitchyardTesting
import Synchronization
import Testing

@Suite("BoundedChannel")
struct BoundedChannelTests {
    @Test("FIFO through the buffer; finish drains, then nil; send after finish throws")
    func orderAndFinish() async throws {
        let channel = BoundedChannel<Int>(capacity: 3, name: "numbers")
        for value in 0..<3 { #expect(try channel.trySend(value)) }
        #expect(try channel.trySend(3) == false)
        #expect(channel.count == 3)
        #expect(channel.description == "BoundedChannel(\"numbers\", 3/3)")
        channel.finish()
        await #expect(throws: ChannelError.finished) { try await channel.send(9) }
        var received: [Int] = []
        for try await value in channel { received.append(value) }
        #expect(received == [0, 1, 2])
        #expect(try await channel.receive() == nil)
        #expect(channel.isClosed)
    }

    @Test("a sender waits while the buffer is full and resumes when a receive makes room")
    func backPressure() async throws {
        let channel = BoundedChannel<Int>(capacity: 1, name: "one")
        try await channel.send(1)
        let sent = Atomic<Int>(0)
        let sender = Task {
            try await channel.send(2)
            sent.store(1, ordering: .releasing)
        }
        // The second send cannot complete until the first element is taken.
        #expect(try await channel.receive() == 1)
        try await sender.value
        #expect(sent.load(ordering: .acquiring) == 1)
        #expect(try await channel.receive() == 2)
    }

    @Test("fail drops the buffer and reaches waiting senders and receivers, sync and async")
    func failure() async throws {
        struct Stop: Error, Equatable {}
        let full = BoundedChannel<Int>(capacity: 1, name: "full")
        try await full.send(1)
        let waitingSender = Task { try await full.send(2) }
        let empty = BoundedChannel<Int>(capacity: 1, name: "empty")
        let waitingReceiver = Task { try await empty.receive() }
        await Task.yield()
        full.fail(Stop())
        empty.fail(Stop())
        await #expect(throws: Stop.self) { try await waitingSender.value }
        await #expect(throws: Stop.self) { try await waitingReceiver.value }
        #expect(full.count == 0)
        #expect(throws: Stop.self) { try full.receiveBlocking() }
        #expect(throws: Stop.self) { try full.sendBlocking(3) }
    }

    @Test("cancelling a waiting sender or receiver throws CancellationError and leaves the channel usable")
    func cancellation() async throws {
        let channel = BoundedChannel<Int>(capacity: 1, name: "c")
        let receiver = Task { try await channel.receive() }
        receiver.cancel()
        await #expect(throws: CancellationError.self) { try await receiver.value }
        try await channel.send(1)
        let sender = Task { try await channel.send(2) }
        sender.cancel()
        await #expect(throws: CancellationError.self) { try await sender.value }
        #expect(try await channel.receive() == 1)
        #expect(channel.count == 0)
    }

    @Test("random waiting receivers and senders leave; the rest are served first in, first out")
    func cancelledWaitersLeaveInAnyOrder() async throws {
        var random = SeededRandomNumberGenerator.forTest("BoundedChannel.cancelledWaitersLeaveInAnyOrder")
        let count = 300
        let channel = BoundedChannel<Int>(capacity: 1, name: "leaving")
        // Receivers wait in a known order: each is started once the one before it waits.
        var receivers: [Task<Int?, any Error>] = []
        for index in 0..<count {
            receivers.append(Task { try await channel.receive() })
            while channel.waitingReceivers < index + 1 { await Task.yield() }
        }
        #expect(channel.description == "BoundedChannel(\"leaving\", 0/1, \(count) receivers waiting)")
        let leaving = Set((0..<count).filter { _ in Bool.random(using: &random) })
        for index in (0..<count).shuffled(using: &random) where leaving.contains(index) { receivers[index].cancel() }
        for index in leaving {
            await #expect(throws: CancellationError.self) { try await receivers[index].value }
        }
        #expect(channel.waitingReceivers == count - leaving.count)
        let staying = (0..<count).filter { !leaving.contains($0) }
        for (value, index) in staying.enumerated() {
            try await channel.send(value)
            #expect(try await receivers[index].value == value, "receiver \(index) is served in its turn")
        }
        #expect(channel.waitingReceivers == 0)

        // Senders: the buffer is full, so each send waits; the ones that stay are accepted in their order.
        try await channel.send(-1)
        var senders: [Task<Void, any Error>] = []
        for index in 0..<count {
            senders.append(Task { try await channel.send(index) })
            while channel.waitingSenders < index + 1 { await Task.yield() }
        }
        let leavingSenders = Set((0..<count).filter { _ in Bool.random(using: &random) })
        for index in (0..<count).shuffled(using: &random) where leavingSenders.contains(index) {
            senders[index].cancel()
        }
        for index in leavingSenders {
            await #expect(throws: CancellationError.self) { try await senders[index].value }
        }
        #expect(channel.waitingSenders == count - leavingSenders.count)
        // Each receive lets the longest-waiting sender that stayed put its element in.
        var received: [Int] = []
        for _ in 0...(count - leavingSenders.count) { received.append(try #require(try await channel.receive())) }
        #expect(received == [-1] + (0..<count).filter { !leavingSenders.contains($0) })
        for index in 0..<count where !leavingSenders.contains(index) { try await senders[index].value }
        #expect(channel.waitingSenders == 0 && channel.count == 0)
    }

    @Test("blocking producers and consumers on threads with async ones: every element once, in order per producer")
    func mixedStress() async throws {
        var random = SeededRandomNumberGenerator.forTest("BoundedChannel.mixedStress")
        for _ in 0..<5 {
            let capacity = Int.random(in: 1...4, using: &random)
            let perProducer = Int.random(in: 200...2000, using: &random)
            let channel = BoundedChannel<Int>(capacity: capacity, name: "stress")
            let threadReceived = Mutex<[Int]>([])
            async let producerThreads: Void = onThreads(2) { index in
                for value in 0..<perProducer { try! channel.sendBlocking(index * 1_000_000 + value) }
            }
            async let consumerThread: Void = onThreads(1) { _ in
                var local: [Int] = []
                while let value = try! channel.receiveBlocking() { local.append(value) }
                threadReceived.withLock { $0 = local }
            }
            let asyncProducer = Task { for value in 0..<perProducer { try await channel.send(2_000_000 + value) } }
            let asyncConsumer = Task {
                var local: [Int] = []
                for try await value in channel { local.append(value) }
                return local
            }
            await producerThreads
            try await asyncProducer.value
            channel.finish()
            await consumerThread
            let fromAsync = try await asyncConsumer.value
            let fromThread = threadReceived.withLock { $0 }
            let all = fromThread + fromAsync
            #expect(all.count == perProducer * 3)
            #expect(Set(all).count == all.count)
            for consumer in [fromThread, fromAsync] {
                for producer in 0..<3 {
                    let values = consumer.filter { $0 / 1_000_000 == producer }
                    #expect(values == values.sorted(), "producer \(producer)'s values arrive in order")
                }
            }
        }
    }
}
