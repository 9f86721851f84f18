import Synchronization

/// Plain submissions that found their region's lock busy, waiting to be admitted by whoever holds it. One per
/// ``EngineRegion``.
///
/// A submitter never waits for the lock to admit a plain job (no dependencies, hold or barrier, on a queue without
/// a pending-job bound; no group, or one whose region is already united with the queue's, carried in the job's
/// `group`): if `tryLock` fails it pushes the job here and returns, so it never spins on, or sleeps in, a lock its
/// workers hold. The one exception is a push that raced with a merge of the region: the submitter then waits for
/// the survivor's lock once (see "Merged regions").
///
/// **Who admits a pushed job.** Every hold of a region's lock that reads engine state starts by admitting the
/// intake (``Engine/perform(in:_:)``, ``Engine/endAttempt(of:end:retryAllowed:on:)``), so no one ever observes
/// engine state without the jobs submitted before: a `cancelAll()`, `snapshot()` or `state` that follows a
/// submission sees its job. And every release of the lock is followed by a check of the intake
/// (``Engine/unlock(_:)``).
/// A submitter pushes, then tries the lock once more: if that fails too, the lock was held after the push, and its
/// holder's check after unlocking (ordered after the push by sequentially consistent fences) finds the job. So a
/// pushed job is admitted by the submitter itself or by a lock holder that releases the lock after the push (or
/// by a task that holder starts). The engine's own steps that run while a transaction is carried out (starting
/// workers, parking, arming timers) take the lock bare and release it with ``Engine/unlock(_:)``, never through
/// `perform`: admitting there would carry out a transaction inside a transaction, without a bound on the depth.
///
/// **Merged regions.** An intake's stack is only ever taken by a holder of the lock of the region standing for it,
/// so a job is never visible to its submitter's next step before it is admitted. The merge (holding both locks)
/// sets the successor, then (sequentially consistent fence) takes the absorbed stack and admits it first in its
/// hold of the survivor; a submitter pushes, then (fence) reads the successor and, if set, locks the region
/// standing for it (waiting: merges are rare) and admits the stack there. One of the two sees the other, and
/// whichever takes the stack admits it. Either way a submitter's jobs pushed to the absorbed intake are admitted
/// before those it pushed to the survivor's after seeing the successor.
///
/// **Order.** The intake is a lock-free stack (one compare-and-swap per push); admission takes it whole and
/// reverses it, so jobs are admitted in push order. Jobs one thread submits are admitted in its submission order
/// whichever path each takes: a submission that takes the lock admits the intake before its own job.
///
/// Unchecked-Sendable invariant: a job's `intakeNext` is written only by its submitter before the releasing
/// compare-and-swap that publishes it, and read only by the admitter after the acquiring exchange that takes it.
/// Exercised under Thread Sanitizer by `WorkQueueStressTests` and `IntakeStressTests`; Thread Sanitizer does not
/// model the fences, so the protocol itself (pushes, merges, forwarding, admission passes) is checked in every
/// interleaving of small configurations, under sequential consistency, by `IntakeProtocolModelTests`.
final class Intake: @unchecked Sendable {
    /// The most recently pushed job (retained), linked through `JobNode.intakeNext`; nil when empty.
    private let head = Atomic<UnsafeMutableRawPointer?>(nil)

    /// Pushes `job`, retaining it until it is taken. Lock-free. - Complexity: O(1) (one CAS, retried on contention).
    func push(_ job: JobNode) {
        let pointer = Unmanaged.passRetained(job).toOpaque()
        var current = head.load(ordering: .relaxed)
        while true {
            job.intakeNext = current
            let (exchanged, original) = head.compareExchange(
                expected: current, desired: pointer, ordering: .sequentiallyConsistent)
            if exchanged { return }
            current = original
        }
    }

    /// Whether a job is waiting, as far as a lock holder needs to know: a push this load misses is followed by a
    /// `tryLock` that fails, and the holder's check after unlocking (``mayHaveJobs``) finds it.
    var isEmptyUnderLock: Bool { head.load(ordering: .relaxed) == nil }

    /// Whether a job may be waiting. Sequentially consistent, so that a check made after releasing the lock sees
    /// every push made before a failed `tryLock` (see the type's discussion).
    var mayHaveJobs: Bool {
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        return head.load(ordering: .sequentiallyConsistent) != nil
    }

