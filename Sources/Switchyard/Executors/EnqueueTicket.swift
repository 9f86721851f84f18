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
/// workers' tasks itself, gives each blocking worker a ticket: the enqueue that creating or resuming the worker's task
/// causes is recorded in it (``BlockingExecutor/enqueueing(for:_:)``), and escalating the worker moves that work up
/// (``escalate(to:)``). An escalation that comes before the enqueue is kept as a floor the enqueue applies.
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
    /// The ticket of the tagged section running on this thread (``enqueueing(for:_:)``), unretained.
    private static let ticketKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "BlockingExecutor: pthread_key_create failed (\(status))")
        return key
    }()

    /// Runs `body`, which creates or resumes one task that prefers this executor, recording the enqueue of that task
    /// (made synchronously on this thread) in `ticket`. Enqueues made elsewhere, or none, leave the ticket as it was.
    func enqueueing<Result>(for ticket: EnqueueTicket, _ body: () -> Result) -> Result {
        let key = BlockingExecutor.ticketKey
        pthread_setspecific(key, Unmanaged.passUnretained(ticket).toOpaque())
        defer { pthread_setspecific(key, nil) }
        return withExtendedLifetime(ticket) { body() }
    }

    /// The ticket for an enqueue on this executor from this thread, if it runs inside ``enqueueing(for:_:)``; the
    /// section's one enqueue takes it.
    func takeTicket() -> EnqueueTicket? {
        let key = BlockingExecutor.ticketKey
        guard let raw = pthread_getspecific(key) else { return nil }
        let ticket = Unmanaged<EnqueueTicket>.fromOpaque(raw).takeUnretainedValue()
        guard ticket.executor === self else { return nil }
        pthread_setspecific(key, nil)
        return ticket
    }
}
