import Synchronization

/// Where a job is in its life. Guarded by the engine lock.
enum JobPhase: UInt8 {
    /// Blocked: held, waiting for dependencies, a delay, a retry backoff or a barrier.
    case waiting
    /// In its queue's ready bucket, waiting for a slot.
    case ready
    /// Its task is running an attempt.
    case running
    /// Done; `outcome` says how.
    case finished
}

/// How a finished job ended.
@usableFromInline
enum JobOutcome {
    case succeeded
    case failed(any Error)
    case cancelled
    case timedOut
    case dependencyFailed(String, any Error)

    /// The error a dependent sees with ``DependencyPolicy/propagateFailure``.
    var errorForDependents: any Error {
        switch self {
        case .succeeded: preconditionFailure("JobOutcome: a successful job has no error")
        case .failed(let error): JobError<any Error>.failed(error)
        case .cancelled: JobError<any Error>.cancelled
        case .timedOut: JobError<any Error>.timedOut
        case .dependencyFailed(let name, let error):
            JobError<any Error>.dependencyFailed(dependency: name, error: error)
        }
    }

    var isSuccess: Bool { if case .succeeded = self { true } else { false } }
}

/// What a timer the job waits on is for.
enum TimerWait: UInt8 {
    case none, delay, retryBackoff
}

/// A dependency edge as stored on either end.
struct JobEdge {
    let node: JobNode
    let policy: DependencyPolicy
}

/// A task waiting for a job to finish.
struct JobAwaiter {
    /// Where the wait finds itself in the job's `awaiters` to leave in O(1), and where a deadlock found after it
    /// began is reported; nil for a wait from outside any job that is not cancellable.
    let slot: AwaiterSlot?
    /// The priority level the waiter contributes to the job's effective priority; raised when the waiting task is
    /// escalated.
    var level: Int
    let continuation: CheckedContinuation<Bool, Never>
    /// The running job whose body waits, if any.
    let waiter: JobNode?
    /// `waiter.blockGeneration` when the wait began: the wait belongs to that attempt of the waiter (-1 when the
    /// waiter was not running then: a wait left over from an earlier attempt never counts).
    let generation: Int
    /// Whether the wait counts towards deadlock detection (the awaited job has not started and needs a slot the
    /// waiter holds; see ``BlockedJobs``). Cleared when the awaited job starts or the wait ends; set again if the
    /// job goes back to waiting for a retry.
    var isCounted = false
}

/// The position of a wait in its job's `awaiters`, kept current as others leave (a leaving waiter's place is
/// taken by the last one), so a waiter leaves in O(1) however many wait; -1 once it is no longer there (it left,
/// the job finished, or the wait was ended as a deadlock, which `deadlock` then describes).
///
/// Unchecked-Sendable invariant: `index` and `deadlock` are read and written only while the engine lock is held
/// (the slot is captured by the wait's cancellation handler, which takes the lock, and the resumed wait reads
/// `deadlock` under the lock). Exercised under Thread Sanitizer by `CoalescerTests` and `DeadlockDetectionTests`.
final class AwaiterSlot: @unchecked Sendable {
    @exclusivity(unchecked) var index = -1
    @exclusivity(unchecked) var deadlock: DeadlockReport?
}

/// The engine's record of one job. Type-erased: ``TypedJobNode`` adds the typed body.
///
/// Unchecked-Sendable invariant: the `let` fields are immutable; every `var` is guarded by the engine lock
/// (of its queue's region, ``EngineRegion``), except that the job's own task runs the body and stores its value between the lock-protected
/// start and finish transitions (published to readers by that finish). Exercised under Thread Sanitizer by
/// `WorkQueueStressTests`.
///
/// The one-byte fields sit together: stored properties are laid out in declaration order, and scattering them
/// between word-sized ones would add padding to every job.
// Unchecked-Sendable invariant: see above (engine lock; the running task owns the value while it runs).
@usableFromInline
class JobNode: @unchecked Sendable {
    /// Set in ``reportedTotal`` while a report waits to be applied; totals are clamped below it.
    static var progressPendingBit: Int64 { 1 << 62 }
    /// One job's whole share of its sets' progress (fixed point).
    static var progressShareUnit: Int64 { 1 << 32 }

