/// Why a job produced no value: the error `Job.value` throws.
///
/// `Failure` is the error type the job's body throws (`Never` for a body that cannot throw), so a caller that
/// switches over the cases gets the body's own error typed.
///
/// The description says what happened to the job (`cancelled`, `timed out`, `failed: <the body's error>`,
/// `dependency "a" failed: <its error>`) without naming it: print it with the job, `"\(job): \(error)"`
/// (``Job/description`` names the job, its number and its queue).
public enum JobError<Failure: Error>: Error, CustomStringConvertible, JobErrorDescribing {
    /// The body ran and threw `error`.
    case failed(Failure)
    /// The job was cancelled — by its handle, its queue's `cancelAll()`, its group, a failed dependency whose edge
    /// policy is ``DependencyPolicy/cancelDependent``, or a coalesced request whose last waiter left. A job cancelled
    /// while pending never ran; a running job that was cancelled and then threw reports this case instead of its
    /// error. A running job that finishes with a value despite cancellation reports its value.
    case cancelled
    /// The job ran longer than its timeout (``JobOptions/timeout(_:clock:)``); its task was cancelled and whatever it
    /// returned was discarded.
    case timedOut
    /// A dependency failed or was cancelled, and the edge's policy is ``DependencyPolicy/propagateFailure``. The job
    /// never ran. `error` is the dependency's failure (a ``JobError`` of its own type).
    case dependencyFailed(dependency: String, error: any Error)
    /// Awaiting the job could never finish: the awaiting job holds a slot that the awaited one needs. Thrown by the
    /// awaiting call only; the awaited job itself is unaffected.
    case wouldDeadlock(DeadlockReport)

    public var description: String {
        switch self {
        case .failed(let error): "failed: \(error)"
        case .cancelled: "cancelled"
        case .timedOut: "timed out"
        case .dependencyFailed(let name, let error):
            // What happened to the dependency reads after its name: `dependency "a" cancelled`, not
            // `failed: cancelled`; `dependency "b" failed: dependency "a" …` along a chain.
            "dependency \"\(name)\" " + ((error as? any JobErrorDescribing)?.outcomeDescription ?? "failed: \(error)")
        case .wouldDeadlock(let report): report.description
        }
    }
}

/// A ``JobError`` of any `Failure`, for describing one inside another.
protocol JobErrorDescribing {
    /// What happened, after the job's name: `cancelled`, `timed out`, `failed: …`.
    var outcomeDescription: String { get }
}

extension JobError {
    var outcomeDescription: String {
        if case .dependencyFailed = self { return "failed: \(self)" }
        return description
    }
}

/// A wait that would never end, found when it began: names both jobs and the domain whose slots they compete for.
public struct DeadlockReport: Sendable, Hashable, CustomStringConvertible {
    /// The job whose body awaited.
    public let waitingJob: String
    /// The job it awaited, which has not started.
    public let awaitedJob: String
    /// The queue or limit domain whose width is filled by running jobs waiting for work that needs its slots.
    public let domain: String
    /// The domain's width when the deadlock was found (a wait can end this way after it began, when the width
    /// shrinks or the awaited job goes back to waiting for a retry).
    public let width: Int

    public var description: String {
        "deadlock: job \"\(waitingJob)\" awaits job \"\(awaitedJob)\", which has not started and needs a slot in "
            + "\"\(domain)\" (width \(width)), whose slots are all held by jobs waiting on work that has not started"
    }
}

/// Why a job could not be submitted.
public struct SubmissionError: Error, Hashable, CustomStringConvertible {
    /// What went wrong, as a value to switch over.
    public enum Code: Sendable, Hashable {
        /// The queue's pending-job bound is reached (``WorkQueue/OverflowPolicy/reject``, or `trySubmit`).
        case full
        /// The submitting task was cancelled while it waited for room in the queue.
        case cancelled
    }

    /// What went wrong.
    public let code: Code
    /// The queue's name.
    public let queue: String
    /// The queue's pending-job bound.
    public let maximumPending: Int

    public var description: String {
        switch code {
        case .full:
            "queue \"\(queue)\" is full: \(maximumPending) jobs are pending (raise maximumPending, or use submit, "
                + "which waits for room)"
        case .cancelled:
            "submission to queue \"\(queue)\" was cancelled while waiting for room (\(maximumPending) pending)"
        }
    }
}

/// Why a dependency could not be added to a job.
public struct DependencyError: Error, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The edge would close a cycle; ``DependencyError/cycle`` lists it.
        case cycle
        /// The dependent job has already started or finished.
        case alreadyStarted
        /// A job cannot depend on itself.
        case selfDependency
    }

    /// What went wrong.
    public let code: Code
    /// The name of the queue of the job that was to gain the dependency.
    public let queue: String
    /// The job that was to gain the dependency.
    public let dependent: String
    /// The job it was to depend on.
    public let dependency: String
    /// For ``Code/cycle``: the names along the cycle, starting and ending with `dependent`.
    public let cycle: [String]

    public var description: String {
        switch code {
        case .cycle:
            "adding dependency \"\(dependency)\" to job \"\(dependent)\" of queue \"\(queue)\" would close the cycle "
                + cycle.map { "\"\($0)\"" }.joined(separator: " → ")
        case .alreadyStarted:
            "job \"\(dependent)\" of queue \"\(queue)\" has already started; dependencies can be added only before a "
                + "job starts"
        case .selfDependency:
            "job \"\(dependent)\" of queue \"\(queue)\" cannot depend on itself"
        }
    }
}
