/// Where a job is in its life.
public enum JobState: Sendable, Hashable, CustomStringConvertible {
    /// Submitted, blocked: see ``WaitingReason``.
    case waiting
    /// Ready, waiting for a slot.
    case ready
    /// An attempt is running.
    case running
    /// Finished with a value.
    case succeeded
    /// Finished: the body threw.
    case failed
    /// Finished: cancelled.
    case cancelled
    /// Finished: the attempt exceeded its timeout.
    case timedOut
    /// Finished: a dependency failed and the edge propagates failure.
    case dependencyFailed

    /// Whether the job has finished (any outcome).
    public var isFinished: Bool {
        switch self {
        case .waiting, .ready, .running: false
        default: true
        }
    }

    /// Read under the engine lock.
    init(_ job: JobNode) {
        switch job.phase {
        case .waiting: self = .waiting
        case .ready: self = .ready
        case .running: self = .running
        case .finished:
            switch job.outcome {
            case .succeeded: self = .succeeded
            case .failed: self = .failed
            case .cancelled, nil: self = .cancelled
            case .timedOut: self = .timedOut
            case .dependencyFailed: self = .dependencyFailed
            }
        }
    }

    public var description: String {
        switch self {
        case .waiting: "waiting"
        case .ready: "ready"
        case .running: "running"
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .cancelled: "cancelled"
        case .timedOut: "timed out"
        case .dependencyFailed: "dependency failed"
        }
    }
}
