import Foundation
import Synchronization

/// A task executor (and serial executor, at width 1) backed by exactly `width` dedicated threads: a stand-in for
/// a cooperative pool narrowed to 1 or 2 threads, so tests can arrange "every pool thread is blocked" exactly.
///
/// Jobs run in FIFO order. The threads never exit: a test that hangs leaves them blocked, and the test's watchdog
/// reports the hang instead of the process waiting for ever.
///
/// Unchecked-Sendable invariant: `queue` is read and written only between `condition.lock()` and
/// `condition.unlock()`. Exercised under Thread Sanitizer by `MixedAccessDeadlockTests`.
final class NarrowPool: TaskExecutor, SerialExecutor, @unchecked Sendable {
    let width: Int
    private let condition = NSCondition()
    private var queue: [UnownedJob] = []

    init(width: Int, name: String) {
        self.width = width
        for index in 0..<width {
            let thread = Thread { [self] in run() }
            thread.name = "\(name) \(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    private func run() {
        while true {
            condition.lock()
            while queue.isEmpty { condition.wait() }
            let job = queue.removeFirst()
            condition.unlock()
            if width == 1 {
                job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
            } else {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }
}

/// An actor whose code runs on one dedicated thread (like the main actor on the main thread).
actor PinnedActor {
    let pool = NarrowPool(width: 1, name: "pinned actor")
    nonisolated var unownedExecutor: UnownedSerialExecutor { pool.asUnownedSerialExecutor() }

    func run<Result: Sendable>(_ body: @Sendable (isolated PinnedActor) async -> Result) async -> Result {
        await body(self)
    }
}

/// Polls `condition` from the calling task (which must not be on the pool under test) until it holds, yielding
/// between polls; fails the arrangement after `limit` instead of waiting for ever.
func arrange(
    _ what: String, within limit: Duration = .seconds(20), until condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        await Task.yield()
    }
    return true
}