    let identifier: UInt64
    /// The job's number in its queue (``Job/number``).
    let number: UInt64
    let name: String
    let queue: WorkQueue
    /// When the job was submitted (see ``EngineClock``).
    let submittedAt: Duration
    let isBlocking: Bool
    let isBarrier: Bool
    @exclusivity(unchecked) var phase = JobPhase.waiting
    @exclusivity(unchecked) var isHeld = false
    @exclusivity(unchecked) var timerWait = TimerWait.none
    @exclusivity(unchecked) var cancelRequested = false
    @exclusivity(unchecked) var timedOut = false
    /// Set (releasing) once `outcome` and the value are final, so readers that see it (acquiring) may read them
    /// without the lock.
    @usableFromInline
    let isDone = Atomic<Bool>(false)

    /// Unfinished dependencies + hold + timer + barrier wait: the job becomes ready when this reaches zero.
    @exclusivity(unchecked) var blockers = 0
    /// Incremented when an attempt ends, retiring its counted waits.
    @exclusivity(unchecked) var blockGeneration = 0
    @exclusivity(unchecked) var requestedLevel: Int
    @exclusivity(unchecked) var effectiveLevel: Int
    @exclusivity(unchecked) var bucketLinks = JobLinks()
    @exclusivity(unchecked) var liveLinks = JobLinks()
    @exclusivity(unchecked) var epochLinks = JobLinks()
    @exclusivity(unchecked) var epoch: QueueEpoch?
    /// The worker running the current attempt. Unretained (a retain and a release under the lock per attempt
    /// otherwise): it is set only while the attempt runs on that worker, which its task (or, before the task
    /// exists, the transaction creating it) keeps alive, and cleared under the lock when the attempt ends.
    @exclusivity(unchecked) unowned(unsafe) var worker: Worker?
    @exclusivity(unchecked) var timing: JobTiming?
    @exclusivity(unchecked) var taskLocals: CapturedTaskLocals?
    @exclusivity(unchecked) var attempts = 0
    /// When the job first started (see ``EngineClock``).
    @exclusivity(unchecked) var startedAt: Duration?
    /// Progress as applied to the queue's and group's totals (see ``Engine/applyReportedProgress(_:_:)``).
    @exclusivity(unchecked) var progressCompleted: Int64 = 0
    @exclusivity(unchecked) var progressTotal: Int64 = 1
    /// The job's filled share of its sets' progress, in 1/2^32 of one job; never decreases.
    @exclusivity(unchecked) var progressShare: Int64 = 0
    /// The last report of the job's body, written without the engine lock (``JobContext/reportProgress``):
    /// `reportedTotal` carries ``progressPendingBit`` from the report that found it clear until the engine applies it.
    let reportedCompleted = Atomic<Int64>(0)
    let reportedTotal = Atomic<Int64>(1)
    @exclusivity(unchecked) var awaiters: [JobAwaiter] = []
    @usableFromInline
    @exclusivity(unchecked) var outcome: JobOutcome?
    /// The next older job while in the ``Intake`` (see there for who reads and writes it).
    @exclusivity(unchecked) var intakeNext: UnsafeMutableRawPointer?
    /// Runs one attempt, as ``runAttempt()`` does, but compiled for the job's concrete types: set by the inlinable
    /// `submit` functions (see ``TypedJobNode/attempt(of:)``). Nil for nodes made elsewhere, which use
    /// ``runAttempt()``. Set before the node is shared; never changed.
    @exclusivity(unchecked) var specializedAttempt: (@Sendable (JobNode) async -> AttemptEnd)?
    /// The state only some jobs use (dependencies, groups, timers, escalation, blocked waits, barriers,
    /// completion handlers), created by the first assignment of a value that is not the default, or the first
    /// in-place mutation (only code paths of jobs that use that state mutate it); see ``JobNodeExtras``.
    @exclusivity(unchecked) var extras: JobNodeExtras?

