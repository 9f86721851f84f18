#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a task that prefers a ``BlockingExecutor`` waits in that executor's queue, so that the waiting work can move
/// up when the task is escalated.
///
/// The runtime tells a task executor of no escalation of a task it has queued. The work engine, which escalates its
/// workers' tasks itself, gives each blocking worker a ticket: the enqueue that creating, resuming or yielding the
/// worker's task causes is recorded in it (``BlockingExecutor/enqueueing(for:_:)``, ``BlockingExecutor/arm(_:)``),
/// and escalating the worker moves that work up (``escalate(to:)``). An escalation that comes before the enqueue is
/// kept as a floor the enqueue applies.
///
/// Unchecked-Sendable invariant: `work` and `floor` are read and written only while `executor`'s lock is held.
/// Exercised under Thread Sanitizer by `BlockingExecutorPriorityTests` (escalated blocking jobs).
final class EnqueueTicket: @unchecked Sendable {
    let executor: BlockingExecutor
    /// The work of the last enqueue recorded (possibly already started: escalating it then does nothing).
    fileprivate var work: PendingWork?
    /// The highest priority the task was escalated to so far.
    fileprivate var floor: TaskPriority?

    init(executor: BlockingExecutor) {
        self.executor = executor
    }

    /// Moves the task's waiting work up to `priority` (behind the work already waiting there), and every later
    /// enqueue recorded in this ticket waits at least at `priority`. O(1).
    func escalate(to priority: TaskPriority) {
        executor.withLock {
            if floor.map({ priority > $0 }) ?? true { floor = priority }
            if let work { executor.pending.escalate(work, to: priority) }
        }
    }

    /// Records `work`, just appended to the executor's queue, as this ticket's. Executor lock held.
    func record(_ work: PendingWork) {
        self.work = work
        if let floor { executor.pending.escalate(work, to: floor) }
    }
}

extension BlockingExecutor {
    /// The ticket armed on this thread (``arm(_:)``), retained until an enqueue takes it or ``disarm()``.
    private static let ticketKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "BlockingExecutor: pthread_key_create failed (\(status))")
        return key
    }()

    /// Runs `body`, which creates or resumes one task that prefers this executor, recording the enqueue of that task
    /// (made synchronously on this thread) in `ticket`. Enqueues made elsewhere, or none, leave the ticket as it was.
    func enqueueing<Result>(for ticket: EnqueueTicket, _ body: () -> Result) -> Result {
        arm(ticket)
        defer { disarm() }
        return body()
    }

    /// Records the next enqueue on this executor from this thread in `ticket`: for a task that yields, whose
    /// enqueue happens inside `Task.yield()`, on the yielding thread. The thread keeps a retain of the ticket until
    /// that enqueue takes it or ``disarm()`` runs on it.
    func arm(_ ticket: EnqueueTicket) {
        disarm()
        pthread_setspecific(BlockingExecutor.ticketKey, Unmanaged.passRetained(ticket).toOpaque())
    }

    /// Ends what ``arm(_:)`` began on this thread, if an enqueue did not take the ticket.
    func disarm() {
        let key = BlockingExecutor.ticketKey
        guard let raw = pthread_getspecific(key) else { return }
        pthread_setspecific(key, nil)
        Unmanaged<EnqueueTicket>.fromOpaque(raw).release()
    }

    /// The ticket for an enqueue on this executor from this thread, if it runs inside ``enqueueing(for:_:)``; the
    /// section's one enqueue takes it.
    func takeTicket() -> EnqueueTicket? {
        let key = BlockingExecutor.ticketKey
        guard let raw = pthread_getspecific(key) else { return nil }
        let armed = Unmanaged<EnqueueTicket>.fromOpaque(raw)
        guard armed.takeUnretainedValue().executor === self else { return nil }
        pthread_setspecific(key, nil)
        return armed.takeRetainedValue()
    }
}
