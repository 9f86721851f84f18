import Testing

@testable import Switchyard

@Suite("BlockingExecutor: shutdown", .timeLimit(.minutes(1)))
struct BlockingExecutorShutdownTests {
    @Test("shutdown lets queued work finish, then every thread exits; later work still runs")
    func shutdownJoinsThreads() async throws {
        let executor = BlockingExecutor(name: "test-stop", maximumThreads: 2, idleTimeout: .seconds(3_600))
        let ran = SharedCounter()
        for _ in 0..<6 { executor.execute { ran.add() } }
        await executor.shutdown()
        #expect(ran.value == 6, "queued work finished first")
        #expect(executor.statistics.threads == 0)
        try await executor.run { _ = ran.add() }
        await executor.shutdown()
        #expect(ran.value == 7)
        #expect(executor.statistics.threads == 0)
    }
}