    /// Takes every waiting job, in push order, and hands each (with the intake's retain moved to `body`'s caller)
    /// to `body`. - Complexity: O(jobs taken).
    func takeAll(_ body: (JobNode) -> Void) {
        guard var pointer = head.exchange(nil, ordering: .sequentiallyConsistent) else { return }
        // Reverse the stack (newest first) into push order, reusing the links.
        var reversed: UnsafeMutableRawPointer?
        while true {
            let job = Unmanaged<JobNode>.fromOpaque(pointer).takeUnretainedValue()
            let next = job.intakeNext
            job.intakeNext = reversed
            reversed = pointer
            guard let next else { break }
            pointer = next
        }
        while let current = reversed {
            let job = Unmanaged<JobNode>.fromOpaque(current).takeRetainedValue()
            reversed = job.intakeNext
            job.intakeNext = nil
            body(job)
        }
    }
}

extension Engine {
    /// Admits a plain job (see ``Intake``; a group it joins is in its `group`, united with its queue's region)
    /// without ever waiting for a region's lock: if the lock is busy, its holder admits the job (see ``Intake``).
    static func submitPlain(_ job: JobNode) {
        let region = job.queue.region.current
        region._withUnsafeGuaranteedRef { region in
            if let locked = tryLock(region) {
                var transaction = Transaction(region: locked)
                admitIntake(&transaction)
                admitPlain(job, &transaction)
                finishHold(&transaction)
                return
            }
            region.intake.push(job)
            // Orders the push before the reads of the successor and the lock word: a merge or a holder seen after
            // it sees the push (the merge moves it on; the holder checks the intake after unlocking).
            atomicMemoryFence(ordering: .sequentiallyConsistent)
            if region.isMerged { return forward(region) }
            guard let locked = tryLock(region) else { return }  // held after the push: its holder checks the intake
            var transaction = Transaction(region: locked)
            admitIntake(&transaction)
            finishHold(&transaction)
        }
    }

    /// The first half of ``submitPlain(_:)``, for a caller that holds a lock of its own (a ``Coalescer``'s): pushes
    /// `job` to its region's intake without trying that region's lock, so the caller's lock is never held while
    /// the region's lock is taken and a transaction carried out (only a push racing with a merge waits for the
    /// survivor's lock, as in `submitPlain`). Any hold of the region's lock admits the job first; the caller calls
    /// ``admitPushed(of:)`` once its own lock is released, which is the second try of the protocol (see ``Intake``).
    ///
    /// Returns the transaction of that rare hold, released but not carried out: the caller carries it out with
    /// ``carryOutHeld(_:)`` once its own lock is released (what it does may run user code).
    static func pushPlain(_ job: JobNode) -> Transaction? {
        let region = job.queue.region.current
        return region._withUnsafeGuaranteedRef { region -> Transaction? in
            region.intake.push(job)
            atomicMemoryFence(ordering: .sequentiallyConsistent)  // as in `submitPlain`
            return region.isMerged ? forwardHeld(region) : nil
        }
    }

    /// The second half of ``submitPlain(_:)`` after ``pushPlain(_:)``: admits the intake of `job`'s region if its
    /// lock is free; if not, its holder admits it after unlocking (the lock was held after the push).
    static func admitPushed(of job: JobNode) {
        let region = job.queue.region.current
        region._withUnsafeGuaranteedRef { region in
            guard let locked = tryLock(region) else { return }
            var transaction = Transaction(region: locked)
            admitIntake(&transaction)
            finishHold(&transaction)
        }
    }

    /// Locks `region` if its lock is free and it was not merged; nil otherwise (a merged region's lock is released
    /// at once and its intake moved on).
    @inline(__always)
    private static func tryLock(_ region: EngineRegion) -> Unmanaged<EngineRegion>? {
        guard region.lock.tryLock() else { return nil }
        if region.isMerged {
            region.lock.unlock()
            forward(region)
            return nil
        }
        return Unmanaged.passUnretained(region)
    }

    /// Admits what was pushed to a merged region's intake in the region standing for it now, waiting for its lock
    /// (merges are rare): first the merged intake's jobs (pushed before anything the same submitters pushed to the
    /// survivor's), then the survivor's own. Lock not held.
    private static func forward(_ region: EngineRegion) {
        carryOutHeld(forwardHeld(region))
    }

    /// ``forward(_:)`` with its transaction released but not carried out (see ``carryOutHeld(_:)``).
    private static func forwardHeld(_ region: EngineRegion) -> Transaction {
        var transaction = Transaction(region: region.lockCurrent())
        region.intake.takeAll { admitPlain($0, &transaction) }
        admitIntake(&transaction)
        releaseHeld(&transaction)
        return transaction
    }

