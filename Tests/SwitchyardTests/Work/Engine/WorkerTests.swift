import Synchronization
import Testing

@testable import Switchyard

@Suite("Workers")
struct WorkerTests {
    /// A worker runs jobs back to back without suspending, but once its run has lasted `Worker.quantum` it yields
    /// its thread: a task queued behind busy workers gets to run long before their backlog is done.
    // The limit only guards against a hang: the jobs compute on every cooperative thread beside the other suites,
    // and with the engine's internal checks a slow spell of the machine once took this past a minute.
    @Test(.timeLimit(.minutes(3)))
    func longRunYieldsTheThread() async throws {
        let width = activeProcessorCount()  // one worker per cooperative thread: every thread is busy
        let jobs = width * 200  // each worker: 200 jobs of 200 µs of work, 40 quanta
        let queue = WorkQueue(name: "backlog", width: width)
        let counters = Counters()
        queue.suspend()
        var handles: [Job<Void, Never>] = []
        handles.reserveCapacity(jobs)
        for index in 0..<jobs {
            handles.append(
                try queue.trySubmit("busy \(index)") {
                    Self.work(for: .microseconds(200))  // computing, not suspending: the thread stays taken
                    let count = counters.ran.add(1, ordering: .relaxed).newValue
                    // Queued once every thread runs a worker; it can run only when one of them yields.
                    if count == width * 2 {
                        Task.detached(priority: Task.currentPriority) {
                            counters.seenByLateTask.store(counters.ran.load(ordering: .relaxed), ordering: .relaxed)
                        }
                    }
                })
        }
        queue.resume()
        for handle in handles { try await handle.value }
        let seen = counters.seenByLateTask.load(ordering: .relaxed)
        #expect(seen >= 0 && seen < jobs / 2, "the late task ran after \(seen) of \(jobs) jobs")
    }

    /// Keeps the calling thread busy for `duration`, as a computing job would.
    private static func work(for duration: Duration) {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end {}
    }
}

private final class Counters: Sendable {
    let ran = Atomic<Int>(0)
    /// How many jobs had run when the late task ran; -1 until then.
    let seenByLateTask = Atomic<Int>(-1)
}
