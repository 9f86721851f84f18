import Testing

@testable import Switchyard

@Suite("Barriers: a queue lets go of a barrier once it finished")
struct BarrierLifetimeTests {
    /// A barrier retains its queue, so a queue that kept its last barrier after it finished kept itself alive: a
    /// dropped queue and its last barrier leaked (found with AddressSanitizer's leak check).
    @Test("a finished barrier, run or cancelled, is no longer the queue's last barrier")
    func finishedBarrierReleased() async throws {
        let queue = WorkQueue(name: "barriers")
        let barrier = try queue.trySubmit("barrier", options: .init().barrier()) { 1 }
        #expect(try await barrier.value == 1)
        #expect(Engine.perform(in: queue.region) { _ in queue.lastBarrier == nil })

        queue.suspend()
        let cancelled = try queue.trySubmit("cancelled barrier", options: .init().barrier()) { 2 }
        #expect(Engine.perform(in: queue.region) { _ in queue.lastBarrier != nil })
        cancelled.cancel()
        queue.resume()
        await queue.waitUntilIdle()
        #expect(Engine.perform(in: queue.region) { _ in queue.lastBarrier == nil })
    }
}
