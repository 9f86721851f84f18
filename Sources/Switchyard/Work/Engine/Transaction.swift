import Synchronization

/// What one hold of a region's lock (see ``EngineRegion``) decided to do once the lock is released: start jobs, start timers, resume
/// waiters, deliver handlers. Collected under the lock, carried out after it, so no task is created, no
/// continuation resumed and no user code run while the lock is held.
///
/// The common transaction touches one tree, starts at most one job and drops a job, so those lists keep their first
/// two elements inline and allocate only from the third on. Continuations go in plain arrays: `CheckedContinuation`
/// is a resilient type whose size is unknown at compile time, and holding one inline would send every copy and
/// destroy of a transaction through runtime metadata. The lists most holds never use live in ``RareEffects``,
/// created on first use, so that destroying a common transaction does not release each of them, empty or not.
///
/// The scheduler nodes, worker and jobs a transaction points at are held unretained, which keeps reference counting
/// out of the hold: each is kept alive for the whole hold by something else (a job's queue keeps its scheduler
/// path, the live list keeps unfinished jobs, the caller keeps its worker and job), and they are used only under
/// the lock. This rests on one rule: no job node is released for the last time while the lock is held — a finished
/// job's live-list retain is handed to the transaction (``discard(retained:)``) and given up after the lock (see
/// ``WorkQueue/finished(_:_:remaining:_:)``) — so nothing a job keeps alive (its queue, domains, scheduler
/// nodes) can go away during a hold.
struct Transaction {
    // Every stored property but `rare` is trivial (raw or unowned(unsafe) references, plain values), so creating
    // and destroying a transaction needs no value witness and releases at most `rare`.

    /// The region whose lock is held (unretained: the caller's queue, job or group keeps it alive).
    let region: Unmanaged<EngineRegion>

    /// The first two roots whose trees may be able to start jobs (unretained: their queues and domains keep
    /// them); more go to `rare`.
    private var firstRoot: Unmanaged<SchedulerNode>?
    private var secondRoot: Unmanaged<SchedulerNode>?
    /// How many roots are marked.
    private(set) var rootCount = 0
    /// A worker that just ended an attempt and may run the next started job instead of a new task (unretained:
    /// the caller of `endAttempt` holds it).
    var reusableWorker: Unmanaged<Worker>?
    /// The job handed to `reusableWorker` (unretained: it has started, so its queue's live list holds it).
    unowned(unsafe) var reusedJob: JobNode?
    /// The first two objects dropped under the lock, each with one retain that ``Engine/carryOut(_:)`` gives up
    /// after the lock (their deinits may run user code); more go to `rare`.
    private var firstDiscarded: Unmanaged<AnyObject>?
    private var secondDiscarded: Unmanaged<AnyObject>?
    /// The job whose attempt just ended on this worker: if it finishes, its task releases the body after the lock
    /// instead of moving it into `discardedValues` (boxing a generic closure would ask the runtime for its type's
    /// metadata). Unretained: the caller of `endAttempt` holds it.
    unowned(unsafe) var bodyOwner: JobNode?
    /// The engine clock's reading that jobs started in this hold take as their start time: read once per hold,
    /// on the first start, or before the lock was taken by a caller that is likely to start a job (a worker
    /// ending its attempt), so that the read does not lengthen the hold. Such an early reading may precede what
    /// happened while the caller waited for the lock (a job made ready by another hold) by that wait; a start is
    /// never recorded before its job's submission.
    var clockReading: Duration?
    /// The lists below, once one of them is used.
    private var rare: RareEffects?

    init(region: Unmanaged<EngineRegion>) {
        self.region = region
    }

    /// Marked root `index` (0 ..< `rootCount`).
    func root(at index: Int) -> Unmanaged<SchedulerNode> {
        switch index {
        case 0: firstRoot!
        case 1: secondRoot!
        default: rare!.moreRoots[index - 2]
        }
    }

    /// Keeps `object` alive until after the lock (see ``Engine/carryOut(_:)``).
    mutating func discard(_ object: AnyObject) {
        discard(retained: Unmanaged.passRetained(object))
    }

