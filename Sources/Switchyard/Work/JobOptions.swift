/// What happens to a dependent job when one of its dependencies fails or is cancelled.
///
/// A dependency that succeeds always releases its dependents. The policy is per edge: one job may run anyway
/// after one dependency and be cancelled by another.
public enum DependencyPolicy: Sendable, Hashable {
    /// The dependent is cancelled (it reports ``JobError/cancelled`` and never runs). The default, and the only sensible
    /// choice when the dependent needs the dependency's value.
    case cancelDependent
    /// The dependent fails with ``JobError/dependencyFailed(dependency:error:)`` carrying the dependency's error, and
    /// never runs. Its own dependents then see it fail.
    case propagateFailure
    /// The dependent runs once the dependency has finished, whatever the outcome (Foundation `Operation`'s rule).
    case runAnyway
}

/// The policy of an edge whose value the dependent consumes: it cannot run without the value.
public enum ResultDependencyPolicy: Sendable, Hashable {
    /// See ``DependencyPolicy/cancelDependent``.
    case cancelDependent
    /// See ``DependencyPolicy/propagateFailure``.
    case propagateFailure

    var policy: DependencyPolicy { self == .cancelDependent ? .cancelDependent : .propagateFailure }
}

/// An edge to a job that must finish before another starts, with the edge's failure policy.
public struct Dependency: Sendable {
    let node: JobNode
    /// What happens to the dependent if this dependency fails or is cancelled.
    public let policy: DependencyPolicy

    /// An edge to `job`.
    public init<Success, Failure>(_ job: Job<Success, Failure>, policy: DependencyPolicy = .cancelDependent) {
        node = job.node
        self.policy = policy
    }
}

/// Everything about a submitted job besides its name, priority and body. Build it with the initializer and the
/// chaining methods:
///
/// ```swift
/// let options = JobOptions(group: thumbnails)
///     .delayed(by: .seconds(2), clock: clock)
///     .timeout(.seconds(30), clock: clock)
///     .retrying(.exponential(maximumAttempts: 4, initial: .milliseconds(100)), clock: clock)
/// ```
///
/// Every clock parameter accepts any `Clock` measuring `Duration`, so tests pass a manual clock.
public struct JobOptions: Sendable {
    /// The group the job joins (see ``JobGroup``).
    public var group: JobGroup?
    /// Jobs that must finish first, each with its edge policy. Typed-result dependencies are given to `submit`'s
    /// `after:` parameter instead.
    public var dependencies: [Dependency]
    /// Whether the job waits, after submission, until ``Job/release()``. While held (and until it starts),
    /// dependencies can still be added with ``Job/addDependency(_:policy:)``.
    public var isHeld: Bool
    /// Whether the job is a barrier of its queue: it starts only after every job submitted to the queue before it
    /// has finished (whatever the outcome), and every job submitted after it starts only after it has finished.
    /// Jobs of other queues are not held back. A barrier cancelled before it runs finishes at once as cancelled,
    /// and a stand-in barrier (an empty async body) keeps the order for the jobs after it. Any body works: async or
    /// blocking, with or without inputs. Submitting one costs O(unfinished jobs submitted to the queue before it).
    public var isBarrier: Bool

    /// Delay, timeout and retry, if any were set: one shared immutable object, so options without them (nearly
    /// all) copy and destroy three references, not six, and a job takes this object as is.
    var timing: JobTiming?

    /// Options with a group, dependencies, hold and barrier; no delay, timeout or retry.
    public init(
        group: JobGroup? = nil, dependencies: [Dependency] = [], isHeld: Bool = false, isBarrier: Bool = false
    ) {
        self.group = group
        self.dependencies = dependencies
        self.isHeld = isHeld
        self.isBarrier = isBarrier
    }

    /// These options with ``isBarrier`` set: the job is a barrier of its queue.
    public func barrier() -> JobOptions {
        var copy = self
        copy.isBarrier = true
        return copy
    }

    /// The job becomes ready only after `delay` has passed on `clock`, measured from submission. Cancelling it before
    /// then cancels the timer: it never runs (unlike `DispatchQueue.asyncAfter`). While it waits, it holds no slot.
    public func delayed<C: Clock>(by delay: Duration, clock: C) -> JobOptions where C.Duration == Duration {
        var copy = self
        copy.timing = JobTiming(
            delay: Sleeper(duration: delay) { try await clock.sleep(for: $0) }, timeout: timing?.timeout,
            retry: timing?.retry)
        return copy
    }

    /// The job's task is cancelled if one attempt runs longer than `timeout` on `clock`; the job then reports
    /// ``JobError/timedOut`` (unless the retry policy retries timeouts).
    public func timeout<C: Clock>(_ timeout: Duration, clock: C) -> JobOptions where C.Duration == Duration {
        var copy = self
        copy.timing = JobTiming(
            delay: timing?.delay, timeout: Sleeper(duration: timeout) { try await clock.sleep(for: $0) },
            retry: timing?.retry)
        return copy
    }

    /// A failed attempt is retried per `policy`, waiting on `clock` between attempts. While it waits, the job holds
    /// no slot; cancelling it then ends it at once.
    public func retrying<C: Clock>(_ policy: RetryPolicy, clock: C) -> JobOptions where C.Duration == Duration {
        var copy = self
        copy.timing = JobTiming(
            delay: timing?.delay, timeout: timing?.timeout,
            retry: RetryPlan(policy: policy) { try await clock.sleep(for: $0) })
        return copy
    }

    /// Adds a dependency edge (see ``Dependency``).
    public func after<Success, Failure>(_ job: Job<Success, Failure>, policy: DependencyPolicy = .cancelDependent)
        -> JobOptions
    {
        var copy = self
        copy.dependencies.append(Dependency(job, policy: policy))
        return copy
    }
}

/// A clock-agnostic sleep of a fixed duration.
struct Sleeper: Sendable {
    let duration: Duration
    let sleep: @Sendable (Duration) async throws -> Void
}

struct RetryPlan: Sendable {
    let policy: RetryPolicy
    let sleep: @Sendable (Duration) async throws -> Void
}
