/// Running jobs whose bodies wait for jobs that have not started and need a slot those running jobs hold: the
/// deadlock detector's record of who is blocked, and on what.
///
/// ## How a deadlock is found
/// A wait made from inside a running job's body, on a job that has not started, is *counted* when the two jobs'
/// scheduler paths share a node (the awaited job needs a slot of that node). Each job counts once however many
/// such waits it makes (``JobNode/blockedWaits``), on every shared node (``SchedulerNode/blockedAwaiting``). A
/// node is deadlocked when all its slots are taken and every job holding one is counted
/// (``SchedulerNode/isDeadlocked``): nothing there can finish, so nothing waiting for its slots can start.
///
/// The condition is checked whenever it can become true:
/// - a counted wait begins: that wait ends at once with the report (``Engine/wait(for:level:cancellable:thenRequest:)``);
/// - a width shrinks, or a job stops running on a node whose width was shrunk below its running count;
/// - an awaited job that had started goes back to waiting for a retry, so its waits count again.
/// In the last two cases ``Engine/breakDeadlock(at:_:)`` ends every counted wait of one blocked job with the report,
/// which its body sees as ``JobError/wouldDeadlock(_:)``; if its job then ends, the next check finds whether the
/// others are still stuck.
///
/// Unchecked-Sendable invariant: `entries` is read and written only while the engine lock is held.
/// Exercised under Thread Sanitizer by `DeadlockDetectionTests`.
final class BlockedJobs: @unchecked Sendable {
    private struct Entry {
        let job: JobNode
        /// The jobs it waited for while counted (a superset: waits that ended stay listed until it unblocks).
        var awaited: [JobNode]
    }

    @exclusivity(unchecked) private var entries: [ObjectIdentifier: Entry] = [:]

    /// Records a counted wait of `waiter` on `job`. Lock held. - Complexity: O(1) amortized.
    func add(_ waiter: JobNode, awaiting job: JobNode) {
        entries[ObjectIdentifier(waiter), default: Entry(job: waiter, awaited: [])].awaited.append(job)
    }

    /// Forgets `waiter` (its last counted wait ended). Lock held. - Complexity: O(1).
    func remove(_ waiter: JobNode) {
        entries[ObjectIdentifier(waiter)] = nil
    }

    /// The most recently submitted blocked job counted on `node`, and the jobs it waits for. Lock held.
    /// - Complexity: O(blocked jobs × depth); called only when a deadlock was found.
    func latest(countedOn node: SchedulerNode) -> (JobNode, [JobNode])? {
        var found: Entry?
        for entry in entries.values where entry.job.blockedPath.contains(where: { $0 === node }) {
            if found.map({ entry.job.identifier > $0.job.identifier }) ?? true { found = entry }
        }
        return found.map { ($0.job, $0.awaited) }
    }

    #if SWITCHYARD_INTERNAL_CHECKS
    /// Every recorded job is counted, its count matches its counted waits, and every node's count matches the jobs
    /// counted on it. Lock held. - Complexity: O(blocked jobs × (depth + awaiters) + nodes × blocked jobs).
    func _checkInvariants(nodes: [SchedulerNode]) {
        for entry in entries.values {
            let waiter = entry.job
            precondition(waiter.blockedWaits > 0, "Engine: \"\(waiter.name)\" recorded as blocked with no counted wait")
            var seen = Set<ObjectIdentifier>()
            var counted = 0
            for job in entry.awaited where seen.insert(ObjectIdentifier(job)).inserted {
                counted += job.awaiters.count {
                    $0.isBlocking && $0.waiter === waiter && $0.generation == waiter.blockGeneration
                }
            }
            precondition(
                counted == waiter.blockedWaits,
                "Engine: \"\(waiter.name)\" counts \(waiter.blockedWaits) blocked waits, its awaited jobs list \(counted)")
        }
        for node in nodes {
            let counted = entries.values.count { $0.job.blockedPath.contains { $0 === node } }
            precondition(
                counted == node.blockedAwaiting,
                "Engine: \"\(node.name)\" counts \(node.blockedAwaiting) blocked jobs, \(counted) are recorded")
        }
    }
    #endif
}

/// The engine's blocked jobs (see ``BlockedJobs``).
let blockedJobs = BlockedJobs()

extension SchedulerNode {
    /// Every slot is taken by a job whose body waits for work that needs one (see ``BlockedJobs``).
    var isDeadlocked: Bool { blockedAwaiting > 0 && running >= width && blockedAwaiting >= running }

    /// The first deadlocked node from this one up, if any. - Complexity: O(depth).
    var firstDeadlockedNode: SchedulerNode? {
        var node: SchedulerNode? = self
        while let current = node {
            if current.isDeadlocked { return current }
            node = current.parent
        }
        return nil
    }
}

