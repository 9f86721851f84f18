#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where blocking work runs: its own named threads, never Swift's cooperative pool.
///
/// Blocking system calls, file I/O, SQLite and other C libraries, and legacy semaphore-style waits stall the
/// thread they run on. On the cooperative pool (one thread per core) each such call takes a core away from every
/// task in the program, and enough of them deadlock it. `BlockingExecutor` gives that work threads of its own:
///
/// ```swift
/// let bytes = try await BlockingExecutor.shared.run { try readWholeFile(path) }   // a plain closure
///
/// try await withTaskExecutorPreference(BlockingExecutor.shared) {                 // or a whole async scope:
///     try database.importBatch(rows)                                              // nonisolated code runs here
/// }
/// ```
///
/// ## Threads and the policy when all are busy
/// Threads are started on demand, one per piece of work that finds no idle thread, up to `maximumThreads`.
/// When all `maximumThreads` threads are busy, further work waits until a thread frees up, by priority (below); it
/// never spills onto the cooperative pool and never starts an extra thread, with one exception: a blocking wait of
/// Switchyard's own (`BoundedChannel.sendBlocking`/`receiveBlocking`, `JobGroup.waitBlocking`) made on one of its
/// threads gives up that thread's slot while it waits, so a replacement thread can run queued work (up to
/// ``hardThreadLimit`` threads); a channel wait that finds every thread waiting at that limit while work waits
/// fails with ``BlockingExecutorStarvation`` instead of hanging. Other blocking waits (a semaphore, a condition)
/// keep their slot: work that waits that way on work queued behind it can deadlock once every thread is taken, so
/// keep such dependencies out of blocking work, or use a separate executor.
///
/// Work goes to the thread that went idle last, so under light load a few threads do it and the others stay idle;
/// a thread idle for `idleTimeout` (one deadline per idle period) exits. Threads are named `<name>-<n>` (visible in
/// `top -H`, `gdb`, `/proc/<pid>/task/*/comm`; on Linux the name is cut to 15 bytes before the number). If the
/// system refuses a new thread (a pids limit), the work waits for the threads there are.
///
/// ## Ordering and priority
/// Waiting work starts highest priority first, in submission order (FIFO) within one priority: `run` waits at its
/// task's priority (or the one it passes), `execute` at the one it passes, a job of a task that prefers this
/// executor at that job's priority when it was enqueued (the runtime tells an executor of no later escalation; a
/// `WorkQueue`'s blocking job that the engine escalates while its task waits here moves up, as the engine tells the
/// executor itself).
/// A `run` whose task is escalated while it waits (an `await` of that task from a higher-priority task, or
/// `Task.escalatePriority(to:)`) moves up to the new priority, behind the work already waiting there. Priorities
/// are grouped in five bands, one per named `TaskPriority`. A thread keeps the scheduling class it was created
/// with. With more than one thread, work may finish in any order.
///
/// ## Cancellation
/// `run` throws `CancellationError` without running its body when the task is cancelled before the body starts
/// (also while it waits in the queue: it is taken out of the queue at once, in O(1)). A body that has started is
/// not interrupted — blocking calls cannot be — and runs outside any task, so `Task.isCancelled` is false inside
/// it: to stop between blocking steps, run the steps in a task instead (inside `withTaskExecutorPreference`, or as
/// a blocking job of a `WorkQueue`), where `Task.isCancelled` works as usual.
// Unchecked-Sendable invariant: every `var` is touched only while `condition` is locked (see the body).
public final class BlockingExecutor: TaskExecutor, @unchecked Sendable {
    // Unchecked-Sendable invariant: every `var` below is read and written only between `condition.lock()`
    // and `condition.unlock()`; `condition` is itself thread-safe and lives as long as the executor (worker
    // threads retain the executor). Exercised under Thread Sanitizer by `BlockingExecutorTests`.

