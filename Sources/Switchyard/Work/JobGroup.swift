/// A set of jobs to wait for, be notified about, cancel together and follow as one progress.
///
/// ```swift
/// let batch = JobGroup(name: "thumbnails")
/// for url in urls {
///     try await queue.submit("thumbnail \(url)", options: JobOptions(group: batch)) { try await render(url) }
/// }
/// batch.notify(on: .main) { print("all thumbnails done") }
/// await batch.wait()
/// ```
///
/// A job joins a group when submitted with ``JobOptions/group`` and leaves it when it finishes (any outcome).
/// The group is *empty* when all its jobs have finished; like `DispatchGroup`, it can fill and empty again.
/// Jobs of one group may belong to different queues.
///
/// Thread-safe; all state sits behind the engine lock.
// Unchecked-Sendable invariant: `name` and `progress` are immutable references; every `var` is read and
// written only while the engine lock is held. Exercised under Thread Sanitizer by `CancellationTests`.
public final class JobGroup: @unchecked Sendable {
    /// The group's name.
    public let name: String
    /// The region whose lock guards the group: one of its own until a job is submitted to it, then united with
    /// that job's queue's (see ``EngineRegion``).
    let region = EngineRegion()
    let progress: ProgressAggregate
    @exclusivity(unchecked) var members = JobList(.group)
    @exclusivity(unchecked) var cancelRequested = false
    @exclusivity(unchecked) private var waiters: [CheckedContinuation<Void, Never>] = []
    @exclusivity(unchecked) private var notifications: [(Delivery, @Sendable () -> Void)] = []
    @exclusivity(unchecked) private var blockingWaiters: [BlockingSignal] = []

    /// An empty group.
    public init(name: String) {
        self.name = name
        progress = ProgressAggregate(region: region)
    }

    /// Jobs of the group that have not finished. - Complexity: O(1).
    public var count: Int { Engine.perform(in: region) { _ in members.count } }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { Engine.perform(in: region) { _ in cancelRequested } }

    /// Whether ``cancel()`` was called.
    @available(*, deprecated, renamed: "isCancelled")
    public var isCancelledGroup: Bool { isCancelled }

    /// The group's progress since it was last empty (see ``WorkProgress``).
    public var currentProgress: WorkProgress { Engine.perform(in: region) { progress.current(&$0) } }

    /// Cancels every unfinished job of the group, and every job submitted to it from now on (it finishes at once
    /// as cancelled). - Complexity: O(unfinished jobs).
    public func cancel() {
        Engine.perform(in: region) { transaction in
            cancelRequested = true
            for job in members.nodes() { Engine.cancel(job, &transaction) }
        }
    }

    /// Waits until the group is empty. Returns at once if it is. Does not respond to task cancellation.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Engine.perform(in: region) { transaction in
                if members.isEmpty {
                    transaction.actions.append { continuation.resume() }
                } else {
                    waiters.append(continuation)
                }
            }
        }
    }

    /// Blocks the calling thread until the group is empty or `timeout` passes; returns whether it emptied.
    ///
    /// For synchronous code only (command-line tools, legacy callbacks, blocking jobs on ``BlockingExecutor``).
    /// Never call it on the cooperative pool or the main thread: it blocks the thread.
    public func waitBlocking(timeout: Duration? = nil) -> Bool {
        let signal = BlockingSignal()
        let registered = Engine.perform(in: region) { _ in
            if members.isEmpty { return false }
            blockingWaiters.append(signal)
            return true
        }
        if !registered { return true }
        // On a BlockingExecutor thread the slot is free while this waits, for the work the group waits for.
        let slot = BlockingExecutor.releaseSlotForWait()
        defer { slot?.reacquireSlot() }
        if signal.wait(timeout: timeout) { return true }
        Engine.perform(in: region) { _ in blockingWaiters.removeAll { $0 === signal } }
        return signal.wait(timeout: .zero)
    }

    /// Runs `work` through `delivery` once the group is next empty (at once if it is now). Called exactly once.
    public func notify(on delivery: Delivery, _ work: @escaping @Sendable () -> Void) {
        let now = Engine.perform(in: region) { _ in
            if members.isEmpty { return true }
            notifications.append((delivery, work))
            return false
        }
        if now { delivery.deliver(work) }
    }

    // MARK: Engine side (lock held)

    func add(_ job: JobNode, _ transaction: inout Transaction) {
        let wasEmpty = members.isEmpty
        job.group = self
        members.append(job)
        progress.jobAdded(isFirst: wasEmpty, &transaction)
    }

    func finished(_ job: JobNode, remaining: ProgressRemainder, _ transaction: inout Transaction) {
        members.remove(job)
        job.group = nil
        progress.jobFinished(completedUnits: remaining.units, shares: remaining.shares, &transaction)
        guard members.isEmpty else { return }
        let waiters = self.waiters
        let notifications = self.notifications
        let blocking = blockingWaiters
        self.waiters = []
        self.notifications = []
        blockingWaiters = []
        transaction.actions.append {
            for waiter in waiters { waiter.resume() }
            for (delivery, work) in notifications { delivery.deliver(work) }
            for signal in blocking { signal.fire() }
        }
    }
}

/// A one-shot flag a thread can block on.
///
/// Unchecked-Sendable invariant: `fired` is read and written only while `condition`'s mutex is held.
/// Exercised under Thread Sanitizer by `CancellationTests`.
final class BlockingSignal: @unchecked Sendable {
    private let condition = PlatformCondition()
    @exclusivity(unchecked) private var fired = false

    /// Sets the flag and wakes the waiter.
    func fire() {
        condition.lock()
        fired = true
        condition.signal()
        condition.unlock()
    }

    /// Blocks until fired or `timeout` passes (forever when nil); returns whether it fired.
    func wait(timeout: Duration?) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let timeout else {
            while !fired { condition.wait() }
            return true
        }
        let deadline = ContinuousClock.now + timeout
        while !fired {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero { break }
            _ = condition.wait(timeout: remaining)
        }
        return fired
    }
}