extension Engine {
    /// Counts a wait of the running `waiter` on `job` (which has not started) if their paths share a node; says
    /// whether it did. Lock held. - Complexity: O(depth²).
    static func countBlock(of waiter: JobNode, on job: JobNode) -> Bool {
        let awaitedPath = job.queue.scheduler.path
        let shared = waiter.queue.scheduler.path.filter { node in awaitedPath.contains { $0 === node } }
        guard !shared.isEmpty else { return false }
        // Counted once per waiting job (not per wait), so a body awaiting several jobs, or child tasks that
        // inherit its context, count as one blocked slot.
        if waiter.blockedWaits == 0 {
            waiter.blockedPath = shared
            for node in shared { node.blockedAwaiting += 1 }
        }
        waiter.blockedWaits += 1
        blockedJobs.add(waiter, awaiting: job)
        return true
    }

    /// Un-counts a wait from deadlock detection (once). Lock held.
    static func releaseBlock(_ awaiter: JobAwaiter) {
        guard awaiter.isBlocking, let waiter = awaiter.waiter, waiter.blockGeneration == awaiter.generation,
            waiter.blockedWaits > 0
        else { return }
        waiter.blockedWaits -= 1
        if waiter.blockedWaits == 0 { unblockPath(of: waiter) }
    }

    /// The waiting job's attempt ended: waits its body (or tasks it left behind) still have no longer hold a
    /// slot. Lock held.
    static func retireBlockedWaits(of job: JobNode) {
        job.blockGeneration += 1
        guard job.blockedWaits > 0 else { return }
        job.blockedWaits = 0
        unblockPath(of: job)
    }

    private static func unblockPath(of waiter: JobNode) {
        for node in waiter.blockedPath { node.blockedAwaiting -= 1 }
        waiter.blockedPath = []
        blockedJobs.remove(waiter)
    }

    /// The job starts: waits on it no longer block a slot. Lock held. - Complexity: O(awaiters).
    static func releaseBlockedAwaiters(of job: JobNode) {
        for index in job.awaiters.indices where job.awaiters[index].isBlocking {
            releaseBlock(job.awaiters[index])
            job.awaiters[index].isBlocking = false
        }
    }

    /// The job stopped running and waits for a retry: waits on it from running jobs that share a node with it
    /// count again, and one that completes a deadlock ends with the report. Lock held.
    /// - Complexity: O(awaiters × depth²).
    static func reblockAwaiters(of job: JobNode, _ transaction: inout Transaction) {
        var index = job.awaiters.count - 1
        while index >= 0 {  // from the end: a removed wait's place is taken by one already visited
            let awaiter = job.awaiters[index]
            if !awaiter.isBlocking, let waiter = awaiter.waiter, waiter.phase == .running,
                waiter.blockGeneration == awaiter.generation, countBlock(of: waiter, on: job)
            {
                job.awaiters[index].isBlocking = true
                if let stuck = waiter.blockedPath.first(where: \.isDeadlocked) {
                    awaiter.slot?.deadlock = DeadlockReport(
                        waitingJob: waiter.name, awaitedJob: job.name, domain: stuck.name, width: stuck.width)
                    removeAwaiter(at: index, of: job, &transaction)
                }
            }
            index -= 1
        }
    }

    /// Breaks every deadlock on the path from `node` up: after a width shrank, or a slot was given back on a node
    /// whose width had been shrunk below its running count. Lock held.
    /// - Complexity: O(depth) unless a deadlock is found.
    @inline(__always)
    static func breakDeadlocks(from node: SchedulerNode, _ transaction: inout Transaction) {
        while let stuck = node.firstDeadlockedNode { breakDeadlock(at: stuck, &transaction) }
    }

    /// Ends every counted wait of one job blocked on the deadlocked `node` (the most recently submitted one) with a
    /// ``DeadlockReport``, so that job is no longer counted. Lock held.
    /// - Complexity: O(blocked jobs × depth + awaiters of the jobs it waits for).
    static func breakDeadlock(at node: SchedulerNode, _ transaction: inout Transaction) {
        guard let (waiter, awaited) = blockedJobs.latest(countedOn: node) else {
            // Unreachable while the counts and the record agree; un-count the node so the caller's loop ends.
            assertionFailure("Engine: \"\(node.name)\" counts blocked jobs, but none is recorded")
            node.blockedAwaiting = 0
            return
        }
        defer {
            if waiter.blockedWaits > 0 {  // unreachable while every counted wait is listed; keeps the loop finite
                assertionFailure("Engine: a counted wait of \"\(waiter.name)\" was not found")
                waiter.blockedWaits = 0
                unblockPath(of: waiter)
            }
        }
        let generation = waiter.blockGeneration
        for job in awaited {
            var index = job.awaiters.count - 1
            while index >= 0 {  // from the end, as in `reblockAwaiters`
                let awaiter = job.awaiters[index]
                if awaiter.isBlocking, awaiter.waiter === waiter, awaiter.generation == generation {
                    awaiter.slot?.deadlock = DeadlockReport(
                        waitingJob: waiter.name, awaitedJob: job.name, domain: node.name, width: node.width)
                    removeAwaiter(at: index, of: job, &transaction)
                }
                index -= 1
            }
        }
    }
}