    /// Takes over one retain of `object`, given up after the lock.
    mutating func discard(retained object: Unmanaged<AnyObject>) {
        if firstDiscarded == nil {
            firstDiscarded = object
        } else if secondDiscarded == nil {
            secondDiscarded = object
        } else {
            makeRare()
            rare!.moreDiscarded.append(object)
        }
    }

    /// Gives up the retains of the discarded objects. Call once, with the lock released.
    func releaseDiscarded() {
        firstDiscarded?.release()
        secondDiscarded?.release()
        rare?.moreDiscarded.forEach { $0.release() }
    }

    /// Workers created for jobs moved to running, whose tasks must be created.
    var starts: SmallList<Worker> {
        get { rare?.starts ?? SmallList() }
        _modify {
            makeRare()
            yield &rare!.starts
        }
    }
    /// Jobs whose delay or retry-backoff timer must be started.
    var timers: [JobNode] {
        get { rare?.timers ?? [] }
        _modify {
            makeRare()
            yield &rare!.timers
        }
    }
    /// Waiters to resume with `true` (the job they wait for finished).
    var resumptions: [CheckedContinuation<Bool, Never>] {
        get { rare?.resumptions ?? [] }
        _modify {
            makeRare()
            yield &rare!.resumptions
        }
    }
    /// Work to run after unlocking, in order.
    var actions: [() -> Void] {
        get { rare?.actions ?? [] }
        _modify {
            makeRare()
            yield &rare!.actions
        }
    }
    /// Other values dropped under the lock (edge arrays, bodies of jobs that never finished on their own task),
    /// released after it.
    var discardedValues: [Any] {
        get { rare?.discardedValues ?? [] }
        _modify {
            makeRare()
            yield &rare!.discardedValues
        }
    }
    /// Parked workers to resume with the job handed to them: the continuation, the job, and the worker (its wake
    /// fence, and a blocking worker's ticket, which its task is resumed in).
    var wakeUps: [(CheckedContinuation<JobNode?, Never>, JobNode, Worker)] {
        get { rare?.wakeUps ?? [] }
        _modify {
            makeRare()
            yield &rare!.wakeUps
        }
    }

    /// Whether any of the rarely used lists has been touched.
    var hasRareEffects: Bool { rare != nil }

    @inline(__always)
    private mutating func makeRare() {
        if rare == nil { rare = RareEffects() }
    }

    /// Asks for the tree of `node` to be dispatched before the lock is released.
    mutating func markForDispatch(_ node: SchedulerNode) {
        let marked = node.unretainedRoot
        let isNew = marked._withUnsafeGuaranteedRef { root in
            if root.isMarkedForDispatch { return false }
            root.isMarkedForDispatch = true
            return true
        }
        guard isNew else { return }
        switch rootCount {
        case 0: firstRoot = marked
        case 1: secondRoot = marked
        default:
            makeRare()
            rare!.moreRoots.append(marked)
        }
        rootCount += 1
    }
}

/// The lists of a ``Transaction`` that most holds of the engine lock leave empty. A class, so a transaction that
/// has none holds one nil reference.
final class RareEffects {
    var moreRoots: [Unmanaged<SchedulerNode>] = []
    var moreDiscarded: [Unmanaged<AnyObject>] = []
    var starts = SmallList<Worker>()
    var timers: [JobNode] = []
    var resumptions: [CheckedContinuation<Bool, Never>] = []
    var actions: [() -> Void] = []
    var discardedValues: [Any] = []
    var wakeUps: [(CheckedContinuation<JobNode?, Never>, JobNode, Worker)] = []
}

extension Transaction {
    /// Queues `item` in `outbox` (under the engine lock, so in the order things happened) and, when that makes
    /// this transaction the outbox's drainer, hands every queued item to `deliver` once the lock is released.
    /// The one way the engine yields to streams: never under the lock (see ``OrderedOutbox``). Lock held.
    mutating func deliverAfterUnlock<Item: Sendable>(
        _ item: Item, through outbox: OrderedOutbox<Item>, to deliver: @escaping @Sendable (Item) -> Void
    ) {
        if outbox.append(item) { actions.append { outbox.drain(deliver) } }
    }
}

