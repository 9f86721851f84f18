import DequeModule
import Synchronization

/// A queue of jobs: async or blocking closures with names, priorities, typed results, dependencies, a width limit,
/// cancellation, back-pressure, progress and live introspection. `OperationQueue` rethought for async/await.
///
/// ```swift
/// let queue = WorkQueue(name: "import", width: 4)
/// let stops = try await queue.submit("parse stops") { try await parseStops() }
/// let trips = try await queue.submit("parse trips") { try await parseTrips() }
/// let index = try await queue.submit("index", after: stops, trips) { stops, trips in
///     buildIndex(stops, trips)                                     // runs once both succeeded, with their values
/// }
/// print(queue)                                                     // a table of every job and why it waits
/// let result = try await index.value
/// ```
///
/// ## Guarantees
/// - **Start order**: a job starts when all its dependencies have finished (per edge policy), it is not held or
///   delayed, and its queue and every ``LimitDomain`` above it have a free slot. Among ready jobs of one queue, the
///   highest effective priority starts first and equal priorities start in the order they became ready (FIFO;
///   a job whose priority changes joins the back of its new level). Across queues of one domain, see
///   ``LimitDomain``. Finishing order is not guaranteed.
/// - **Width**: at most `width` jobs of the queue run at once. Changing it never interrupts a running job; see
///   ``width``.
/// - **Priority escalation**: a job's effective priority is the maximum of its own, that of every unfinished job
///   depending on it, and that of every task awaiting its value; it propagates through the whole graph, across
///   queues, and falls back when the waiters go away. It decides the ready bucket and the job task's priority.
/// - **Cancellation**: a pending job that is cancelled finishes at once as ``JobError/cancelled``, never runs, and
///   its slot in the queue's bookkeeping is freed immediately; a running job's task is cancelled (cooperative).
/// - **Where things run**: async bodies on the global concurrent executor, in detached worker tasks at the job's
///   priority (a worker may run several jobs one after another, each with its own ``JobContext``); blocking bodies
///   on the threads of the queue's ``blockingExecutor`` (by default ``BlockingExecutor/shared``), never on the
///   cooperative pool; completion handlers through the ``Delivery`` the caller names. No user code runs under the
///   engine's lock (closures and values a job drops are released after it).
/// - **Task-locals**: a job sees ``JobContext/current`` and the task-locals named in `propagating`, nothing else.
///
/// Thread-safe: every method may be called from any thread or task.
// Unchecked-Sendable invariant: `name`, `scheduler`, `maximumPending`, `overflowPolicy`, `propagation`,
// `events`, `eventOutbox` and `progress` are immutable references; every `var` is read and written only while the
// engine lock is held. Exercised under Thread Sanitizer by `WorkQueueStressTests`.
public final class WorkQueue: @unchecked Sendable, CustomStringConvertible {
    /// What `submit` does when ``maximumPending`` jobs are already pending.
    public enum OverflowPolicy: Sendable, Hashable {
        /// `submit` suspends until a pending job starts or is cancelled (FIFO among waiting submitters).
        case suspend
        /// `submit` throws ``SubmissionError/Code/full``.
        case reject
    }

    /// O(1) counts of the queue's jobs.
    public struct Counts: Sendable, Hashable, CustomStringConvertible {
        /// Submitted and not yet started (waiting or ready); a job waiting to retry is not pending.
        public var pending: Int
        /// Ready, waiting only for a slot: pending jobs, and jobs whose retry backoff is over. So `ready` can
        /// exceed `pending` (a retry has started once, so it no longer counts as pending).
        public var ready: Int
        /// Running an attempt.
        public var running: Int
        /// Finished with a value.
        public var succeeded: Int
        /// Finished by an error: the body's, a timeout, or a dependency's propagated failure.
        public var failed: Int
        /// Finished by cancellation.
        public var cancelled: Int
        /// Every job submitted since the queue was made (accepted submissions; refused ones are not counted).
        public var submitted: Int

