/// Running jobs whose bodies wait for jobs that have not started and need a slot those running jobs hold: the
/// deadlock detector's record of who is blocked, and on what.
///
/// ## How a deadlock is found
/// A wait made from inside a running job's body, on a job that has not started, is *counted* on every scheduler
/// node the two jobs' paths share (the awaited job needs a slot of each). A job counts once on a node however
/// many of its waits need that node (``JobNode/blockedNodes``); ``SchedulerNode/blockedAwaiting`` is the number
/// of jobs counted on the node. A node is deadlocked when the jobs counted on it fill its width
/// (``SchedulerNode/isDeadlocked``): they hold that many slots and give none back, so nothing waiting for its
/// slots can ever start, whatever the other running jobs do.
///
/// The condition is checked whenever it can become true:
/// - a counted wait begins: that wait ends at once with the report (``Engine/wait(for:level:cancellable:thenRequest:)``);
/// - a width shrinks;
/// - an awaited job that had started goes back to waiting for a retry, so the waits on it count again.
/// In the last two cases ``Engine/breakDeadlocks(from:_:)`` ends every counted wait of the most recently submitted
/// blocked job, then the next, until the blocked jobs no longer fill the width; their bodies see
/// ``JobError/wouldDeadlock(_:)``.
///
/// One per ``EngineRegion`` (a counted wait never crosses trees). Unchecked-Sendable invariant: `entries` is read
/// and written only while the region's lock is held.
/// Exercised under Thread Sanitizer by `DeadlockDetectionTests`.
final class BlockedJobs: @unchecked Sendable {
    private struct Entry {
        let job: JobNode
        /// The jobs it waits for with counted waits, and how many such waits each.
        var awaited: [ObjectIdentifier: (job: JobNode, waits: Int)] = [:]
    }

    @exclusivity(unchecked) private var entries: [ObjectIdentifier: Entry] = [:]

    /// Records a counted wait of `waiter` on `job`. Lock held. - Complexity: O(1) amortized.
    func add(_ waiter: JobNode, awaiting job: JobNode) {
        entries[ObjectIdentifier(waiter), default: Entry(job: waiter)].awaited[ObjectIdentifier(job), default: (job, 0)]
            .waits += 1
    }

    /// Forgets one counted wait of `waiter` on `job`. Lock held. - Complexity: O(1).
    func removeWait(of waiter: JobNode, awaiting job: JobNode) {
        let key = ObjectIdentifier(job)
        entries[ObjectIdentifier(waiter)]?.awaited[key]?.waits -= 1
        if entries[ObjectIdentifier(waiter)]?.awaited[key]?.waits == 0 {
            entries[ObjectIdentifier(waiter)]?.awaited[key] = nil
        }
    }

    /// Takes over the records of `other` (its region is merged into this one's). Both locks held.
    /// - Complexity: O(records moved).
    func absorb(_ other: BlockedJobs) {
        entries.merge(other.entries) { mine, _ in mine }  // a job is recorded in its own region only
        other.entries = [:]
    }

    /// Forgets `waiter` (it has no counted wait left). Lock held. - Complexity: O(1).
    func remove(_ waiter: JobNode) {
        entries[ObjectIdentifier(waiter)] = nil
    }

    /// The most recently submitted blocked job counted on `node`, and the jobs it waits for. Lock held.
    /// - Complexity: O(blocked jobs × depth); called only when a deadlock was found.
    func latest(countedOn node: SchedulerNode) -> (JobNode, [JobNode])? {
        var found: Entry?
        for entry in entries.values where entry.job.blockedNodes.contains(where: { $0.node === node }) {
            if found.map({ entry.job.identifier > $0.job.identifier }) ?? true { found = entry }
        }
        return found.map { ($0.job, $0.awaited.values.map(\.job)) }
    }

    #if SWITCHYARD_INTERNAL_CHECKS
        /// Every recorded job is counted, its counts match its counted waits, and every node's count matches the jobs
        /// counted on it. Lock held. - Complexity: O(blocked jobs × (depth + awaiters) + nodes × blocked jobs).
        func _checkInvariants(nodes: [SchedulerNode]) {
            for entry in entries.values {
                let waiter = entry.job
                precondition(
                    waiter.blockedWaits > 0, "Engine: \"\(waiter.name)\" recorded as blocked with no counted wait")
                var counted = 0
                for (job, waits) in entry.awaited.values {
                    let listed = job.awaiters.count {
                        $0.isCounted && $0.waiter === waiter && $0.generation == waiter.blockGeneration
                    }
                    precondition(
                        listed == waits, "Engine: \"\(waiter.name)\" records \(waits) waits on \"\(job.name)\"")
                    counted += waits
                }
                precondition(
                    counted == waiter.blockedWaits,
                    "Engine: \"\(waiter.name)\" counts \(waiter.blockedWaits) blocked waits, its awaited jobs list \(counted)"
                )
            }
            for node in nodes {
                let counted = entries.values.count { $0.job.blockedNodes.contains { $0.node === node } }
                precondition(
                    counted == node.blockedAwaiting,
                    "Engine: \"\(node.name)\" counts \(node.blockedAwaiting) blocked jobs, \(counted) are recorded")
            }
        }
    #endif
}

/// A scheduler node a blocked job is counted on, and how many of its counted waits need it.
struct BlockedNode {
    let node: SchedulerNode
    var waits: Int
}

extension SchedulerNode {
    /// The blocked-job records of the region this node's tree belongs to. Lock held.
    var blockedJobs: BlockedJobs { region.current._withUnsafeGuaranteedRef { $0.blockedJobs } }

