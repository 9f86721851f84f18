/// The progress of a set of jobs (a queue's, or a group's) since it was last idle.
///
/// Every job counts its own units: the totals it reports through ``JobContext/reportProgress(completed:total:)``,
/// or one unit if it reports none. A finished job (whatever its outcome) counts all its units as completed. When
/// the set becomes idle (every job finished), the next submission starts a new count from zero.
public struct WorkProgress: Sendable, Hashable, CustomStringConvertible {
    /// Units completed by the jobs of the set.
    public var completedUnits: Int64
    /// Units the jobs of the set have announced.
    public var totalUnits: Int64
    /// Jobs that finished.
    public var finishedJobs: Int
    /// Jobs submitted.
    public var totalJobs: Int

    /// A progress value.
    public init(completedUnits: Int64, totalUnits: Int64, finishedJobs: Int, totalJobs: Int) {
        self.completedUnits = completedUnits
        self.totalUnits = totalUnits
        self.finishedJobs = finishedJobs
        self.totalJobs = totalJobs
    }

    /// `completedUnits / totalUnits`, or 1 when there is nothing to do.
    public var fractionCompleted: Double {
        totalUnits == 0 ? 1 : Double(completedUnits) / Double(totalUnits)
    }

    /// Whether every job of the set has finished.
    public var isFinished: Bool { finishedJobs == totalJobs }

    public var description: String {
        let percent = (fractionCompleted * 1000).rounded() / 10
        return "\(percent)% (\(completedUnits)/\(totalUnits) units, \(finishedJobs)/\(totalJobs) jobs)"
    }

    static let zero = WorkProgress(completedUnits: 0, totalUnits: 0, finishedJobs: 0, totalJobs: 0)
}

/// A progress total with its throttled observers.
///
/// Unchecked-Sendable invariant: every `var` is read and written only while the engine lock is held.
/// Exercised under Thread Sanitizer by `IntrospectionTests`.
final class ProgressAggregate: @unchecked Sendable {
    @exclusivity(unchecked) private(set) var progress = WorkProgress.zero
    @exclusivity(unchecked) private var observers: [UInt64: ProgressObserver] = [:]

    func jobAdded(isFirst: Bool, _ transaction: inout Transaction) {
        if isFirst { progress = .zero }
        progress.totalJobs += 1
        progress.totalUnits += 1
        publish(&transaction)
    }

    func unitsChanged(completed: Int64, total: Int64, _ transaction: inout Transaction) {
        progress.completedUnits += completed
        progress.totalUnits += total
        publish(&transaction)
    }

    func jobFinished(completedUnits: Int64, _ transaction: inout Transaction) {
        progress.completedUnits += completedUnits
        progress.finishedJobs += 1
        publish(&transaction)
    }

    func add(_ observer: ProgressObserver, _ transaction: inout Transaction) {
        observers[observer.identifier] = observer
        observer.offer(progress, &transaction)
    }

    func remove(_ identifier: UInt64) {
        observers[identifier] = nil
    }

    private func publish(_ transaction: inout Transaction) {
        if observers.isEmpty { return }
        for observer in observers.values { observer.offer(progress, &transaction) }
    }
}

/// One throttled progress stream. Guarded by the engine lock.
///
/// An update is delivered when at least `interval` has passed since the previous delivery and the fraction moved by
/// at least `minimumChange`; an update held back only by time is delivered when the interval ends; completion
/// (every job finished) is always delivered at once. Deliveries are in order (one `AsyncStream`), yielded after the
/// engine lock is released.
///
/// Unchecked-Sendable invariant: every `var` is read and written only while the engine lock is held (the
/// trailing-delivery task takes it). Exercised under Thread Sanitizer by `IntrospectionTests`.
final class ProgressObserver: @unchecked Sendable {
    let identifier = Engine.nextIdentifier()
    private let interval: Duration
    private let minimumChange: Double
    private let elapsedSinceLast: @Sendable () -> Duration?
    private let markDelivered: @Sendable () -> Void
    private let sleep: @Sendable (Duration) async throws -> Void
    private let continuation: AsyncStream<WorkProgress>.Continuation
    private let outbox = OrderedOutbox<WorkProgress>()
    @exclusivity(unchecked) private var lastDelivered: WorkProgress?
    @exclusivity(unchecked) private var latest: WorkProgress?
    @exclusivity(unchecked) private var trailingScheduled = false

    init<C: Clock>(
        interval: Duration, minimumChange: Double, clock: C,
        continuation: AsyncStream<WorkProgress>.Continuation
    ) where C.Duration == Duration {
        self.interval = interval
        self.minimumChange = minimumChange
        self.continuation = continuation
        let last = ClockMark(clock: clock)
        elapsedSinceLast = { last.elapsed() }
        markDelivered = { last.mark() }
        sleep = { try await clock.sleep(for: $0) }
    }

    func offer(_ progress: WorkProgress, _ transaction: inout Transaction) {
        latest = progress
        guard let previous = lastDelivered else { return deliver(progress, &transaction) }
        if progress == previous { return }
        if progress.isFinished { return deliver(progress, &transaction) }
        if abs(progress.fractionCompleted - previous.fractionCompleted) < minimumChange
            && progress.totalJobs == previous.totalJobs
        {
            return
        }
        let elapsed = elapsedSinceLast() ?? interval
        if elapsed >= interval { return deliver(progress, &transaction) }
        if trailingScheduled { return }
        trailingScheduled = true
        let remaining = interval - elapsed
        let sleep = self.sleep
        transaction.actions.append {
            Task.detached {
                try? await sleep(remaining)
                Engine.perform { transaction in self.trailingFired(&transaction) }
            }
        }
    }

    private func trailingFired(_ transaction: inout Transaction) {
        trailingScheduled = false
        if let latest, latest != lastDelivered { deliver(latest, &transaction) }
    }

    /// Records the delivery now and yields after the engine lock is released (see ``OrderedOutbox``: a stream's
    /// `onTermination` takes the engine lock while its task's status lock is held).
    private func deliver(_ progress: WorkProgress, _ transaction: inout Transaction) {
        lastDelivered = progress
        markDelivered()
        transaction.deliverAfterUnlock(progress, through: outbox) { [continuation] in continuation.yield($0) }
    }
}

/// The instant of the last delivery on a generic clock. Guarded by the engine lock (only touched by its observer).
///
/// Unchecked-Sendable invariant: `last` is read and written only by ``ProgressObserver`` while it holds the
/// engine lock. Exercised under Thread Sanitizer by `IntrospectionTests`.
private final class ClockMark<C: Clock>: @unchecked Sendable where C.Duration == Duration {
    let clock: C
    @exclusivity(unchecked) var last: C.Instant?
    init(clock: C) { self.clock = clock }
    func elapsed() -> Duration? { last.map { $0.duration(to: clock.now) } }
    func mark() { last = clock.now }
}

extension Engine {
    /// Applies a job's progress report to its queue and group. Lock held.
    static func reportProgress(_ job: JobNode, completed: Int64, total: Int64, _ transaction: inout Transaction) {
        guard job.phase != .finished else { return }
        let total = max(total, 0)
        let completed = min(max(completed, 0), total)
        let deltaCompleted = completed - job.progressCompleted
        let deltaTotal = total - job.progressTotal
        if deltaCompleted == 0 && deltaTotal == 0 { return }
        job.progressCompleted = completed
        job.progressTotal = total
        job.queue.progress.unitsChanged(completed: deltaCompleted, total: deltaTotal, &transaction)
        job.group?.progress.unitsChanged(completed: deltaCompleted, total: deltaTotal, &transaction)
    }
}