    /// Admits every job waiting in the intake, in push order. Lock held.
    @inline(__always)
    static func admitIntake(_ transaction: inout Transaction) {
        let intake = transaction.region._withUnsafeGuaranteedRef { $0.intake }
        if intake.isEmptyUnderLock { return }
        intake.takeAll { admitPlain($0, &transaction) }
    }

    static func admitPlain(_ job: JobNode, _ transaction: inout Transaction) {
        admit(job, dependencies: [], group: job.group, isHeld: false, &transaction)
    }

    /// Dispatches, releases the lock and carries out `transaction`, then admits what was pushed meanwhile.
    /// Lock held on entry, not on return.
    static func finishHold(_ transaction: inout Transaction) {
        let region = transaction.region
        release(&transaction)
        region._withUnsafeGuaranteedRef { admitPushedWhileHeld($0) }
    }

    /// ``perform(in:_:)`` whose transaction is carried out later, by ``carryOutHeld(_:)`` (exactly once): for a
    /// caller that holds a lock of its own around the hold (a coalescer's on a bounded queue), so that what a
    /// transaction does after the engine's lock (a self-completing job's `start`: user code) does not run under
    /// that other lock either. Returns with the engine's lock released.
    static func performHeld<Failure: Error>(
        in region: EngineRegion, _ body: (inout Transaction) throws(Failure) -> Void
    ) throws(Failure) -> Transaction {
        var transaction = Transaction(region: region.lockCurrent())
        admitIntake(&transaction)
        var failure: Failure?
        do throws(Failure) { try body(&transaction) } catch { failure = error }
        releaseHeld(&transaction)
        if let failure {
            carryOutHeld(transaction)
            throw failure
        }
        return transaction
    }

    /// Dispatches and releases the lock, leaving `transaction` to be carried out by ``carryOutHeld(_:)``.
    private static func releaseHeld(_ transaction: inout Transaction) {
        dispatchMarkedRoots(&transaction)
        _checkInvariants(transaction.region)
        transaction.region._withUnsafeGuaranteedRef { $0.lock.unlock() }
    }

    /// Carries out a transaction of ``performHeld(in:_:)`` or ``pushPlain(_:)``, then admits what was pushed
    /// meanwhile. Lock not held.
    static func carryOutHeld(_ transaction: Transaction) {
        carryOut(transaction)
        transaction.region._withUnsafeGuaranteedRef { admitPushedWhileHeld($0) }
    }

    /// Dispatches, releases the lock and carries out `transaction`. Lock held on entry, not on return.
    private static func release(_ transaction: inout Transaction) {
        releaseHeld(&transaction)
        carryOut(transaction)
    }

    /// Releases `region`'s lock after a hold that carries out no transaction of its own, and makes sure jobs pushed
    /// to its intake meanwhile are admitted (see ``Intake``). Lock held on entry, not on return.
    ///
    /// Used by the short holds inside the carrying out of a transaction (starting workers, parking, arming timers),
    /// which must never call `perform`: admitting there carries out another transaction, which could start workers
    /// or timers again, recursively. So it is left to a new task, which only happens when a submitter raced with
    /// such a hold.
    static func unlock(_ region: EngineRegion) {
        region.lock.unlock()
        if region.intake.mayHaveJobs { Task.detached { admitPushedWhileHeld(region) } }
    }

    /// Admits `region`'s intake while it has jobs and the lock is free (when the lock is busy, its holder will),
    /// for at most ``maximumPasses`` holds: a thread that keeps finding new jobs (a worker about to run its next
    /// job, a caller of `perform`) then leaves the rest to a new task instead of admitting other threads' jobs
    /// indefinitely. A merged region's jobs move on to its successor's intake. Lock not held.
    static func admitPushedWhileHeld(_ region: EngineRegion) {
        var passes = 0
        while region.intake.mayHaveJobs {
            guard passes < maximumPasses else {
                Task.detached { admitPushedWhileHeld(region) }
                return
            }
            guard let locked = tryLock(region) else { return }
            passes += 1
            var transaction = Transaction(region: locked)
            admitIntake(&transaction)
            release(&transaction)
        }
    }

    /// The most admission holds ``admitPushedWhileHeld(_:)`` makes before handing over to a task.
    static let maximumPasses = 4
}
