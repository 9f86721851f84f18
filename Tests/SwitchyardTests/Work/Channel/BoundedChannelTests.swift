import Synchronization
import Switchyard
import SwitchyardTesting
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