        public var description: String {
            "pending \(pending) (ready \(ready)), running \(running), succeeded \(succeeded), failed \(failed), "
                + "cancelled \(cancelled), submitted \(submitted)"
        }
    }

    /// The queue's name, shown in snapshots, events and diagnostics.
    public let name: String
    /// The most jobs that may be pending (submitted, not started) at once; `nil` for no bound.
    public let maximumPending: Int?
    /// What `submit` does at the bound.
    public let overflowPolicy: OverflowPolicy
    /// The limit domain the queue's width counts against, if any.
    public let limit: LimitDomain?
    /// Where the queue's blocking jobs run.
    public let blockingExecutor: BlockingExecutor

    let scheduler: SchedulerNode
    /// The number of the last job created for this queue (``Job/number``).
    let jobNumbers = Atomic<UInt64>(0)
    /// The region whose lock guards the queue (its scheduler tree's; see ``EngineRegion``).
    let region: EngineRegion
    let propagation: [TaskLocalPropagation]
    let events = ObserverList<JobEvent>()
    /// Events built under the engine lock, waiting to be handed to `events` after it.
    let eventOutbox = OrderedOutbox<JobEvent>()
    let progress: ProgressAggregate

    @exclusivity(unchecked) var live = JobList(.live)
    /// The running jobs, in start order. A running job is in no ready bucket, so this list uses the bucket links.
    @exclusivity(unchecked) var runningJobs = JobList(.bucket)
    /// The latest failures, oldest first, at most ``recentFailureLimit``.
    @exclusivity(unchecked) var failures = Deque<JobFailure>()
    @exclusivity(unchecked) var pendingCount = 0
    @exclusivity(unchecked) var readyCount = 0
    @exclusivity(unchecked) var runningCount = 0
    @exclusivity(unchecked) var submittedCount = 0
    @exclusivity(unchecked) var succeededCount = 0
    @exclusivity(unchecked) var failedCount = 0
    @exclusivity(unchecked) var cancelledCount = 0
    @exclusivity(unchecked) var epoch = QueueEpoch()
    @exclusivity(unchecked) var lastBarrier: JobNode?
    @exclusivity(unchecked) var reservedRoom = 0
    /// Submitters suspended for room, FIFO; one that is cancelled leaves in O(1).
    @exclusivity(unchecked) var roomWaiters = WaiterQueue<CheckedContinuation<Bool, Never>>()
    @exclusivity(unchecked) var idleWaiters: [CheckedContinuation<Void, Never>] = []
    #if SWITCHYARD_TEST_HOOKS
        /// Test hook (debug builds only): how long a worker runs jobs back to back before it yields its thread when
        /// the job it takes next is this queue's; ``Worker/quantum`` unless a test sets it (`.zero`: a worker yields
        /// before every job it takes itself, whatever the machine's speed).
        @exclusivity(unchecked) var workerQuantum = Worker.quantum
    #endif

    /// A queue.
    /// - Parameters:
    ///   - name: shown in snapshots, events and diagnostics.
    ///   - width: the most jobs running at once; by default the number of active processors.
    ///   - limit: a domain whose budget the queue shares; its jobs then also need a slot there.
    ///   - weight: the queue's share among its siblings in `limit` (see ``LimitDomain``).
    ///   - maximumPending: a bound on pending jobs (back-pressure); `nil` for none.
    ///   - whenFull: what `submit` does at the bound.
    ///   - propagating: task-locals carried from submitter to job (see ``TaskLocalPropagation``).
    ///   - blockingExecutor: where blocking jobs run; by default ``BlockingExecutor/shared``. An executor of its
    ///     own keeps this queue's blocking work from competing for the shared threads, and the reverse. Idle
    ///     workers are kept for the shared executor only: on another one, a blocking job that does not follow
    ///     another directly starts a task of its own.
    /// - Precondition: `width >= 1`, `weight >= 1`, `maximumPending >= 1`.
    public init(
        name: String, width: Int = WorkQueue.defaultWidth, limit: LimitDomain? = nil, weight: Int = 1,
        maximumPending: Int? = nil, whenFull: OverflowPolicy = .suspend, propagating: [TaskLocalPropagation] = [],
        blockingExecutor: BlockingExecutor = .shared
    ) {
        precondition(maximumPending.map { $0 >= 1 } ?? true, "WorkQueue \"\(name)\": maximumPending must be ≥ 1")
        self.name = name
        self.limit = limit
        self.maximumPending = maximumPending
        overflowPolicy = whenFull
        propagation = propagating
        self.blockingExecutor = blockingExecutor
        scheduler = SchedulerNode(name: name, isLeaf: true, width: width, parent: limit?.scheduler, weight: weight)
        region = scheduler.region
        progress = ProgressAggregate(region: region)
        Engine.perform(in: region) { transaction in Engine._registerForChecks(self, &transaction) }
    }