    init(
        identifier: UInt64, name: String, queue: WorkQueue, priority: JobPriority, isBlocking: Bool,
        isBarrier: Bool
    ) {
        self.identifier = identifier
        number = queue.jobNumbers.wrappingAdd(1, ordering: .relaxed).newValue
        self.name = name
        self.queue = queue
        self.isBlocking = isBlocking
        self.isBarrier = isBarrier
        requestedLevel = priority.level
        effectiveLevel = priority.level
        submittedAt = EngineClock.now()
    }

    /// The level of the highest contribution, or `requestedLevel`, whichever is higher.
    var computedEffectiveLevel: Int {
        var level = JobPriority.levelCount - 1
        while level > requestedLevel {
            if inherited[level] > 0 { return level }
            level -= 1
        }
        return requestedLevel
    }

    var isStarted: Bool { phase == .running || phase == .finished || attempts > 0 }

    /// `extras`, created if needed (lock held).
    var extrasForWriting: JobNodeExtras {
        if let extras { return extras }
        let created = JobNodeExtras()
        extras = created
        return created
    }

    /// The task running the current attempt: its worker's, once that task exists (nil while the job does not run,
    /// and while its worker's task is still being created: a new worker's task may already have run and been
    /// handed other jobs by then; ``Engine/startWorkers(for:)`` applies what was asked of the job meanwhile).
    /// Derived, not stored, so that no retain and release of it happen under the lock per attempt.
    var task: Task<Void, Never>? { worker?.task }

    // MARK: State in `extras` (read as defaults while there is none; a write of a default creates none)

    /// Incremented whenever a timer is armed, so a late or stale timer never fires or registers for a newer wait.
    var timerGeneration: Int {
        get { extras?.timerGeneration ?? 0 }
        set { if newValue != 0 || extras != nil { extrasForWriting.timerGeneration = newValue } }
    }
    /// Waits of this running job's body on jobs that have not started and share a scheduler node with it (see
    /// ``BlockedJobs``).
    var blockedWaits: Int {
        get { extras?.blockedWaits ?? 0 }
        set { if newValue != 0 || extras != nil { extrasForWriting.blockedWaits = newValue } }
    }
    /// The scheduler nodes this job is counted as blocked on, each with the number of its counted waits that need it.
    var blockedNodes: [BlockedNode] {
        get { extras?.blockedNodes ?? [] }
        set { if !newValue.isEmpty || extras != nil { extrasForWriting.blockedNodes = newValue } }
        _modify { yield &extrasForWriting.blockedNodes }
    }
    /// For a barrier: the epoch of earlier jobs it still waits for.
    var awaitedEpoch: QueueEpoch? {
        get { extras?.awaitedEpoch }
        set { if newValue != nil || extras != nil { extrasForWriting.awaitedEpoch = newValue } }
    }
    /// How many dependents and awaiters contribute each priority level (escalation).
    var inherited: SIMD8<Int32> {
        get { extras?.inherited ?? SIMD8() }
        set { if newValue != SIMD8() || extras != nil { extrasForWriting.inherited = newValue } }
        _modify { yield &extrasForWriting.inherited }
    }
    var dependencies: [JobEdge] {
        get { extras?.dependencies ?? [] }
        set { if !newValue.isEmpty || extras != nil { extrasForWriting.dependencies = newValue } }
        _modify { yield &extrasForWriting.dependencies }
    }
    var dependents: [JobEdge] {
        get { extras?.dependents ?? [] }
        set { if !newValue.isEmpty || extras != nil { extrasForWriting.dependents = newValue } }
        _modify { yield &extrasForWriting.dependents }
    }
    var groupLinks: JobLinks {
        get { extras?.groupLinks ?? JobLinks() }
        set { extrasForWriting.groupLinks = newValue }
        _modify { yield &extrasForWriting.groupLinks }
    }
    var group: JobGroup? {
        get { extras?.group }
        set { if newValue != nil || extras != nil { extrasForWriting.group = newValue } }
    }
    var timer: Task<Void, Never>? {
        get { extras?.timer }
        set { if newValue != nil || extras != nil { extrasForWriting.timer = newValue } }
    }
    var completionHandlers: [@Sendable () -> Void] {
        get { extras?.completionHandlers ?? [] }
        set { if !newValue.isEmpty || extras != nil { extrasForWriting.completionHandlers = newValue } }
        _modify { yield &extrasForWriting.completionHandlers }
    }

