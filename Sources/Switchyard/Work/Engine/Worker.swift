import Synchronization

/// The task that runs jobs' attempts, one at a time.
///
/// A worker is created for a job that starts when no worker is free. When its attempt ends, the worker asks the
/// same dispatch for the next job to start and, if it can run it, runs it too instead of leaving a new task to be
/// created: a task creation saved per job under load. The job is still chosen by the scheduler (priority, FIFO,
/// width); only the task that carries it out is reused. A worker goes on only if:
/// - the job it ran was never cancelled or timed out (a `Task.cancel()` issued for that job may still be on its way
///   and must not hit the next one);
/// - the next job has the same priority level and the same kind (async or blocking) as the worker's task, and a
///   blocking job runs on the same executor (its queue's ``WorkQueue/blockingExecutor``).
///
/// Between jobs there is no suspension point, so a long run would hold its thread: once a run has lasted
/// ``Worker/quantum``, the worker calls `Task.yield()` before the next job it takes itself, letting the tasks
/// queued behind it on the executor (another queue's worker, a caller's continuation, at the same or a higher
/// priority) have the thread. The check is between jobs: one long job holds the thread for as long as it runs. A
/// run ends only when the worker really gave up its thread (a yield, or a park that suspended); a job handed to a
/// worker still on its way to park continues its run. The job it is about to run is already started (it counts as
/// running, and a cancellation reaches it) while the worker waits its turn. Yielding keeps the worker's task:
/// handing the next job to another task instead would cost a wake-up of a parked task each time. Blocking workers
/// yield too, so that other work waiting for the blocking executor's threads gets a turn; with jobs of a
/// millisecond or more that costs one thread hand-over per job, small beside the job. A blocking worker's task is
/// created, woken and yields inside its ``EnqueueTicket``, so an escalation of its job while the task waits for a
/// thread moves it up in the executor's queue.
///
/// Unchecked-Sendable invariant: every `var` except `first` and `parkedIn` is read and written only while the lock
/// of the worker's region is held; `first` is written under the lock before the worker's task exists and afterwards
/// only by that task; `parkedIn` is written only by the worker's own task (set under the lock, cleared under it in
/// `park`), which alone reads it. Exercised under Thread Sanitizer by `WorkQueueStressTests`.
final class Worker: @unchecked Sendable {
    /// How long a worker runs jobs back to back before it yields its thread (checked each time it takes its next
    /// job itself).
    static let quantum = Duration.milliseconds(1)

    let level: Int
    let isBlocking: Bool
    /// A blocking worker's: its queue's executor, and where its task waits there (see ``EnqueueTicket``).
    let ticket: EnqueueTicket?
    /// From the hold that puts the worker in a region's idle list until its task has parked (`park(_:after:)`): that
    /// region. Strong, but only on the way to park: a parked worker must not keep a region whose queues are
    /// gone alive (its end retires it). Not `weak`: a weakly referenced object's every retain and release takes
    /// the slower side-table path, and the region is retained on every hold. Written under that region's lock.
    @exclusivity(unchecked) var parkedIn: EngineRegion?
    /// Set under the lock of the region whose list held the worker when that region was merged or ended: the
    /// worker ends instead of parking, or its parked task ends.
    @exclusivity(unchecked) var isRetired = false
    /// The worker's task, once created (set just after creation, possibly after it already ran several jobs).
    @exclusivity(unchecked) var task: Task<Void, Never>?
    /// The job whose attempt the worker runs. Unretained (a retain and a release under the lock per job
    /// otherwise): a running job is in its queue's live list, and `finished(_:)` clears this under the lock when
    /// the attempt ends, before the job can finish and leave that list.
    @exclusivity(unchecked) var current: Unmanaged<JobNode>?
    /// When the current run of jobs began: creation, the last yield, or the hand-over that ended a suspended park.
    @exclusivity(unchecked) var runStartedAt: Duration
    /// When the worker's current job was started.
    @exclusivity(unchecked) var lastStartAt: Duration
    /// Cleared when the task's priority was escalated: it no longer matches `level`.
    @exclusivity(unchecked) var matchesLevel = true
    /// While idle: the parked task's continuation (nil while it is still on its way to park); resumed with nil
    /// when the worker is retired.
    @exclusivity(unchecked) var continuation: CheckedContinuation<JobNode?, Never>?
    /// A job handed to the worker while it was on its way to park.
    @exclusivity(unchecked) var handoff: JobNode?
    /// Stored (releasing) by the thread that wakes the parked task, loaded (acquiring) by the task once resumed:
    /// orders everything the dispatcher and the job's submitter wrote (the job's fields, its start state) before
    /// the task's reads for Thread Sanitizer, which does not see the ordering a continuation's resumption gives on
    /// this toolchain. One store and one load per wake-up.
    let wakeFence = Atomic<Bool>(false)

