import Synchronization
import Testing

@testable import Switchyard

@Suite("Workers")
struct WorkerTests {
    #if SWITCHYARD_TEST_HOOKS
        /// A worker runs jobs back to back without suspending, but once its run has lasted its quantum it yields its
        /// thread: a task queued behind busy workers runs before their backlog is done.
        ///
        /// Event-driven, whatever the machine's speed: the queue's quantum is zero (a test hook), so a worker yields
        /// before every job it takes itself; and every job after the one that queues the late task holds its thread
        /// (a blocking wait, not a suspension) until that task has run. A worker that went on without yielding would
        /// run such a job on the thread the late task needs: with every cooperative thread held, the jobs' waits
        /// would end only by their 30 s timeout, which fails the test.
        @Test
        func longRunYieldsTheThread() async throws {
            let width = activeProcessorCount()  // one worker per cooperative thread: every thread is busy
            let jobs = width * 20
            let queue = WorkQueue(name: "backlog", width: width)
            Engine.perform(in: queue.region) { _ in queue.workerQuantum = .zero }
            let late = LateTask()
            queue.suspend()
            var handles: [Job<Void, Never>] = []
            handles.reserveCapacity(jobs)
            for index in 0..<jobs {
                handles.append(
                    try queue.trySubmit("busy \(index)") {
                        let count = late.jobsStarted.add(1, ordering: .relaxed).newValue
                        if count == width * 2 {
                            // Queued once every thread runs a worker; it can run only when one of them yields.
                            Task.detached(priority: Task.currentPriority) { late.run() }
                        } else if count > width * 2 {
                            late.waitUntilRun()  // holds the thread, as a computing job would
                        }
                    })
            }
            queue.resume()
            for handle in handles { try await handle.value }
            #expect(late.timedOut == false, "the late task did not run within 30 s: no worker yielded its thread")
            // It ran after the job that queued it and before any job after it finished (those wait for it): at
            // most `width` of them had started, one per worker.
            let seen = try #require(late.jobsStartedWhenRun)
            #expect((width * 2)...(width * 3) ~= seen, "the late task ran after \(seen) of \(jobs) jobs started")
            #expect(queue.counts.succeeded == jobs)
        }
    #endif
}

/// The task queued behind the workers, and the jobs that wait for it to have run.
///
/// Unchecked-Sendable invariant: `ranAfter` and `didTimeOut` are read and written only with `condition`'s mutex held.
private final class LateTask: @unchecked Sendable {
    /// Jobs started so far.
    let jobsStarted = Atomic<Int>(0)
    private let condition = PlatformCondition()
    private var ranAfter: Int?
    private var didTimeOut = false

    /// How many jobs had started when the late task ran; nil until then.
    var jobsStartedWhenRun: Int? {
        condition.lock()
        defer { condition.unlock() }
        return ranAfter
    }

    /// Whether a job gave up waiting for the late task (after 30 s).
    var timedOut: Bool {
        condition.lock()
        defer { condition.unlock() }
        return didTimeOut
    }

    /// The late task's body.
    func run() {
        condition.lock()
        ranAfter = jobsStarted.load(ordering: .relaxed)
        condition.unlock()
        condition.broadcast()
    }

    /// Blocks the calling thread until the late task has run; after 30 s without it, records the failure and lets
    /// every job go on.
    func waitUntilRun() {
        condition.lock()
        defer { condition.unlock() }
        while ranAfter == nil && !didTimeOut {
            if !condition.wait(timeout: .seconds(30)) { didTimeOut = true }
        }
    }
}
