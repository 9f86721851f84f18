/// A node of the scheduling tree: a queue (a leaf, holding ready jobs) or a limit domain (an inner node, holding
/// the children that can start something). Every node has a width; a job starts only when its queue and every
/// domain above it have a free slot.
///
/// ## How the next job is found in O(depth)
/// Each node's *offer* is the highest priority level at which it could start a job right now, considering its own
/// width and suspension but not its ancestors': for a leaf, its highest non-empty ready bucket; for an inner node,
/// its highest non-empty child list. Each inner node keeps one FIFO list of children per level, and a child is in
/// exactly the list of its current offer (or in none). Every change (a job becomes ready, starts, finishes, moves
/// bucket; a width changes) refreshes the offers along one leaf-to-root path, so the root's offer is always the
/// highest startable priority in its tree, and the first child in its list at that level leads to the job to
/// start. Nothing rescans pending work.
///
/// Children with ready work at the same level take turns (weighted round robin: a child starts `weight` jobs
/// before it moves to the back of the list). Within one queue, equal-priority jobs start in FIFO order.
///
/// Guarded by the lock of its region.
final class SchedulerNode {
    let name: String
    let isLeaf: Bool
    let parent: SchedulerNode?
    /// The region whose lock guards this node's tree (see ``EngineRegion``): a new one for a root, the parent's
    /// otherwise. It, or the region standing for it once merged.
    let region: EngineRegion
    @exclusivity(unchecked) var width: Int
    @exclusivity(unchecked) var weight: Int
    @exclusivity(unchecked) var credits: Int
    @exclusivity(unchecked) var running = 0
    @exclusivity(unchecked) var isSuspended = false
    /// Leaf: one FIFO of ready jobs per level.
    @exclusivity(unchecked) var buckets: [JobList]
    /// Inner: one FIFO of offering children per level.
    @exclusivity(unchecked) var children: [SchedulerList]
    /// The level of the parent's list this node is in, or -1.
    @exclusivity(unchecked) var listedLevel = -1
    @exclusivity(unchecked) var listNext: SchedulerNode?
    @exclusivity(unchecked) unowned(unsafe) var listPrev: SchedulerNode?
    /// Running jobs below this node that are waiting for a job which has not started and needs this node's slots.
    @exclusivity(unchecked) var blockedAwaiting = 0
    /// Root only: set while the root is in the current transaction's dispatch list.
    @exclusivity(unchecked) var isMarkedForDispatch = false

    init(name: String, isLeaf: Bool, width: Int, parent: SchedulerNode?, weight: Int) {
        precondition(width >= 1, "Switchyard: the width of \"\(name)\" must be at least 1 (got \(width))")
        precondition(weight >= 1, "Switchyard: the weight of \"\(name)\" must be at least 1 (got \(weight))")
        self.name = name
        self.isLeaf = isLeaf
        self.width = width
        self.parent = parent
        region = parent?.region ?? EngineRegion()
        self.weight = weight
        credits = weight
        buckets = isLeaf ? (0..<JobPriority.levelCount).map { _ in JobList(.bucket) } : []
        children = isLeaf ? [] : (0..<JobPriority.levelCount).map { _ in SchedulerList() }
    }

    /// The root of this node's tree, unretained (it is kept alive through the strong `parent` chain from this
    /// node, which the caller keeps alive): for the engine's per-job paths, where a retained root cost a retain
    /// and a release under the lock.
    var unretainedRoot: Unmanaged<SchedulerNode> {
        var root = Unmanaged.passUnretained(self)
        forEachOnPath { node in
            root = Unmanaged.passUnretained(node)
            return true
        }
        return root
    }

    /// Calls `body` with this node, then each ancestor up to the root, until it returns false; the nodes are lent
    /// without retaining them (each is kept alive by its child's strong `parent`, and this node by the caller).
    /// The engine's per-job walks retained and released every node they passed (about 10 operations per job).
    @inline(__always)
    func forEachOnPath(_ body: (SchedulerNode) -> Bool) {
        var node = Unmanaged.passUnretained(self)
        while true {
            let next: Unmanaged<SchedulerNode>? = node._withUnsafeGuaranteedRef { current in
                guard body(current), let parent = current.parent else { return nil }
                return Unmanaged.passUnretained(parent)
            }
            guard let next else { return }
            node = next
        }
    }

    /// The highest level at which this node could start a job, ignoring its ancestors; -1 for none.
    /// - Complexity: O(levels).
    var offer: Int {
        if isSuspended || running >= width { return -1 }
        var level = JobPriority.levelCount - 1
        if isLeaf {
            while level >= 0 {
                if !buckets[level].isEmpty { return level }
                level -= 1
            }
        } else {
            while level >= 0 {
                if !children[level].isEmpty { return level }
                level -= 1
            }
        }
        return -1
    }