    /// The job the worker was created for, until its task takes it (then nil: a parked worker keeps no job).
    @exclusivity(unchecked) var first: JobNode?

    /// Lock held: the worker is created for `job` as it starts, at `now`.
    init(first job: JobNode, level: Int, at now: Duration) {
        self.level = level
        self.first = job
        isBlocking = job.isBlocking
        ticket = job.isBlocking ? EnqueueTicket(executor: job.queue.blockingExecutor) : nil
        current = Unmanaged.passUnretained(job)
        runStartedAt = now
        lastStartAt = now
        job.worker = self
    }

    func canRun(_ job: JobNode) -> Bool {
        guard job.isBlocking == isBlocking, job.effectiveLevel == level else { return false }
        return ticket.map { $0.executor === job.queue.blockingExecutor } ?? true
    }

    /// Whether the worker may wait in an idle list (see ``IdleWorkers/keeps(_:)``).
    var mayPark: Bool { IdleWorkers.keeps(ticket?.executor) }

    /// Lock held: `job` starts on this worker at `now`.
    func assign(_ job: JobNode, at now: Duration) {
        current = Unmanaged.passUnretained(job)
        lastStartAt = now
        job.worker = self
    }

    /// Whether the worker must yield before running the job it was just assigned; if so, a new run begins.
    /// Lock held.
    func endsRun() -> Bool {
        #if SWITCHYARD_TEST_HOOKS
            let quantum = current?.takeUnretainedValue().queue.workerQuantum ?? Worker.quantum
        #else
            let quantum = Worker.quantum
        #endif
        guard lastStartAt - runStartedAt >= quantum else { return false }
        runStartedAt = lastStartAt
        return true
    }

    /// The index of the idle list for workers of this kind.
    var idleKey: Int { level * 2 + (isBlocking ? 1 : 0) }

    /// Lock held.
    func finished(_ job: JobNode) {
        if current?.toOpaque() == Unmanaged.passUnretained(job).toOpaque() { current = nil }
        job.worker = nil
    }
}

extension Engine {
    /// Creates the task of each new worker (all of `region`) and records the handles. Lock not held.
    static func startWorkers(for workers: SmallList<Worker>, in region: Unmanaged<EngineRegion>) {
        var tasks = SmallList<Task<Void, Never>>()
        workers.forEach { tasks.append(makeTask(for: $0)) }
        var cancels = SmallList<Task<Void, Never>>()
        var escalations = SmallList<(Task<Void, Never>, TaskPriority, EnqueueTicket?)>()
        let locked = region._withUnsafeGuaranteedRef { $0.lockCurrent() }.takeUnretainedValue()
        for index in 0..<workers.count {
            let worker = workers[index]
            let task = tasks[index]
            worker.task = task
            // The job the worker runs started before this handle existed: what was asked of it meanwhile (a
            // cancellation, a timeout, an escalation) could not reach its task, so it is applied now.
            if let job = worker.current?.takeUnretainedValue(), job.phase == .running {
                if job.cancelRequested || job.timedOut { cancels.append(task) }
                if job.effectiveLevel > worker.level {  // escalated before the handle existed
                    worker.matchesLevel = false
                    escalations.append((task, JobPriority(level: job.effectiveLevel).taskPriority, worker.ticket))
                }
            }
        }
        unlock(locked)
        cancels.forEach { $0.cancel() }
        escalations.forEach { escalate($0.0, to: $0.1, $0.2) }
    }

