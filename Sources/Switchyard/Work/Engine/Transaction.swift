import Synchronization

/// What one hold of the engine lock decided to do once the lock is released: start jobs, start timers, resume
/// waiters, deliver handlers. Collected under the lock, carried out after it, so no task is created, no
/// continuation resumed and no user code run while the lock is held.
struct Transaction {
    /// Roots whose trees may be able to start jobs.
    var roots: [SchedulerNode] = []
    /// Jobs moved to running, whose tasks must be created, with the priority level they start at.
    var starts: [(job: JobNode, level: Int, attempt: Int)] = []
    /// Jobs whose delay or retry-backoff timer must be started.
    var timers: [JobNode] = []
    /// Work to run after unlocking, in order.
    var actions: [() -> Void] = []

    /// Asks for the tree of `node` to be dispatched before the lock is released.
    mutating func markForDispatch(_ node: SchedulerNode) {
        let root = node.root
        if !root.isMarkedForDispatch {
            root.isMarkedForDispatch = true
            roots.append(root)
        }
    }
}

/// The engine's operations. Functions taking `inout Transaction` must be called with the engine lock held.
enum Engine {
    /// Locks, runs `body`, dispatches every marked tree, unlocks, then carries out the transaction.
    static func perform<Result, Failure: Error>(
        _ body: (inout Transaction) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var transaction = Transaction()
        engineLock.lock()
        let result: Result
        do {
            result = try body(&transaction)
        } catch {
            dispatchMarkedRoots(&transaction)
            engineLock.unlock()
            carryOut(transaction)
            throw error
        }
        dispatchMarkedRoots(&transaction)
        engineLock.unlock()
        carryOut(transaction)
        return result
    }

    private static let identifiers = Atomic<UInt64>(0)

    /// A process-unique job identifier, increasing in submission order.
    static func nextIdentifier() -> UInt64 {
        identifiers.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// Starts every job the marked trees can start. Lock held.
    private static func dispatchMarkedRoots(_ transaction: inout Transaction) {
        var index = 0
        while index < transaction.roots.count {
            let root = transaction.roots[index]
            root.isMarkedForDispatch = false
            while let job = root.popNextJob() {
                prepareStart(job, &transaction)
            }
            index += 1
        }
    }

    /// Moves a popped ready job to running. Lock held.
    private static func prepareStart(_ job: JobNode, _ transaction: inout Transaction) {
        job.phase = .running
        job.attempts += 1
        job.timedOut = false
        if job.startedAt == nil { job.startedAt = .now }
        let queue = job.queue
        queue.readyCount -= 1
        queue.runningCount += 1
        if job.attempts == 1 { queue.leftPending(&transaction) }
        releaseBlockedAwaiters(of: job)
        queue.emit(.started, job)
        transaction.starts.append((job, job.effectiveLevel, job.attempts))
    }

    /// Creates tasks, timers, and runs deferred actions. Lock not held.
    private static func carryOut(_ transaction: Transaction) {
        if !transaction.starts.isEmpty {
            var tasks: [Task<Void, Never>] = []
            tasks.reserveCapacity(transaction.starts.count)
            for (job, level, _) in transaction.starts { tasks.append(makeTask(for: job, level: level)) }
            engineLock.lock()
            for ((job, _, attempt), task) in zip(transaction.starts, tasks)
            where job.phase == .running && job.attempts == attempt {
                job.task = task
                if job.cancelRequested || job.timedOut { task.cancel() }
            }
            engineLock.unlock()
        }
        for job in transaction.timers { startTimer(for: job) }
        for action in transaction.actions { action() }
    }

    /// The task that runs one attempt of `job`: detached (no task-locals or actor context leak in from whoever
    /// dispatched it), at the job's effective priority, on the blocking executor for blocking jobs.
    private static func makeTask(for job: JobNode, level: Int) -> Task<Void, Never> {
        let priority = JobPriority(level: level).taskPriority
        if job.isBlocking {
            return Task.detached(executorPreference: BlockingExecutor.shared, priority: priority) {
                await runAttempt(of: job)
            }
        }
        return Task.detached(priority: priority) { await runAttempt(of: job) }
    }

    /// Runs one attempt on the job's task: binds the job context and propagated task-locals, arms the timeout,
    /// runs the body, then reports the end of the attempt.
    private static func runAttempt(of job: JobNode) async {
        let attempt = job.attempts
        let timing = job.timing
        let watchdog = timing?.timeout.map { timeout in
            Task.detached {
                do { try await timeout.sleep(timeout.duration) } catch { return }
                timeoutFired(job, attempt: attempt)
            }
        }
        let context = JobContext(node: job)
        let end: AttemptEnd
        if let locals = job.taskLocals {
            end = await JobContext.$current.withValue(context) { await locals.bind { await job.runAttempt() } }
        } else {
            end = await JobContext.$current.withValue(context) { await job.runAttempt() }
        }
        watchdog?.cancel()
        var retryAllowed = false
        if case .failure(let error) = end, let plan = timing?.retry, attempt < plan.policy.maximumAttempts {
            retryAllowed = plan.policy.shouldRetry(error)
        }
        perform { transaction in attemptEnded(job, end: end, retryAllowed: retryAllowed, &transaction) }
    }
}

