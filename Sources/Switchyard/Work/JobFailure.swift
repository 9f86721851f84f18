/// A job that finished without success (failed, timed out, or failed because a dependency did), as kept by its
/// queue's ``WorkQueue/recentFailures``.
public struct JobFailure: Sendable {
    /// The job's process-unique identifier.
    public let identifier: UInt64
    /// The job's number in its queue (``Job/number``).
    public let number: UInt64
    /// The job's name.
    public let name: String
    /// ``JobState/failed``, ``JobState/timedOut`` or ``JobState/dependencyFailed``.
    public let state: JobState
    /// What the job's awaiters see: a ``JobError`` (`.failed` wraps the body's error).
    public let error: any Error
    /// Attempts it started (0 when it failed before its first).
    public let attempts: Int
    /// When it finished.
    public let finishedAt: ContinuousClock.Instant
}

extension WorkQueue {
    /// How many failures ``recentFailures`` keeps per queue.
    public static let recentFailureLimit = 32

    /// The queue's latest failures, newest first (at most ``recentFailureLimit``): what a dashboard shows as
    /// "recent failures". Kept from the queue's creation; a job that is retried is recorded once, when it finishes.
    /// - Complexity: O(``recentFailureLimit``) under the queue's lock. The errors are the jobs' own: describing them
    ///   (which may run their code) is up to the caller, outside any lock.
    public var recentFailures: [JobFailure] { Engine.perform(in: region) { _ in failuresNewestFirst() } }

    /// The kept failures, newest first. Lock held. Built element by element: copying an empty `Deque` wholesale
    /// (`reversed()`, `Array(_:)`) writes the count of the runtime's shared empty-array storage, which two queues
    /// doing it at once under their own locks would race on.
    func failuresNewestFirst() -> [JobFailure] {
        var newestFirst: [JobFailure] = []
        guard !failures.isEmpty else { return newestFirst }
        newestFirst.reserveCapacity(failures.count)
        for index in failures.indices.reversed() { newestFirst.append(failures[index]) }
        return newestFirst
    }

    /// Records a failed job, evicting the oldest record beyond the limit. Lock held: the evicted record (its error
    /// may be the last reference to a class instance) is released after the lock.
    func recordFailure(_ job: JobNode, _ outcome: JobOutcome, _ transaction: inout Transaction) {
        let state: JobState
        switch outcome {
        case .timedOut: state = .timedOut
        case .dependencyFailed: state = .dependencyFailed
        default: state = .failed
        }
        if failures.count == Self.recentFailureLimit {
            transaction.discardedValues.append(failures.removeFirst())
        }
        failures.append(
            JobFailure(
                identifier: job.identifier, number: job.number, name: job.name, state: state,
                error: outcome.errorForDependents, attempts: job.attempts, finishedAt: .now))
    }
}