    /// The jobs counted as blocked on this node fill its width (see ``BlockedJobs``).
    var isDeadlocked: Bool { blockedAwaiting > 0 && blockedAwaiting >= width }

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
    /// The nodes a wait of `waiter` on `job` needs: those on both jobs' paths. - Complexity: O(depth²).
    private static func sharedNodes(of waiter: JobNode, and job: JobNode) -> [SchedulerNode] {
        let awaitedPath = job.queue.scheduler.path
        return waiter.queue.scheduler.path.filter { node in awaitedPath.contains { $0 === node } }
    }

    /// Counts a wait of the running `waiter` on `job` (which has not started) if their paths share a node; says
    /// whether it did. Lock held. - Complexity: O(depth²).
    static func countBlock(of waiter: JobNode, on job: JobNode) -> Bool {
        let shared = sharedNodes(of: waiter, and: job)
        guard !shared.isEmpty else { return false }
        for node in shared {
            if let index = waiter.blockedNodes.firstIndex(where: { $0.node === node }) {
                waiter.blockedNodes[index].waits += 1
            } else {
                waiter.blockedNodes.append(BlockedNode(node: node, waits: 1))
                node.blockedAwaiting += 1
            }
        }
        waiter.blockedWaits += 1
        job.queue.scheduler.blockedJobs.add(waiter, awaiting: job)
        return true
    }

    /// Un-counts a wait on `job` from deadlock detection (once). Lock held. - Complexity: O(depth²).
    static func releaseBlock(_ awaiter: JobAwaiter, of job: JobNode) {
        guard awaiter.isCounted, let waiter = awaiter.waiter, waiter.blockGeneration == awaiter.generation,
            waiter.blockedWaits > 0
        else { return }
        for node in sharedNodes(of: waiter, and: job) {
            guard let index = waiter.blockedNodes.firstIndex(where: { $0.node === node }) else { continue }
            waiter.blockedNodes[index].waits -= 1
            if waiter.blockedNodes[index].waits == 0 {
                waiter.blockedNodes.remove(at: index)
                node.blockedAwaiting -= 1
            }
        }
        waiter.blockedWaits -= 1
        job.queue.scheduler.blockedJobs.removeWait(of: waiter, awaiting: job)
        if waiter.blockedWaits == 0 { unblock(waiter) }
    }

    /// The waiting job's attempt ended: waits its body (or tasks it left behind) still have no longer hold a
    /// slot. Lock held.
    static func retireBlockedWaits(of job: JobNode) {
        job.blockGeneration += 1
        guard job.blockedWaits > 0 else { return }
        job.blockedWaits = 0
        unblock(job)
    }

    private static func unblock(_ waiter: JobNode) {
        for counted in waiter.blockedNodes { counted.node.blockedAwaiting -= 1 }
        waiter.blockedNodes = []
        waiter.queue.scheduler.blockedJobs.remove(waiter)
    }

    /// The job starts: waits on it no longer block a slot. Lock held. - Complexity: O(awaiters).
    static func releaseBlockedAwaiters(of job: JobNode) {
        for index in job.awaiters.indices where job.awaiters[index].isCounted {
            releaseBlock(job.awaiters[index], of: job)
            job.awaiters[index].isCounted = false
        }
    }

    /// The job stopped running and waits for a retry: waits on it from running jobs that share a node with it
    /// count again. The caller then breaks any deadlock this completes. Lock held.
    /// - Complexity: O(awaiters × depth²).
    static func recountAwaiters(of job: JobNode) {
        for index in job.awaiters.indices {
            let awaiter = job.awaiters[index]
            if !awaiter.isCounted, let waiter = awaiter.waiter, waiter.phase == .running,
                waiter.blockGeneration == awaiter.generation, countBlock(of: waiter, on: job)
            {
                job.awaiters[index].isCounted = true
            }
        }
    }

    /// Breaks every deadlock on the path from `node` up (after a width shrank, or waits were counted again).
    /// Lock held. - Complexity: O(depth) unless a deadlock is found.
    static func breakDeadlocks(from node: SchedulerNode, _ transaction: inout Transaction) {
        while let stuck = node.firstDeadlockedNode { breakDeadlock(at: stuck, &transaction) }
    }

    /// Ends every counted wait of the most recently submitted job blocked on the deadlocked `node` with a
    /// ``DeadlockReport``, so that job is no longer counted. Lock held.
    /// - Complexity: O(blocked jobs × depth + awaiters of the jobs it waits for).
    private static func breakDeadlock(at node: SchedulerNode, _ transaction: inout Transaction) {
        guard let (waiter, awaited) = node.blockedJobs.latest(countedOn: node) else {
            // Unreachable while the counts and the record agree. No recorded job is counted on the node, so its
            // recomputed count is 0; this also ends the caller's loop.
            assertionFailure("Engine: \"\(node.name)\" counts blocked jobs, but none is recorded")
            node.blockedAwaiting = 0
            return
        }
        defer {
            if waiter.blockedWaits > 0 {  // unreachable while every counted wait is recorded; keeps the loop finite
                assertionFailure("Engine: a counted wait of \"\(waiter.name)\" was not found")
                waiter.blockedWaits = 0
                unblock(waiter)
            }
        }
        let generation = waiter.blockGeneration
        for job in awaited {
            var index = job.awaiters.count - 1
            while index >= 0 {  // from the end: a removed wait's place is taken by one already visited
                let awaiter = job.awaiters[index]
                if awaiter.isCounted, awaiter.waiter === waiter, awaiter.generation == generation {
                    awaiter.slot?.deadlock = DeadlockReport(
                        waitingJob: waiter.name, awaitedJob: job.name, domain: node.name, width: node.width)
                    removeAwaiter(at: index, of: job, &transaction)
                }
                index -= 1
            }
        }
    }
}