    /// The executor shared by the whole process: `max(64, 4 × active processors)` threads, named
    /// `sy-blocking-<n>` (short enough for Linux's 15-byte thread names), idle threads exit after 10 seconds.
    public static let shared = BlockingExecutor(
        name: "sy-blocking", maximumThreads: max(64, 4 * activeProcessorCount()))

    /// The prefix of every thread's name.
    public let name: String
    /// The stack size of every thread: 8 MiB, glibc's default, on every platform.
    public static let threadStackSize = 8 << 20
    /// The most threads this executor runs at once.
    public let maximumThreads: Int
    /// How long a thread waits for work before it exits.
    public let idleTimeout: Duration

    private let condition = PlatformCondition()
    var pending = PendingWorkQueue()
    var threads = 0
    /// Threads that will look at `pending` before they wait or exit: waiting threads, threads finishing a
    /// handshake, and threads started but not yet running.
    var idle = 0
    /// Threads waiting for work, the one that went idle last at the end: work wakes that one (LIFO).
    private var waiting: [IdleThread] = []
    /// Idle timeouts longer than this (about a century) are taken as this one: "never" without overflowing a deadline.
    private static let longestIdleTimeout = Duration.seconds(3_000_000_000)
    var busy = 0
    var completed: UInt64 = 0
    var peakThreads = 0
    private var threadsEverStarted = 0
    #if SWITCHYARD_TEST_HOOKS
        /// Thread starts still to be refused as if `pthread_create` had failed (``refuseThreadStarts(_:)``, tests).
        private var threadStartsToRefuse = 0
    #endif
    /// Threads inside a blocking wait (``releaseSlotForWait()``): their slots are free for replacement threads.
    var threadsInWaits = 0
    /// Set by ``shutdown()``: from then on idle threads exit at once.
    private var isShuttingDown = false
    /// Callers of ``shutdown()`` waiting for the last thread to exit.
    private var shutdownWaiters: [CheckedContinuation<Void, Never>] = []

    /// Creates an executor with its own threads.
    ///
    /// - Parameters:
    ///   - name: thread-name prefix; Linux shows at most 15 characters of a thread name, so keep it short.
    ///   - maximumThreads: the bound on threads (at least 1).
    ///   - idleTimeout: how long an idle thread lingers before exiting (zero or less: it exits at once).
    public init(name: String, maximumThreads: Int, idleTimeout: Duration = .seconds(10)) {
        precondition(maximumThreads >= 1, "BlockingExecutor \"\(name)\": maximumThreads must be at least 1")
        self.name = name
        self.maximumThreads = maximumThreads
        self.idleTimeout = idleTimeout
    }

    // MARK: TaskExecutor

    /// Runs `job` on one of this executor's threads (the `TaskExecutor` entry point used by
    /// `withTaskExecutorPreference` and `Task(executorPreference:)`).
    public func enqueue(_ job: consuming ExecutorJob) {
        let priority = TaskPriority(rawValue: job.priority.rawValue)
        submit(PendingWork(.job(UnownedJob(job)), priority: priority), ticket: takeTicket())
    }

    // MARK: Running closures