/// The engine's operations. Functions taking `inout Transaction` must be called with the transaction's region's
/// lock held.
enum Engine {
    /// Locks the region standing for `region`, admits its intake, runs `body`, dispatches every marked tree,
    /// unlocks, carries out the transaction, then admits what was pushed to the intake meanwhile (see ``Intake``).
    @inline(__always)
    static func perform<Result, Failure: Error>(
        in region: EngineRegion, _ body: (inout Transaction) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try perform(locked: region.lockCurrent(), body)
    }

    /// ``perform(in:_:)`` in the region standing for every one of `regions`, uniting them first if they are not
    /// one region yet (see ``EngineRegion``): for work that connects trees (a dependency edge, a group).
    static func perform<Result, Failure: Error>(
        uniting regions: [EngineRegion], _ body: (inout Transaction) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let first = regions[0]
        let current = first.current.toOpaque()
        if regions.allSatisfy({ $0.current.toOpaque() == current }) { return try perform(in: first, body) }
        // Pair by pair; every union but the last admits what it carried over in a hold of its own, so the survivor's
        // lock is never released with jobs taken from an absorbed intake still unadmitted.
        for region in regions.dropFirst().dropLast() {
            var leftovers = UnionLeftovers()
            perform(locked: EngineRegion.lockUnited(first, region, &leftovers), leftovers: leftovers) { _ in }
        }
        var leftovers = UnionLeftovers()
        let region = EngineRegion.lockUnited(first, regions[regions.count - 1], &leftovers)
        return try perform(locked: region, leftovers: leftovers, body)
    }

    /// ``perform(in:_:)`` with `region`'s lock already taken.
    @inline(__always)
    private static func perform<Result, Failure: Error>(
        locked region: Unmanaged<EngineRegion>, leftovers: UnionLeftovers? = nil,
        _ body: (inout Transaction) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var transaction = Transaction(region: region)
        if let leftovers {
            for continuation in leftovers.retired { transaction.actions.append { continuation.resume(returning: nil) } }
            for job in leftovers.jobs { admitPlain(job, &transaction) }  // pushed before the survivor's intake
        }
        admitIntake(&transaction)
        let result: Result
        do {
            result = try body(&transaction)
        } catch {
            finishHold(&transaction)
            throw error
        }
        finishHold(&transaction)
        return result
    }

    private static let identifiers = Atomic<UInt64>(0)

