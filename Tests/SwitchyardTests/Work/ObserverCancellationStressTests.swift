import Switchyard
import SwitchyardTesting
import Testing

/// Consumers of progress and event streams cancelled at random moments while jobs report progress as fast as they
/// can. Cancelling a consumer runs its stream's `onTermination` under the task's status lock, and that handler
/// takes the engine lock; the engine must therefore never yield into a stream while holding its lock, or the two
/// deadlock. The seed is printed; rerun with `SWITCHYARD_SEED=<seed>`.
@Suite("Observers cancelled while jobs report: stress", .timeLimit(.minutes(3)))
struct ObserverCancellationStressTests {
    @Test("cancelling progress and event consumers mid-stream never deadlocks, and every job still finishes")
    func cancelConsumersWhileReporting() async throws {
        let seed = SeededRandomNumberGenerator.forTest("ObserverCancellationStressTests.cancelConsumers").seed
        let queue = WorkQueue(name: "observed", width: 2)
        let group = JobGroup(name: "observed group")
        let rounds = SharedCounter()
        let finished = await untilStalled(
            progress: { rounds.value },
            onStall: { Issue.record("round \(rounds.value) stalled for 30 s (seed \(seed)): \(queue)") }
        ) {
            var random = SeededRandomNumberGenerator(seed: seed)
            for round in 0..<300 {
                let consumers = [
                    Task { for await _ in queue.progressUpdates(interval: .zero, minimumChange: 0) {} },
                    Task {
                        for await _ in group.progressUpdates(
                            interval: .zero, minimumChange: 0, clock: ContinuousClock())
                        {}
                    },
                    Task { for await _ in queue.events() {} },
                ]
                // An open queue without a bound: `trySubmit` cannot throw.
                let reporters = (0..<2).map { index in
                    try! queue.trySubmit("reporter \(round).\(index)", options: JobOptions(group: group)) {
                        let context = JobContext.current!
                        for unit in 1...100 { context.reportProgress(completed: Int64(unit), total: 100) }
                    }
                }
                for _ in 0..<Int.random(in: 0..<8, using: &random) { await Task.yield() }
                for consumer in consumers.shuffled(using: &random) { consumer.cancel() }
                for reporter in reporters {
                    if case .failure(let error) = await reporter.result {
                        Issue.record("\(reporter.name) failed: \(error) (seed \(seed))")
                    }
                }
                for consumer in consumers { await consumer.value }
                rounds.add()
            }
        }
        guard finished else { return }
        await queue.waitUntilIdle()
        #expect(queue.currentProgress.isFinished, "seed \(seed)")
    }
}