    deinit {
        events.finishAll()
    }

    /// The default width: the number of processors this process may run on (its CPU affinity and cgroup quota).
    public static var defaultWidth: Int { activeProcessorCount() }

    /// The most jobs of this queue running at once.
    ///
    /// Changing it takes effect at once: a wider queue starts ready jobs immediately; a narrower one lets running
    /// jobs finish (none is interrupted or cancelled) and starts new jobs only once fewer than the new width run. If
    /// jobs waiting for work that needs a slot then fill the new width, the newest of them have their waits end
    /// with ``JobError/wouldDeadlock(_:)`` until they no longer do (see ``Job/value``).
    /// - Precondition: the new width is at least 1.
    public var width: Int {
        get { Engine.perform(in: region) { _ in scheduler.width } }
        set { scheduler.setWidth(newValue) }
    }

    /// The queue's counts. - Complexity: O(1).
    public var counts: Counts {
        Engine.perform(in: region) { _ in
            Counts(
                pending: pendingCount, ready: readyCount, running: runningCount, succeeded: succeededCount,
                failed: failedCount, cancelled: cancelledCount, submitted: submittedCount)
        }
    }

    /// Whether the queue is suspended: no new job starts (running ones continue); submissions are still accepted.
    public var isSuspended: Bool { Engine.perform(in: region) { _ in scheduler.isSuspended } }

    /// Stops starting jobs until ``resume()``. Running jobs are not affected. Ready jobs report
    /// ``WaitingReason/queueSuspended(_:)``.
    public func suspend() {
        Engine.perform(in: region) { _ in
            scheduler.isSuspended = true
            scheduler.refresh(fullPath: false)
        }
    }

    /// Starts jobs again after ``suspend()``.
    public func resume() {
        Engine.perform(in: region) { transaction in
            scheduler.isSuspended = false
            scheduler.refresh(fullPath: false)
            transaction.markForDispatch(scheduler)
        }
    }

    /// Cancels every job of the queue that has not finished: pending ones finish at once as cancelled, running ones
    /// have their tasks cancelled. Jobs submitted afterwards are not affected.
    /// - Complexity: O(unfinished jobs), in one hold of the queue's lock (shared with the queues its domain, its
    ///   dependency edges or its groups connect it to; see the engine article): their operations on other threads
    ///   (submits, workers finishing jobs) wait until the pass ends, so prefer cancelling groups or single jobs on
    ///   hot paths of a program with hundreds of thousands of pending jobs. Unrelated queues are not affected.
    public func cancelAll() {
        Engine.perform(in: region) { transaction in
            for job in live.nodes() { Engine.cancel(job, &transaction) }
        }
    }

    /// Waits until every job submitted so far (and any submitted meanwhile) has finished. Returns at once for an
    /// idle queue. The wait itself does not respond to cancellation (like `Task.value`).
    public func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Engine.perform(in: region) { transaction in
                if live.isEmpty {
                    transaction.actions.append { continuation.resume() }
                } else {
                    idleWaiters.append(continuation)
                }
            }
        }
    }

    /// A one-line summary followed by a table of every unfinished job (see ``WorkQueueSnapshot``).
    public var description: String { snapshot().description }
}
