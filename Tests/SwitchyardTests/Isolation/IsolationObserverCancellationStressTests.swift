import Dispatch
import Switchyard
import SwitchyardTesting
import Testing

/// Consumers of `values()` streams, each with a cancellation handler that itself accesses the observed value, are
/// cancelled at random moments while writers write as fast as they can. Cancelling a task runs its handlers under
/// the task's status lock, and handing a value to the task's stream takes that same lock; a writer that yielded
/// while still holding the value's lock would wait for the handler, which waits for the value: a deadlock. The
/// isolation types therefore hand values over only after releasing the lock. The handlers block (they are
/// synchronous), so the test cancels from a thread outside the cooperative pool. The seed is printed; rerun with
/// `SWITCHYARD_SEED=<seed>`.
@Suite("Isolation observers cancelled while writers write: stress", .timeLimit(.minutes(3)))
struct IsolationObserverCancellationStressTests {
    @Test("a consumer whose cancellation handler accesses the value is cancelled mid-stream without deadlock")
    func cancelHandlersThatAccessTheValue() async {
        let seed = SeededRandomNumberGenerator.forTest("IsolationObserverCancellationStressTests").seed
        let counter = Isolated(0, label: "observed counter")
        let shared = ReadWriteIsolated(0, label: "observed shared")
        let rounds = SharedCounter()
        let finished = await untilStalled(
            progress: { rounds.value },
            onStall: {
                let state = "\(counter.debugDescription); \(shared.debugDescription)"
                Issue.record("round \(rounds.value) stalled for 30 s (seed \(seed)): \(state)")
            }
        ) {
            var random = SeededRandomNumberGenerator(seed: seed)
            for _ in 0..<300 {
                let consumers = [
                    Task {
                        await withTaskCancellationHandler {
                            for await _ in counter.values(bufferingPolicy: .unbounded) {}
                        } onCancel: {
                            counter.withValueBlocking { $0 += 0 }
                        }
                    },
                    Task {
                        await withTaskCancellationHandler {
                            for await _ in shared.values(bufferingPolicy: .unbounded) {}
                        } onCancel: {
                            shared.writeBlocking { $0 += 0 }
                        }
                    },
                ]
                let writers = (0..<2).map { _ in
                    Task.detached {
                        for _ in 0..<200 {
                            await counter.withValue { $0 += 1 }
                            await shared.write { $0 += 1 }
                        }
                    }
                }
                for _ in 0..<Int.random(in: 0..<8, using: &random) { await Task.yield() }
                // Cancel from a thread outside the cooperative pool: the handlers block while they wait for the value,
                // and a pool thread blocked there could starve the writer task the value was handed to.
                let order = consumers.shuffled(using: &random)
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    DispatchQueue.global().async {
                        for consumer in order { consumer.cancel() }
                        done.resume()
                    }
                }
                for writer in writers { await writer.value }
                for consumer in consumers { await consumer.value }
                rounds.add()
            }
        }
        guard finished else { return }
        #expect(await counter.read { $0 } == 300 * 2 * 200, "seed \(seed)")
        #expect(await shared.read { $0 } == 300 * 2 * 200, "seed \(seed)")
    }
}
