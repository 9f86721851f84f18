/// The progress of a set of jobs (a queue's, or a group's) since it was last idle.
///
/// Every job counts its own units: the totals it reports through ``JobContext/reportProgress(completed:total:)``,
/// or one unit if it reports none. A finished job (whatever its outcome) counts all its units as completed. When
/// the set becomes idle (every job finished), the next submission starts a new count from zero.
///
/// ``fractionCompleted`` gives every job an equal share, filled as the job reports (`completed / total`) and full
/// when it finishes, as Foundation's `Progress` does with a pending unit count of 1 per child. So it never moves
/// backwards while the set's jobs run, whatever totals they report and when: a job's share only grows (a report
/// lower than an earlier one, such as a retry starting over, leaves it where it was). It drops only when jobs are
/// added. The unit sums (``completedUnits``, ``totalUnits``) are reported as they are and may move either way.
public struct WorkProgress: Sendable, Hashable, CustomStringConvertible {
    /// Units completed by the jobs of the set.
    public var completedUnits: Int64
    /// Units the jobs of the set have announced.
    public var totalUnits: Int64
    /// Jobs that finished.
    public var finishedJobs: Int
    /// Jobs submitted.
    public var totalJobs: Int
    /// The jobs' filled shares, in 1/2^32 of one job.
    var completedShares: Int64

    /// A progress value; its fraction is `completedUnits / totalUnits` (as if all units belonged to one job).
    public init(completedUnits: Int64, totalUnits: Int64, finishedJobs: Int, totalJobs: Int) {
        self.completedUnits = completedUnits
        self.totalUnits = totalUnits
        self.finishedJobs = finishedJobs
        self.totalJobs = totalJobs
        let fraction = totalUnits == 0 ? 1 : Double(completedUnits) / Double(totalUnits)
        completedShares = Int64(fraction * Double(max(totalJobs, 1)) * Double(JobNode.progressShareUnit))
    }

    init(completedUnits: Int64, totalUnits: Int64, finishedJobs: Int, totalJobs: Int, completedShares: Int64) {
        self.completedUnits = completedUnits
        self.totalUnits = totalUnits
        self.finishedJobs = finishedJobs
        self.totalJobs = totalJobs
        self.completedShares = completedShares
    }

    /// The jobs' shares filled, from 0 to 1 (1 when there is nothing to do); see the type's notes.
    public var fractionCompleted: Double {
        if totalJobs == 0 { return 1 }
        return min(1, Double(completedShares) / (Double(totalJobs) * Double(JobNode.progressShareUnit)))
    }

    /// Whether every job of the set has finished.
    public var isFinished: Bool { finishedJobs == totalJobs }

    public var description: String {
        let percent = (fractionCompleted * 1000).rounded() / 10
        return "\(percent)% (\(completedUnits)/\(totalUnits) units, \(finishedJobs)/\(totalJobs) jobs)"
    }

    static let zero = WorkProgress(completedUnits: 0, totalUnits: 0, finishedJobs: 0, totalJobs: 0, completedShares: 0)
}

/// What a finishing job adds to its sets' completed totals: the units and the share it had not reported.
struct ProgressRemainder {
    let units: Int64
    let shares: Int64
}

/// A progress total with its throttled observers, and the jobs whose reports it has yet to apply.
///
/// Unchecked-Sendable invariant: every `var` is read and written only while the engine lock is held.
/// Exercised under Thread Sanitizer by `IntrospectionTests`.
final class ProgressAggregate: @unchecked Sendable {
    /// The region of the queue or group whose jobs this aggregates.
    let region: EngineRegion
    @exclusivity(unchecked) private var totals = WorkProgress.zero
    @exclusivity(unchecked) private var observers: [UInt64: ProgressObserver] = [:]
    /// Running jobs of this set with a report not yet applied (at most one entry per running job).
    @exclusivity(unchecked) var pending: [ObjectIdentifier: JobNode] = [:]

    init(region: EngineRegion) {
        self.region = region
    }

    /// The totals, with every pending report applied first. - Complexity: O(jobs with a pending report).
    func current(_ transaction: inout Transaction) -> WorkProgress {
        applyPending(&transaction)
        return totals
    }

    /// Applies the reports of the jobs in ``pending`` (to this set and to their other set).
    func applyPending(_ transaction: inout Transaction) {
        while let (_, job) = pending.first {
            Engine.applyReportedProgress(job, &transaction)
        }
    }