    /// A self-completing job's `start` (see ``JobCompletion``): called with the job and its attempt once the job
    /// holds its slot, in place of a worker running its body. Set before the node is shared; never changed.
    var starter: (@Sendable (JobNode, SelfCompletingAttempt) -> Void)? {
        get { extras?.starter }
        set { if newValue != nil || extras != nil { extrasForWriting.starter = newValue } }
    }
    /// A self-completing job's running attempt: what a cancellation reaches in place of a task.
    var selfCompletingAttempt: SelfCompletingAttempt? {
        get { extras?.selfCompletingAttempt }
        set { if newValue != nil || extras != nil { extrasForWriting.selfCompletingAttempt = newValue } }
    }

    /// Lock held: what cancels the running attempt (its task, or a self-completing job's handler), to run after the
    /// lock; nil when there is nothing to reach yet (a worker's task still being created applies it then).
    var attemptCanceller: (() -> Void)? {
        if let task { return { task.cancel() } }
        if let attempt = selfCompletingAttempt { return { attempt.cancel() } }
        return nil
    }

    // MARK: Overridden by TypedJobNode

    /// Runs one attempt of the body on the current task and stores its result. Called only by the job's task.
    func runAttempt() async -> AttemptEnd { preconditionFailure("JobNode.runAttempt must be overridden") }

    /// Moves the body (and everything it captured) into `transaction`, to be released after the lock.
    func discardBody(into transaction: inout Transaction) {}

    /// Releases the body; called by the job's own task after the lock hold that finished the job.
    func clearBody() {}
}

/// The part of a ``JobNode`` only some jobs use. A plain job (no dependencies, group, timer, escalation, barrier,
/// blocked wait or completion handler) never creates one, so it is allocated, initialized and destroyed without
/// these fields (most of them references, each released at deinit even when empty) and is smaller while it waits.
///
/// Unchecked-Sendable invariant: as ``JobNode`` (every field is guarded by the engine lock). Exercised under Thread
/// Sanitizer by `WorkQueueStressTests` (random dependency graphs, cancels and priority changes across threads).
final class JobNodeExtras: @unchecked Sendable {
    @exclusivity(unchecked) var timerGeneration = 0
    @exclusivity(unchecked) var blockedWaits = 0
    @exclusivity(unchecked) var blockedNodes: [BlockedNode] = []
    @exclusivity(unchecked) var awaitedEpoch: QueueEpoch?
    @exclusivity(unchecked) var inherited = SIMD8<Int32>()
    @exclusivity(unchecked) var dependencies: [JobEdge] = []
    @exclusivity(unchecked) var dependents: [JobEdge] = []
    @exclusivity(unchecked) var groupLinks = JobLinks()
    @exclusivity(unchecked) var group: JobGroup?
    @exclusivity(unchecked) var timer: Task<Void, Never>?
    @exclusivity(unchecked) var completionHandlers: [@Sendable () -> Void] = []
    @exclusivity(unchecked) var starter: (@Sendable (JobNode, SelfCompletingAttempt) -> Void)?
    @exclusivity(unchecked) var selfCompletingAttempt: SelfCompletingAttempt?
}

/// How one attempt of a job's body ended.
@usableFromInline
enum AttemptEnd {
    case success
    case failure(any Error)
}

/// A job's delay, timeout and retry settings; allocated only for options that have any, and shared by every job
/// submitted with those options.
final class JobTiming: Sendable {
    let delay: Sleeper?
    let timeout: Sleeper?
    let retry: RetryPlan?

    init(delay: Sleeper?, timeout: Sleeper?, retry: RetryPlan?) {
        self.delay = delay
        self.timeout = timeout
        self.retry = retry
    }
}

/// The jobs of a queue submitted between two barriers. Guarded by the engine lock.
final class QueueEpoch {
    /// Jobs of this epoch that have not finished, in submission order.
    @exclusivity(unchecked) var members = JobList(.epoch)
    /// How many: `members.count`.
    var unfinished: Int { members.count }
    /// The barrier submitted after this epoch, waiting for `unfinished` to reach zero.
    @exclusivity(unchecked) var barrier: JobNode?
}