    /// Re-lists this node in its parent per its current offer, then its ancestors (all of them when `fullPath`,
    /// else stopping at the first node whose listing did not change). - Complexity: O(depth × levels).
    func refresh(fullPath: Bool) {
        forEachOnPath { current in
            let offer = current.offer
            let changed = offer != current.listedLevel
            if changed, let parent = current.parent {
                if current.listedLevel >= 0 { parent.children[current.listedLevel].remove(current) }
                if offer >= 0 { parent.children[offer].append(current) }
            }
            current.listedLevel = offer
            return changed || fullPath
        }
    }

    /// Takes the next job to start from the tree below this root, charging a slot on every node of its path;
    /// nil when nothing can start. The job is lent unretained: its queue's live list keeps it until it finishes.
    /// - Complexity: O(depth × levels).
    func popNextJob() -> Unmanaged<JobNode>? {
        let level = offer
        if level < 0 { return nil }
        // Down to the leaf, lending each node unretained (the tree keeps them alive; retaining cost two reference
        // count operations per job under the lock).
        var leaf = Unmanaged.passUnretained(self)
        while let child = leaf._withUnsafeGuaranteedRef({ node -> Unmanaged<SchedulerNode>? in
            if node.isLeaf { return nil }
            guard let child = node.children[level].head else {
                preconditionFailure("SchedulerNode: \"\(node.name)\" offers level \(level) with no child there")
            }
            return Unmanaged.passUnretained(child)
        }) {
            leaf = child
        }
        return leaf._withUnsafeGuaranteedRef { leaf in
            guard let job = leaf.buckets[level].popFirstUnretained() else {
                preconditionFailure("SchedulerNode: \"\(leaf.name)\" offers level \(level) with an empty bucket")
            }
            leaf.startedJob(at: level)
            return job
        }
    }

    /// Counts a job of `level` started below this leaf along its path, and updates the offers and the weighted
    /// round robin on the way up.
    private func startedJob(at level: Int) {
        forEachOnPath { step in
            step.running += 1
            let before = step.listedLevel
            let offerNow = step.offer
            if let parent = step.parent {
                if offerNow != before {
                    if before >= 0 { parent.children[before].remove(step) }
                    if offerNow >= 0 { parent.children[offerNow].append(step) }
                }
                // Weighted round robin among siblings offering the same level.
                step.credits -= 1
                if step.credits <= 0 {
                    step.credits = step.weight
                    if offerNow >= 0 && offerNow == before {
                        parent.children[offerNow].remove(step)
                        parent.children[offerNow].append(step)
                    }
                }
            }
            step.listedLevel = offerNow
            return true
        }
    }

    /// Sets the width and starts whatever it now allows; a shrink that leaves every slot to jobs waiting for work
    /// that needs one ends their waits as deadlocks (see ``BlockedJobs``). Traps (naming the node) on a width below
    /// 1. Takes the region's lock.
    func setWidth(_ width: Int) {
        precondition(width >= 1, "Switchyard: the width of \"\(name)\" must be at least 1 (got \(width))")
        Engine.perform(in: region) { transaction in
            self.width = width
            refresh(fullPath: true)
            transaction.markForDispatch(self)
            Engine.breakDeadlocks(from: self, &transaction)
        }
    }

    /// Gives back the slot of a job that stopped running, on every node of the path. - Complexity: O(depth).
    func releaseSlot() {
        forEachOnPath { current in
            current.running -= 1
            assert(current.running >= 0, "SchedulerNode: running count of \"\(current.name)\" below zero")
            return true
        }
        refresh(fullPath: true)
    }

    /// The first node from this leaf up whose slots are all taken, if any.
    var firstSaturatedNode: SchedulerNode? {
        var node: SchedulerNode? = self
        while let current = node {
            if current.running >= current.width { return current }
            node = current.parent
        }
        return nil
    }

    /// The nodes from this one up to the root.
    var path: [SchedulerNode] {
        var result: [SchedulerNode] = []
        var node: SchedulerNode? = self
        while let current = node {
            result.append(current)
            node = current.parent
        }
        return result
    }
}

/// An intrusive FIFO list of scheduler nodes (children of one inner node offering one level).
struct SchedulerList {
    private(set) var head: SchedulerNode?
    private unowned(unsafe) var tail: SchedulerNode?
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ node: SchedulerNode) {
        node.listNext = nil
        node.listPrev = tail
        if let tail { tail.listNext = node } else { head = node }
        tail = node
        count += 1
    }

    mutating func remove(_ node: SchedulerNode) {
        if let previous = node.listPrev { previous.listNext = node.listNext } else { head = node.listNext }
        if let next = node.listNext { next.listPrev = node.listPrev } else { tail = node.listPrev }
        node.listNext = nil
        node.listPrev = nil
        count -= 1
    }
}
