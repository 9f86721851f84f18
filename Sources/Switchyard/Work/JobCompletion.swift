/// The running attempt of a job that completes itself: its work runs elsewhere (an event loop, a callback API) and
/// the job holds its queue's slot, counted as running, until ``succeed(_:)`` or ``fail(_:)`` is called.
///
/// Such a job has no task of its own: the engine calls its `start` closure (see
/// ``WorkQueue/trySubmitSelfCompleting(_:priority:start:)`` and ``Coalescer/value(for:priority:start:)``) once the job holds its slot, after releasing its lock, on the thread
/// that started the job (a submitter's, or one that finished another job). `start` must not block or wait: it
/// begins the work and returns; whatever carries the work out calls ``succeed(_:)`` or ``fail(_:)`` later, from any
/// thread (or at once, even before `start` returns). Until then the job runs, and the thread that completes it
/// resumes the job's waiters.
///
/// - `start` runs outside the job's context: ``JobContext/current`` is not this job, and the queue's propagated
///   task-locals are not bound. A task it creates inherits the starting thread's task-locals and priority, not the
///   job's: create one detached, at the priority it needs. The job's priority still orders it among waiting jobs
///   and is escalated by its waiters, but reaches no thread or task of the work.
/// - No timeout or retry applies: the work that `start` begins keeps its own.
///
/// - Cancellation: cancelling the job (``Job/cancel()``, its last waiter leaving a coalesced job,
///   ``WorkQueue/cancelAll()``) runs the handler given to ``onCancel(_:)`` once, on the thread that cancelled,
///   after the engine's lock is released; the job still runs until completed. A job completed after its
///   cancellation finishes as it would after a task that ignored its cancellation: with the value, or cancelled
///   when it fails.
/// - Misuse: only the first ``succeed(_:)`` or ``fail(_:)`` counts; later calls are ignored. A job never completed
///   keeps its slot forever.
/// - Thread-safe. ``onCancel(_:)`` and completion are O(1).
public struct JobCompletion<Success: Sendable, Failure: Error>: Sendable {
    let node: TypedJobNode<Success, Failure>
    let attempt: SelfCompletingAttempt

    /// Whether the job was cancelled while this attempt runs.
    public var isCancelled: Bool { attempt.isCancelled }

    /// Sets what runs when the job is cancelled: at once, on this thread, if it already was; otherwise once, when
    /// it is (replacing a handler set before). Not called after the attempt completed.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        attempt.onCancel(handler)?()
    }

    /// Completes the job with `value`: it finishes (or, cancelled and failing, is cancelled), its slot goes to the
    /// next job, and its waiters are resumed.
    public func succeed(_ value: Success) {
        // Stored before the completion is recorded (whoever ends the attempt reads it after that, under the lock),
        // and only by the first completion: a later one finds the value already set and is ignored.
        guard attempt.claim() else { return }
        node.storeValue(value)
        if attempt.complete(.success) == .now { Engine.attemptCompleted(node, attempt, end: .success) }
    }

    /// Completes the job with `error`.
    public func fail(_ error: Failure) {
        guard attempt.claim() else { return }
        if attempt.complete(.failure(error)) == .now { Engine.attemptCompleted(node, attempt, end: .failure(error)) }
    }
}

/// The hand-shake of one attempt of a self-completing job: cancellation, completion, and a completion that arrives
/// while the job's `start` closure is still running. A pure state machine (``SelfCompletingAttempt`` guards one
/// with a lock); each transition returns what the caller must do after releasing that lock.
struct SelfCompletingAttemptState {
    enum Phase: Equatable {
        case running
        case cancelled
        case completed
    }

    /// What a completion must do.
    enum Completion {
        /// Nothing: the attempt had completed already.
        case ignored
        /// End the attempt in the engine now.
        case now
        /// Nothing yet: `start` is still running; its caller ends the attempt once `start` returns.
        case deferred
    }

    private(set) var phase = Phase.running
    private var handler: (@Sendable () -> Void)?
    private var isStarting = false
    private var isClaimed = false
    private var deferredEnd: AttemptEnd?

    /// Claims the completion for one caller (before it stores a value); false for every later one.
    mutating func claim() -> Bool {
        guard !isClaimed else { return false }
        isClaimed = true
        return true
    }

    /// `start` is about to run.
    mutating func beginStart() { isStarting = true }

    /// `start` returned; the end of an attempt completed meanwhile, which the caller must now carry out.
    mutating func endStart() -> AttemptEnd? {
        isStarting = false
        defer { deferredEnd = nil }
        return deferredEnd
    }

    /// Installs `handler`; returns it when it must run now (the attempt was already cancelled).
    mutating func install(_ handler: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)? {
        switch phase {
        case .running:
            self.handler = handler
            return nil
        case .cancelled: return handler
        case .completed: return nil
        }
    }

    /// Records the cancellation; returns the handler to run (once), if one is installed.
    mutating func cancel() -> (@Sendable () -> Void)? {
        guard phase == .running else { return nil }
        phase = .cancelled
        defer { handler = nil }
        return handler
    }

    /// Records the completion with `end`, and drops the handler.
    mutating func complete(_ end: AttemptEnd) -> Completion {
        guard phase != .completed else { return .ignored }
        phase = .completed
        handler = nil
        guard isStarting else { return .now }
        deferredEnd = end
        return .deferred
    }

    var isCancelled: Bool { phase == .cancelled }
}

/// One attempt of a self-completing job, shared by the engine (which starts and cancels it) and its
/// ``JobCompletion``. Made under the engine's lock when the job starts.
final class SelfCompletingAttempt: Sendable {
    private let state = PlatformLock(SelfCompletingAttemptState())

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    func onCancel(_ handler: @escaping @Sendable () -> Void) -> (@Sendable () -> Void)? {
        state.withLock { $0.install(handler) }
    }

    /// Runs the cancellation handler, if any. No lock held while it runs.
    func cancel() {
        let handler = state.withLock { $0.cancel() }
        handler?()
    }

    func claim() -> Bool { state.withLock { $0.claim() } }

    func complete(_ end: AttemptEnd) -> SelfCompletingAttemptState.Completion {
        state.withLock { $0.complete(end) }
    }

    /// Runs `start` (the job's closure) and then ends the attempt if it completed meanwhile. An end found here is
    /// carried out by a new task: this runs while a transaction is carried out, and ending an attempt carries out
    /// another (which may start further jobs), so doing it here would nest without bound.
    func start(_ node: JobNode, _ start: () -> Void) {
        state.withLock { $0.beginStart() }
        start()
        guard let end = state.withLock({ $0.endStart() }) else { return }
        Task.detached { Engine.attemptCompleted(node, self, end: end) }
    }
}
