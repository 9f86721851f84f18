import Synchronization

/// A lock of the work engine and the state it guards ("the engine lock" in the engine's comments means the lock of
/// the region in question): the scheduler trees (a top-level queue or limit domain with
/// everything below it) that are connected by dependency edges or groups, their jobs, and their groups.
///
/// ## Which lock guards what
/// Every scheduler tree starts in a region of its own, and so does every ``JobGroup``. Two regions become one
/// (``lockUnited(_:_:_:)``) when something connects them: a dependency edge between jobs of their trees, a job of
/// one submitted to a group of the other. From then on they share one lock for good. So queues that share no
/// limit domain, no dependency edge and no group never take the same lock, and whatever crosses trees (an edge, a
/// cancellation cascade, escalation along edges, a group's progress) happens under one lock and stays exact. A
/// wait from one job's body on a job of another tree does not unite them: it touches only the awaited job (the
/// waiter lends it its priority), and a wait is counted for deadlock detection only within one tree.
///
/// Each region's lock is a ``RawMutex``: an adaptive pthread mutex (it spins briefly before sleeping, since the
/// critical sections are short), which ThreadSanitizer intercepts. Every hold is O(1) in the number of pending jobs
/// except the ones that say otherwise; nothing blocks, suspends, creates a task or runs user code while holding
/// it: the work found under the lock is carried out after it is released (see ``Transaction``). A hold never
/// takes a second region's lock, except uniting, which takes both in the order of their identifiers.
///
/// ## Finding the lock
/// A region merged into another keeps a *successor*, set once while both locks are held. Locking follows the
/// successors to the region that has none, locks it, and checks again (``lockCurrent()``): a region with no
/// successor while its lock is held keeps none until it is released. Uniting hands the absorbed region's
/// blocked-job records and pushed jobs to the survivor and ends its parked worker tasks (as a region's end does);
/// a submitter that pushed to an intake whose region was merged meanwhile admits its jobs in the survivor, waiting
/// for its lock (see ``Intake``). A region ends when nothing refers to it any more: its queues and domains, and
/// groups and progress streams united with it.
///
/// The stored `var`s of the classes a region's lock guards (job and scheduler nodes, queues, workers, groups,
/// progress) are marked `@exclusivity(unchecked)`: the lock already makes every access exclusive, and the dynamic
/// check would add a thread-local lookup per access. An access made without the lock is a data race, which the
/// Thread Sanitizer run reports.
///
/// Unchecked-Sendable invariant: `successor` is written once, under this region's lock and the survivor's, and read
/// with acquiring loads; `checkedQueues` is touched only under the lock; the other fields are immutable references
/// to thread-safe objects or objects guarded by the lock. Exercised under Thread Sanitizer by `EngineRegionTests`
/// and `WorkQueueStressTests`.
final class EngineRegion: @unchecked Sendable {
    private static let identifiers = Atomic<UInt64>(0)

    /// Orders the locks of two regions being united.
    let identifier: UInt64
    let lock = RawMutex()
    /// Plain submissions that found the lock busy (see ``Intake``).
    let intake = Intake()
    /// Parked worker tasks of this region's jobs.
    let idleWorkers = IdleWorkers()
    /// Running jobs waiting for jobs that need their slots (see ``BlockedJobs``).
    let blockedJobs = BlockedJobs()
    /// The region this one was merged into (retained), or nil.
    private let successor = Atomic<UnsafeMutableRawPointer?>(nil)
    #if SWITCHYARD_INTERNAL_CHECKS
        /// The queues of this region (weakly), for the invariant checks. Lock held.
        @exclusivity(unchecked) var checkedQueues: [WeakQueue] = []
    #endif

    init() {
        identifier = Self.identifiers.wrappingAdd(1, ordering: .relaxed).newValue
    }

    deinit {
        // Its queues and groups are gone: parked workers end rather than wait for ever. A deinit runs wherever the
        // last reference went, possibly under another lock: the resumptions go to a task.
        lock.lock()
        let parked = idleWorkers.retireAll()
        lock.unlock()
        if !parked.isEmpty { Task.detached { for continuation in parked { continuation.resume(returning: nil) } } }
        if let next = successor.load(ordering: .acquiring) { Unmanaged<EngineRegion>.fromOpaque(next).release() }
    }