    /// Runs blocking `body` on one of this executor's threads and returns its result; the calling task suspends
    /// meanwhile, and no cooperative thread is held.
    ///
    /// - Parameters:
    ///   - priority: the priority it waits at when every thread is busy; by default the task's. It moves up if the
    ///     task is escalated while it waits.
    ///   - body: the blocking work.
    /// - Throws: `body`'s error, or `CancellationError` if the task is cancelled before `body` starts.
    public func run<Result: Sendable>(
        priority: TaskPriority? = nil, _ body: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try Task.checkCancellation()
        let pendingRun = PendingRun<Result>()
        let work = PendingWork(.handshake { pendingRun.start(body) }, priority: priority ?? Task.currentPriority)
        return try await withTaskCancellationHandler {
            try await withTaskPriorityEscalationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    guard pendingRun.wait(with: continuation) else { return }
                    submit(work)
                }
                return try pendingRun.outcome()
            } onPriorityEscalated: { _, escalated in
                self.withLock { self.pending.escalate(work, to: escalated) }
            }
        } onCancel: {
            pendingRun.cancel()
            self.withLock { _ = self.pending.remove(work) }
        }
    }

    /// Lets the work queued so far finish, then returns once every thread has exited; from now on a thread exits
    /// as soon as it is idle. Work submitted later still runs (on a thread started for it, which exits when idle),
    /// so an executor can be shut down while a stray task still prefers it. Not for ``shared``, whose threads
    /// serve the whole process (a precondition).
    public func shutdown() async {
        precondition(self !== BlockingExecutor.shared, "BlockingExecutor.shared cannot be shut down")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished: Bool = withLock {
                isShuttingDown = true
                for thread in waiting { thread.signal.wake() }  // not handed work: they see the flag and exit
                if threads == 0 { return true }
                shutdownWaiters.append(continuation)
                return false
            }
            if finished { continuation.resume() }
        }
    }

    /// Runs `body` on one of this executor's threads, later, and returns at once (fire and forget).
    /// - Parameters:
    ///   - priority: the priority it waits at when every thread is busy.
    ///   - body: the blocking work.
    public func execute(priority: TaskPriority = .medium, _ body: @escaping @Sendable () -> Void) {
        submit(PendingWork(.closure(body), priority: priority))
    }

    // MARK: Workers

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    private func submit(_ work: PendingWork, ticket: EnqueueTicket? = nil) {
        let startThread: Int? = withLock {
            pending.append(work)
            ticket?.record(work)
            // Every idle thread takes one pending item before it waits again, so a new thread is needed only when
            // pending items outnumber idle threads (a thread woken for an item another one took simply waits on).
            if pending.count <= idle {
                // The thread that went idle last takes it (a thread not waiting yet checks `pending` first), so
                // under light load the same few threads do the work and the others time out.
                if let thread = waiting.popLast() {
                    thread.isWoken = true
                    thread.signal.wake()
                }
                return nil
            }
            return reserveThread()  // nil when all are busy: the item waits its turn (by priority)
        }
        if let number = startThread { spawnThread(number: number) }
    }

    /// Threads waiting for work now (tests).
    var waitingThreadCount: Int { withLock { waiting.count } }

    #if SWITCHYARD_TEST_HOOKS
        /// Makes the next `count` thread starts fail as a refused `pthread_create` does (`EAGAIN`: a pids limit), so
        /// tests can exercise that path (debug builds only).
        func refuseThreadStarts(_ count: Int) { withLock { threadStartsToRefuse = count } }
    #endif

    /// Counts a new thread in, if pending work outnumbers idle threads and there is room; returns its number, for
    /// `spawnThread` to start once the lock is released. Lock held.
    func reserveThread() -> Int? {
        guard pending.count > idle, threads < min(maximumThreads + threadsInWaits, hardThreadLimit) else { return nil }
        threads += 1
        idle += 1  // until it runs: it takes a pending item first thing
        threadsEverStarted += 1
        peakThreads = max(peakThreads, threads)
        return threadsEverStarted
    }

    func spawnThread(number: Int) {
        let context = Unmanaged.passRetained(WorkerContext(executor: self, name: name, number: number))
        var thread = pthread_t.init(bitPattern: 0)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // glibc's default is 8 MiB, musl's 128 KiB and Darwin's 512 KiB for secondary threads: blocking work
        // (SQLite, zlib, recursive parsers, debug builds) gets the same room everywhere.
        pthread_attr_setstacksize(&attributes, BlockingExecutor.threadStackSize)
        #if SWITCHYARD_TEST_HOOKS
            let refused = withLock {
                guard threadStartsToRefuse > 0 else { return false }
                threadStartsToRefuse -= 1
                return true
            }
        #else
            let refused = false
        #endif
        #if canImport(Darwin)
            let result =
                refused
                ? EAGAIN
                : pthread_create(
                    &thread, &attributes,
                    { raw in
                        Unmanaged<WorkerContext>.fromOpaque(raw).takeRetainedValue().main()
                        return nil
                    }, context.toOpaque())
        #else
            let result =
                refused
                ? EAGAIN
                : pthread_create(
                    &thread, &attributes,
                    { raw in
                        Unmanaged<WorkerContext>.fromOpaque(raw!).takeRetainedValue().main()
                        return nil
                    }, context.toOpaque())
        #endif
        guard result == 0 else {
            // EAGAIN: a pids cgroup limit or RLIMIT_NPROC. The work stays queued for the threads there are.
            context.release()
            let stranded = withLock {
                threads -= 1
                idle -= 1
                return threads == 0
            }
            precondition(
                !stranded,
                "BlockingExecutor \"\(name)\": pthread_create failed (\(result)) and no thread is left to run work")
            return
        }
        #if canImport(Darwin) || canImport(Musl)
            pthread_detach(thread!)  // pthread_t is an optional pointer there; non-nil after success
        #else
            pthread_detach(thread)
        #endif
    }

    /// Runs one work item on this worker thread, lock not held, and releases it; says whether anything ran (a
    /// cancelled `run` skips its slot) and returns the wake-up of a handshake's caller.
    private func perform(_ work: consuming PendingWork) -> (ran: Bool, wakeUp: (@Sendable () -> Void)?) {
        switch work.item {
        case .job(let job):
            job.runSynchronously(on: asUnownedTaskExecutor())
            return (true, nil)
        case .closure(let body):
            body()
            return (true, nil)
        case .handshake(let body):
            let wakeUp = body()
            return (wakeUp != nil, wakeUp)
        }
    }

    /// The loop of each worker thread (see ``WorkerContext``): runs waiting work, highest priority first; parks
    /// while there is none; ends after `idleTimeout` idle, or at shutdown.
    func workerLoop() {
        BlockingExecutor.setCurrentWorker(self)
        let me = IdleThread()
        condition.lock()
        idle -= 1  // counted as idle since it was started
        while true {
            if let work = pending.popFirst() {
                busy += 1
                condition.unlock()
                // The work item (and what its closure captured) is released inside `perform`, before the lock is
                // taken again: its deinits are user code, which may submit work here.
                let (ran, wakeUp) = perform(consume work)
                condition.lock()
                busy -= 1
                if ran { completed &+= 1 }  // else a `run` cancelled while queued: its slot is skipped
                if let number = reserveThread() {
                    // Only after a refused pthread_create: the work it was for still waits, try again now.
                    condition.unlock()
                    spawnThread(number: number)
                    condition.lock()
                }
                if let wakeUp = consume wakeUp {
                    // Count as idle while waking the caller: work it submits at once is ours to take.
                    idle += 1
                    condition.unlock()
                    wakeUp()
                    _ = consume wakeUp  // released before the lock, like the work item
                    condition.lock()
                    idle -= 1  // work submitted meanwhile is in `pending`, which the loop checks next
                }
                continue
            }
            idle += 1
            me.isWoken = false
            waiting.append(me)
            // One deadline for the whole idle period: a wake-up that finds no work does not restart it.
            // A replacement thread beyond the bound (started while others wait) exits as soon as it is idle.
            let surplus = threads > maximumThreads + threadsInWaits
            let timeout = isShuttingDown || surplus ? .zero : min(idleTimeout, BlockingExecutor.longestIdleTimeout)
            let deadline = ContinuousClock.now + timeout
            while !me.isWoken, !isShuttingDown {
                let remaining = deadline - .now
                if remaining <= .zero { break }
                _ = condition.wait(on: me.signal, timeout: remaining)
            }
            idle -= 1
            if !me.isWoken {
                // Timed out (not handed work): leave the idle stack, and exit unless work came meanwhile.
                if let index = waiting.lastIndex(where: { $0 === me }) { waiting.remove(at: index) }
                if pending.isEmpty {
                    threads -= 1
                    let joined = threads == 0 ? shutdownWaiters : []
                    if threads == 0 { shutdownWaiters = [] }
                    condition.unlock()
                    for waiter in joined { waiter.resume() }
                    return
                }
            }
        }
    }
}