    func jobAdded(isFirst: Bool, _ transaction: inout Transaction) {
        if isFirst { totals = .zero }
        totals.totalJobs += 1
        totals.totalUnits += 1
        publish(&transaction)
    }

    func unitsChanged(completed: Int64, total: Int64, shares: Int64, _ transaction: inout Transaction) {
        totals.completedUnits += completed
        totals.totalUnits += total
        totals.completedShares += shares
        publish(&transaction)
    }

    func jobFinished(completedUnits: Int64, shares: Int64, _ transaction: inout Transaction) {
        totals.completedUnits += completedUnits
        totals.completedShares += shares
        totals.finishedJobs += 1
        publish(&transaction)
    }

    func add(_ observer: ProgressObserver, _ transaction: inout Transaction) {
        applyPending(&transaction)
        observers[observer.identifier] = observer
        observer.offer(totals, &transaction)
    }

    /// A job of this set reported: observers that are between deliveries schedule one (which applies it).
    func reportPending(_ transaction: inout Transaction) {
        for observer in observers.values { observer.requestUpdate(from: self, &transaction) }
    }

    func remove(_ identifier: UInt64, _ transaction: inout Transaction) {
        observers.removeValue(forKey: identifier)?.removed(&transaction)
    }

    private func publish(_ transaction: inout Transaction) {
        if observers.isEmpty { return }
        for observer in observers.values { observer.offer(totals, &transaction) }
    }
}

/// One throttled progress stream. Guarded by the engine lock.
///
/// Delivery starts a cool-down of `interval`, timed by a task sleeping on the observer's clock (so no clock is read
/// under the engine lock: a custom clock's `now` is user code). An update that moves the fraction by at least
/// `minimumChange` (or changes the job count) is delivered at once outside a cool-down, and held until it ends
/// inside one; completion (every job finished) is always delivered at once. Job reports not yet applied are applied
/// when the cool-down ends, so a job reporting per record costs the engine lock at most once per interval.
/// Deliveries are in order (one `AsyncStream`), yielded after the engine lock is released.
///
/// Unchecked-Sendable invariant: every `var` is read and written only while the engine lock is held (the
/// cool-down task takes it). Exercised under Thread Sanitizer by `IntrospectionTests`.
final class ProgressObserver: @unchecked Sendable {
    let identifier = Engine.nextIdentifier()
    private let interval: Duration
    private let minimumChange: Double
    private let sleep: @Sendable (Duration) async throws -> Void
    private let continuation: AsyncStream<WorkProgress>.Continuation
    private let outbox = OrderedOutbox<WorkProgress>()
    @exclusivity(unchecked) private var lastDelivered: WorkProgress?
    @exclusivity(unchecked) private var latest: WorkProgress?
    /// A cool-down task is sleeping; when it ends it applies pending reports and delivers what was held.
    @exclusivity(unchecked) private var coolingDown = false
    /// The aggregate with reports to apply when the cool-down ends. Weak: the aggregate owns its observers.
    @exclusivity(unchecked) private weak var pendingSource: ProgressAggregate?
    /// The sleeping cool-down task, cancelled when the stream ends (so no sleep outlives its observer).
    @exclusivity(unchecked) private var coolDownTask: Task<Void, Never>?
    @exclusivity(unchecked) private var isRemoved = false

    /// The region of the aggregate the observer watches.
    let region: EngineRegion

    init<C: Clock>(
        interval: Duration, minimumChange: Double, clock: C, region: EngineRegion,
        continuation: AsyncStream<WorkProgress>.Continuation
    ) where C.Duration == Duration {
        self.region = region
        self.interval = interval
        self.minimumChange = minimumChange
        self.continuation = continuation
        sleep = { try await clock.sleep(for: $0) }
    }

    func offer(_ progress: WorkProgress, _ transaction: inout Transaction) {
        latest = progress
        guard let previous = lastDelivered else { return deliver(progress, &transaction) }
        if progress.isFinished, progress != previous { return deliver(progress, &transaction) }
        if !coolingDown, isWorthDelivering(progress, after: previous) { deliver(progress, &transaction) }
    }

    /// A job of the aggregate reported progress that is not applied yet: it is applied when the current cool-down
    /// ends, or after one started now (a report stream then costs one lock hold per interval).
    func requestUpdate(from aggregate: ProgressAggregate, _ transaction: inout Transaction) {
        pendingSource = aggregate
        if !coolingDown { startCoolDown(&transaction) }
    }

    private func isWorthDelivering(_ progress: WorkProgress, after previous: WorkProgress) -> Bool {
        progress != previous
            && (abs(progress.fractionCompleted - previous.fractionCompleted) >= minimumChange
                || progress.totalJobs != previous.totalJobs)
    }

