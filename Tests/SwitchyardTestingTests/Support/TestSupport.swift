import Dispatch
import Synchronization
import Testing

/// A known-issue matcher accepting issues whose comments contain every string in `fragments`.
func mentions(_ fragments: String...) -> KnownIssueMatcher {
    { issue in
        let text = issue.comments.map(\.rawValue).joined(separator: "\n")
        return fragments.allSatisfy { text.contains($0) }
    }
}

/// A thread-safe, append-only log of values, for observing the order in which tasks ran.
final class Log<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    var entries: [Value] {
        values.withLock { $0 }
    }
}

/// A task executor that runs jobs one at a time, in the order they were enqueued.
///
/// Tasks created with `Task(executorPreference:)` run their nonisolated code here, so the order in
/// which their continuations are resumed is the order in which they run.
final class SerialTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "SwitchyardTestingTests.SerialTaskExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}

/// Runs `body` on a Dispatch global-queue thread (never a Swift concurrency thread) and returns once
/// it has finished.
func onDispatchThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            body()
            continuation.resume()
        }
    }
}