    /// A worker's task: detached (no task-locals or actor context leak in from whoever dispatched it), at the
    /// job's effective priority, on its queue's blocking executor for blocking jobs.
    private static func makeTask(for worker: Worker) -> Task<Void, Never> {
        let priority = JobPriority(level: worker.level).taskPriority
        if let ticket = worker.ticket {
            return ticket.executor.enqueueing(for: ticket) {
                Task.detached(executorPreference: ticket.executor, priority: priority) { await runWorker(worker) }
            }
        }
        return Task.detached(priority: priority) { await runWorker(worker) }
    }

    /// Lets other work run before the worker's next job. A blocking worker's task waits in its executor's queue
    /// meanwhile: `Task.yield()` enqueues it there from this thread, inside the worker's ticket (see
    /// ``EnqueueTicket``), so an escalation of the job while it waits moves it up.
    private static func yield(_ worker: Worker) async {
        guard let ticket = worker.ticket else { return await Task.yield() }
        ticket.executor.arm(ticket)
        await Task.yield()
        ticket.executor.disarm()  // on the thread the task resumed on: the yield's enqueue took it already
    }

    private static func runWorker(_ worker: Worker) async {
        // `first` was set under the lock before this task was created, and only this task touches it afterwards.
        guard var job = worker.first else { preconditionFailure("Worker: started without a job") }
        worker.first = nil
        while true {
            let (end, retryAllowed) = await runAttempt(of: job)
            switch endAttempt(of: job, end: end, retryAllowed: retryAllowed, on: worker) {
            case .next(let next, let yieldFirst):
                job = next
                if yieldFirst { await yield(worker) }
            case .park:
                guard let next = await park(worker, after: consume job) else { return }
                job = next
            case .exit: return
            }
        }
    }

    /// Suspends an idle worker until a job is handed to it; nil when the worker was retired instead (its region
    /// was merged into another or ended). It lets go of the job it ran last first: an idle worker must not keep
    /// that job, and the job's value, alive until its next job.
    private static func park(_ worker: Worker, after last: consuming JobNode) async -> JobNode? {
        _ = consume last
        let job = await withCheckedContinuation { (continuation: CheckedContinuation<JobNode?, Never>) in
            // The region's own lock, not the one standing for it: it guards the region's idle list even once
            // merged. The worker lets go of the region under its lock; `region` may then be the last reference,
            // released after the unlock (its end takes the lock to retire the worker).
            guard let region = worker.parkedIn else { preconditionFailure("Worker: parks outside an idle list") }
            region.lock.lock()
            worker.parkedIn = nil
            if worker.isRetired {
                unlock(region)
                continuation.resume(returning: nil)
            } else if let job = worker.handoff {
                worker.handoff = nil
                unlock(region)
                continuation.resume(returning: job)
            } else {
                worker.continuation = continuation
                unlock(region)
            }
        }
        guard let job else { return nil }
        _ = worker.wakeFence.load(ordering: .acquiring)
        return job
    }