    private func startCoolDown(_ transaction: inout Transaction) {
        guard !isRemoved else { return }
        coolingDown = true
        let (sleep, interval, region) = (self.sleep, self.interval, self.region)
        transaction.actions.append {
            let task = Task.detached {
                try? await sleep(interval)
                Engine.perform(in: region) { transaction in self.coolDownEnded(&transaction) }
            }
            Engine.perform(in: region) { _ in
                if self.isRemoved { task.cancel() } else if self.coolingDown { self.coolDownTask = task }
            }
        }
    }

    /// The stream ended: the cool-down in progress is cancelled (after the lock), and no other starts.
    func removed(_ transaction: inout Transaction) {
        isRemoved = true
        if let task = coolDownTask {
            coolDownTask = nil
            transaction.actions.append { task.cancel() }
        }
    }

    private func coolDownEnded(_ transaction: inout Transaction) {
        coolDownTask = nil
        guard !isRemoved else { return }
        coolingDown = false
        let source = pendingSource
        pendingSource = nil
        source?.applyPending(&transaction)  // offers the new totals: may deliver and start the next cool-down
        if !coolingDown, let latest, let lastDelivered, isWorthDelivering(latest, after: lastDelivered) {
            deliver(latest, &transaction)
        } else if !coolingDown, source != nil {
            startCoolDown(&transaction)  // reports kept coming: keep applying them at most once per interval
        }
    }

    /// Records the delivery now and yields after the engine lock is released (see ``OrderedOutbox``: a stream's
    /// `onTermination` takes the engine lock while its task's status lock is held).
    private func deliver(_ progress: WorkProgress, _ transaction: inout Transaction) {
        lastDelivered = progress
        if !coolingDown { startCoolDown(&transaction) }
        transaction.deliverAfterUnlock(progress, through: outbox) { [continuation] in continuation.yield($0) }
    }
}

extension Engine {
    /// The first report since the job's last one was applied: the job joins its sets' pending lists, and their
    /// observers schedule an update. Lock held. - Complexity: O(observers).
    static func progressReported(_ job: JobNode, _ transaction: inout Transaction) {
        guard job.phase != .finished else { return }
        let identity = ObjectIdentifier(job)
        job.queue.progress.pending[identity] = job
        job.queue.progress.reportPending(&transaction)
        if let group = job.group {
            group.progress.pending[identity] = job
            group.progress.reportPending(&transaction)
        }
    }

    /// Applies the job's latest report (if one is pending) to its queue and group, and takes it off their
    /// pending lists. Lock held. - Complexity: O(observers).
    static func applyReportedProgress(_ job: JobNode, _ transaction: inout Transaction) {
        // No report pending: the job is on no pending list either (it joins them, under this lock, only after its
        // report set the bit, and leaves them, under this lock, when the bit is cleared below). The common job
        // never reports, and finishing it then costs one load here instead of two hash lookups and an RMW.
        if job.reportedTotal.load(ordering: .acquiring) & JobNode.progressPendingBit == 0 { return }
        let identity = ObjectIdentifier(job)
        job.queue.progress.pending[identity] = nil
        job.group?.progress.pending[identity] = nil
        // Clearing the pending bit first (acquiring, paired with the report's releasing exchange) makes a report
        // that lands after this read set it again and come back through `progressReported`.
        let word = job.reportedTotal.bitwiseAnd(~JobNode.progressPendingBit, ordering: .acquiring).oldValue
        guard word & JobNode.progressPendingBit != 0, job.phase != .finished else { return }
        let total = word & ~JobNode.progressPendingBit
        let completed = min(job.reportedCompleted.load(ordering: .relaxed), total)
        let share =
            total == 0
            ? job.progressShare
            : max(job.progressShare, Int64(Double(completed) / Double(total) * Double(JobNode.progressShareUnit)))
        let deltaCompleted = completed - job.progressCompleted
        let deltaTotal = total - job.progressTotal
        let deltaShare = share - job.progressShare
        if deltaCompleted == 0 && deltaTotal == 0 && deltaShare == 0 { return }
        job.progressCompleted = completed
        job.progressTotal = total
        job.progressShare = share
        job.queue.progress.unitsChanged(completed: deltaCompleted, total: deltaTotal, shares: deltaShare, &transaction)
        job.group?.progress.unitsChanged(completed: deltaCompleted, total: deltaTotal, shares: deltaShare, &transaction)
    }
}