    /// The region standing for this one now, unretained: it stays alive while this one does (each region retains
    /// its successor). Without the lock, it may be merged into another at any moment. - Complexity: O(length of
    /// the successor chain): a region absorbed into one that is itself absorbed later has a chain of two, and so
    /// on (the survivor of a union is the older region, so chains grow only when older regions are absorbed into
    /// still older ones).
    @inline(__always)
    var current: Unmanaged<EngineRegion> {
        var region = Unmanaged.passUnretained(self)
        while let next = region._withUnsafeGuaranteedRef({ $0.successor.load(ordering: .acquiring) }) {
            region = Unmanaged.fromOpaque(next)
        }
        return region
    }

    /// Whether this region was merged into another. Stable while its lock is held and it is false.
    @inline(__always)
    var isMerged: Bool { successor.load(ordering: .acquiring) != nil }

    /// Locks the region standing for this one and returns it (unretained, as ``current``).
    /// - Complexity: O(length of the successor chain), 1 for a region never merged.
    @inline(__always)
    func lockCurrent() -> Unmanaged<EngineRegion> {
        var region = current
        while true {
            let merged = region._withUnsafeGuaranteedRef { region in
                region.lock.lock()
                if !region.isMerged { return false }
                region.lock.unlock()  // merged while this thread waited: follow it
                return true
            }
            if !merged { return region }
            region = region._withUnsafeGuaranteedRef { $0.current }
        }
    }

    /// Makes the regions standing for `first` and `second` one region, and returns it locked, adding to `leftovers`
    /// what the absorbed region leaves for the survivor's hold. The two locks are taken in identifier order, so two
    /// threads uniting the same regions cannot deadlock.
    /// - Complexity: O(parked workers + blocked jobs + pushed jobs of the absorbed region).
    static func lockUnited(
        _ first: EngineRegion, _ second: EngineRegion, _ leftovers: inout UnionLeftovers
    ) -> Unmanaged<EngineRegion> {
        while true {
            let one = first.current.takeUnretainedValue()
            let other = second.current.takeUnretainedValue()
            if one === other {
                let locked = one.lockCurrent()
                if locked.toOpaque() == Unmanaged.passUnretained(one).toOpaque() { return locked }
                locked._withUnsafeGuaranteedRef { Engine.unlock($0) }
                continue
            }
            let (survivor, absorbed) = one.identifier < other.identifier ? (one, other) : (other, one)
            survivor.lock.lock()
            absorbed.lock.lock()
            guard !survivor.isMerged, !absorbed.isMerged else {
                Engine.unlock(absorbed)
                Engine.unlock(survivor)
                continue
            }
            absorbed.merge(into: survivor, &leftovers)
            absorbed.lock.unlock()  // merged: whoever pushes to its intake from now on sees it (see ``Intake``)
            return Unmanaged.passUnretained(survivor)
        }
    }

    /// Hands this region's state to `survivor`, retires its parked workers and takes its pushed jobs (both into
    /// `leftovers`). Both locks held.
    private func merge(into survivor: EngineRegion, _ leftovers: inout UnionLeftovers) {
        let retained = Unmanaged.passRetained(survivor).toOpaque()
        successor.store(retained, ordering: .sequentiallyConsistent)
        leftovers.retired += idleWorkers.retireAll()
        survivor.blockedJobs.absorb(blockedJobs)
        #if SWITCHYARD_INTERNAL_CHECKS
            survivor.checkedQueues.append(contentsOf: checkedQueues)
            checkedQueues = []
        #endif
        // A submitter that pushes to this intake from now on sees the successor and admits its job itself; one
        // whose push came first has its job taken here, to be admitted first in the survivor's hold (before jobs
        // its submitter pushed to the survivor's intake after seeing the successor). See ``Intake``.
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        intake.takeAll { leftovers.jobs.append($0) }
    }
}

/// What uniting regions leaves for the survivor's hold: the absorbed regions' pushed jobs, to admit before the
/// survivor's own intake, and their retired parked workers, to resume with nil after the lock.
struct UnionLeftovers {
    var jobs: [JobNode] = []
    var retired: [CheckedContinuation<JobNode?, Never>] = []
}