    /// Runs one attempt on the current task: binds the job context and propagated task-locals, arms the timeout,
    /// runs the body, and says whether a failure may be retried. Inlined into the worker's loop, so that an attempt
    /// allocates no async frame of its own (nor one for its binding closure) from the task's allocator.
    @inline(__always)
    private static func runAttempt(of job: JobNode) async -> (AttemptEnd, Bool) {
        // Written under the lock before this attempt was handed to this task (task creation, or this task's own
        // `endAttempt`), and not written again while it runs.
        let attempt = job.attempts
        // `job.timing == nil` first: the common job has no timing, and testing the reference alone skips the
        // retain and release that loading it for the optional chain costs.
        let watchdog =
            job.timing == nil
            ? nil
            : job.timing?.timeout.map { timeout in
                Task.detached {
                    do { try await timeout.sleep(timeout.duration) } catch { return }
                    timeoutFired(job, attempt: attempt)
                }
            }
        let end: AttemptEnd
        // The specialized attempt when the job has one (see ``JobNode/specializedAttempt``).
        if job.taskLocals == nil, let run = job.specializedAttempt {
            end = await JobContext.$current.withValue(JobContext(node: job)) { await run(job) }
        } else if let locals = job.taskLocals {
            end = await JobContext.$current.withValue(JobContext(node: job)) {
                await locals.bind {
                    if let run = job.specializedAttempt { return await run(job) }
                    return await job.runAttempt()
                }
            }
        } else {
            end = await JobContext.$current.withValue(JobContext(node: job)) { await job.runAttempt() }
        }
        if let watchdog { watchdog.cancel() }
        var retryAllowed = false
        if case .failure(let error) = end, job.timing != nil, let plan = job.timing?.retry,
            attempt < plan.policy.maximumAttempts
        {
            retryAllowed = plan.policy.shouldRetry(error)
        }
        return (end, retryAllowed)
    }
}

/// Workers whose tasks are parked, waiting for a job of their kind (priority level, async or blocking), most
/// recently parked last. At most ``IdleWorkers/limit`` per kind: every parked task holds memory until it resumes.
///
/// One per ``EngineRegion``; a region that is merged into another or ends retires its workers (their tasks end),
/// so parked tasks never outlive the region they served. Unchecked-Sendable invariant: `lists` is read and written only while the region's lock
/// is held. Exercised under Thread Sanitizer by `WorkQueueStressTests`.
final class IdleWorkers: @unchecked Sendable {
    /// The most parked workers of one kind.
    static let limit = max(2, activeProcessorCount())

    @exclusivity(unchecked) private var lists = Array(repeating: [Worker](), count: JobPriority.levelCount * 2)

    /// Parks `worker` in `region` (whose list this is) if there is room. Lock held.
    func park(_ worker: Worker, in region: EngineRegion) -> Bool {
        guard worker.mayPark, lists[worker.idleKey].count < IdleWorkers.limit else { return false }
        lists[worker.idleKey].append(worker)
        worker.parkedIn = region
        return true
    }

    /// Whether the lists keep workers that run on `executor` (nil: async workers). Only async workers and those of
    /// ``BlockingExecutor/shared`` are kept: the lists do not tell executors apart.
    static func keeps(_ executor: BlockingExecutor?) -> Bool { executor.map { $0 === BlockingExecutor.shared } ?? true }

    /// A parked worker that can run `job`. Lock held.
    func take(for job: JobNode) -> Worker? {
        guard IdleWorkers.keeps(job.isBlocking ? job.queue.blockingExecutor : nil) else { return nil }
        let key = job.effectiveLevel * 2 + (job.isBlocking ? 1 : 0)
        return lists[key].popLast()
    }

    /// Retires every worker in the lists (the region is merged into another, or ends) and returns the
    /// continuations of those already parked, to resume with nil after the lock. Lock held.
    /// - Complexity: O(workers).
    func retireAll() -> [CheckedContinuation<JobNode?, Never>] {
        var parked: [CheckedContinuation<JobNode?, Never>] = []
        for key in lists.indices {
            for worker in lists[key] {
                worker.isRetired = true
                worker.handoff = nil
                if let continuation = worker.continuation {
                    worker.continuation = nil
                    parked.append(continuation)
                }
            }
            lists[key] = []
        }
        return parked
    }
}