    /// A process-unique job identifier, increasing in submission order.
    static func nextIdentifier() -> UInt64 {
        identifiers.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Starts every job the marked trees can start. Lock held.
    static func dispatchMarkedRoots(_ transaction: inout Transaction) {
        var index = 0
        while index < transaction.rootCount {  // dispatching never marks new roots; the loop is defensive
            transaction.root(at: index)._withUnsafeGuaranteedRef { root in
                root.isMarkedForDispatch = false
                while let job = root.popNextJob() {
                    job._withUnsafeGuaranteedRef { prepareStart($0, &transaction) }
                }
            }
            index += 1
        }
    }

    /// Moves a popped ready job to running, handing it to the transaction's reusable worker when compatible.
    /// Lock held.
    private static func prepareStart(_ job: JobNode, _ transaction: inout Transaction) {
        job.phase = .running
        job.attempts += 1
        job.timedOut = false
        var now: Duration
        if let reading = transaction.clockReading {
            now = reading
        } else {
            now = EngineClock.now()
            transaction.clockReading = now
        }
        // A reading taken before the lock may predate a job submitted while the reader waited for it.
        if now < job.submittedAt { now = job.submittedAt }
        if job.startedAt == nil { job.startedAt = now }
        let queue = job.queue
        queue.readyCount -= 1
        queue.runningCount += 1
        queue.runningJobs.append(job)
        if job.attempts == 1 { queue.leftPending(&transaction) }
        releaseBlockedAwaiters(of: job)
        queue.emit(.started, job, &transaction)
        if let starter = job.starter {
            let attempt = SelfCompletingAttempt()
            job.selfCompletingAttempt = attempt
            transaction.actions.append { attempt.start(job) { starter(job, attempt) } }
            return
        }
        if let reusable = transaction.reusableWorker, reusable._withUnsafeGuaranteedRef({ $0.canRun(job) }) {
            transaction.reusableWorker = nil
            reusable._withUnsafeGuaranteedRef { $0.assign(job, at: now) }
            transaction.reusedJob = job
        } else if let worker = transaction.region._withUnsafeGuaranteedRef({ $0.idleWorkers.take(for: job) }) {
            worker.assign(job, at: now)
            if let continuation = worker.continuation {
                worker.runStartedAt = now  // it was suspended: its thread was free, a new run begins
                worker.continuation = nil
                transaction.wakeUps.append((continuation, job, worker))
            } else {
                // Still on its way to park, on the thread it has been holding: its run goes on.
                worker.handoff = job
            }
        } else {
            transaction.starts.append(Worker(first: job, level: job.effectiveLevel, at: now))  // job.queue's region
        }
    }

    /// Creates tasks, timers, and runs deferred actions, then gives up the retains of the objects discarded under
    /// the lock. Call exactly once per transaction (every hold ends here), or discarded objects leak or are
    /// released twice. Lock not held.
    static func carryOut(_ transaction: Transaction) {
        if transaction.hasRareEffects {
            for (continuation, job, worker) in transaction.wakeUps {
                worker.wakeFence.store(true, ordering: .releasing)  // see ``Worker/wakeFence``
                // The resumed task is enqueued on its executor here: see ``EnqueueTicket``.
                if let ticket = worker.ticket {
                    ticket.executor.enqueueing(for: ticket) { continuation.resume(returning: job) }
                } else {
                    continuation.resume(returning: job)
                }
            }
            if !transaction.starts.isEmpty { startWorkers(for: transaction.starts, in: transaction.region) }
            for continuation in transaction.resumptions { continuation.resume(returning: true) }
            for job in transaction.timers { startTimer(for: job) }
            for action in transaction.actions { action() }
        }
        transaction.releaseDiscarded()
    }

    /// Ends an attempt on the worker that ran it and, when the worker may go on, takes the next job it can run
    /// from the same dispatch (saving a task creation per job). Lock not held.
    static func endAttempt(
        of job: JobNode, end: AttemptEnd, retryAllowed: Bool, on worker: Worker
    ) -> WorkerStep {
        let clockReading = EngineClock.now()  // before the lock: the worker usually starts its next job
        let region = job.queue.region.lockCurrent()
        var transaction = Transaction(region: region)
        transaction.clockReading = clockReading
        admitIntake(&transaction)
        // A `Task.cancel()` issued for a cancelled or timed-out job may still be on its way: such a task must end.
        let reusable = !job.cancelRequested && !job.timedOut && worker.matchesLevel
        worker.finished(job)
        transaction.bodyOwner = job
        attemptEnded(job, end: end, retryAllowed: retryAllowed, &transaction)
        transaction.bodyOwner = nil
        let finished = job.phase == .finished
        if reusable { transaction.reusableWorker = Unmanaged.passUnretained(worker) }
        dispatchMarkedRoots(&transaction)
        _checkInvariants(region)
        transaction.reusableWorker = nil
        let step: WorkerStep
        if let next = transaction.reusedJob {
            step = .next(next, yieldFirst: worker.endsRun())
        } else if reusable && region._withUnsafeGuaranteedRef({ $0.idleWorkers.park(worker, in: $0) }) {
            step = .park
        } else {
            step = .exit
        }
        region._withUnsafeGuaranteedRef { region in
            region.lock.unlock()
            carryOut(transaction)
            admitPushedWhileHeld(region)
        }
        // Only this task reads the body, and the job can no longer run: no lock needed.
        if finished { job.clearBody() }
        return step
    }
}

/// What a worker does after an attempt.
enum WorkerStep {
    /// Run this job next: at once, or after `Task.yield()` when the worker's run has lasted its quantum.
    case next(JobNode, yieldFirst: Bool)
    /// Park until a job is handed over.
    case park
    /// End the task.
    case exit
}
