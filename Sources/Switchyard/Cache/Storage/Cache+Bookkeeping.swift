import Synchronization

/// What one operation removed, collected under the locks and acted on after them: the removals are notified,
/// and the removed keys and values are released (a value's deinit may run arbitrary code, so never under a
/// lock). The first removal is stored inline: the usual write evicts at most one entry and allocates nothing.
@usableFromInline
struct CacheChanges<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    var first: CacheRemoval<Key, Value>?
    /// Removals after the first, in order.
    @usableFromInline
    var more: [CacheRemoval<Key, Value>] = []

    @inlinable
    init() {}

    @inlinable
    mutating func record(_ key: Key, _ value: Value, cost: Int, _ reason: CacheRemovalReason) {
        let removal = CacheRemoval(key: key, value: value, cost: cost, reason: reason)
        if first == nil { first = removal } else { more.append(removal) }
    }

    /// The number of removals recorded.
    @inlinable
    var count: Int { first == nil ? 0 : 1 + more.count }

    /// Calls `body` with each removal, in order.
    @inlinable
    func forEach(_ body: (CacheRemoval<Key, Value>) -> Void) {
        guard let first else { return }
        body(first)
        for removal in more { body(removal) }
    }
}

extension CacheRemovalReason {
    /// Position in `allCases`.
    @inlinable
    var index: Int {
        switch self {
        case .evicted: 0
        case .expired: 1
        case .removed: 2
        case .replaced: 3
        case .pressure: 4
        }
    }
}

/// The cache's internal transitions. Functions documented "policy lock held" must be called with
/// `policyMutex` held and no stripe lock held.
extension Cache {
    @usableFromInline
    typealias Changes = CacheChanges<Key, Value>

    /// Applies the buffered reads of every stripe that has some. Policy lock held.
    @inlinable
    func drainBufferedReads() {
        var bits = pendingStripes.exchange(0, ordering: .relaxed)
        while bits != 0 {
            let index = bits.trailingZeroBitCount
            bits &= bits - 1
            let stripe = stripes[index]
            stripe.mutex.lock()
            applyBufferedReads(of: stripe)
            stripe.mutex.unlock()
        }
    }

    /// Applies and clears `stripe`'s buffered reads, skipping entries that have left. Policy lock and
    /// `stripe`'s lock held.
    @inlinable
    func applyBufferedReads(of stripe: CacheStripe<Key, Value>) {
        guard !stripe.reads.isEmpty else { return }
        for tag in stripe.reads {
            if let node = policy.node(ofLive: tag) { policy.recordAccess(node) }
        }
        stripe.reads.removeAll(keepingCapacity: true)
    }

    /// Evicts until the limits hold, then settles the policy's segments (see ``EvictionPolicy/settle()``).
    /// Policy lock held.
    @inlinable
    func evictOverflow(_ changes: inout Changes) {
        while policy.isOverLimit, let victim = policy.nextVictim() {
            unlink(victim, .evicted, &changes)
        }
        policy.settle()
    }

    /// Removes a resident node's entry from the policy and its stripe's table, and frees the node. Policy lock
    /// held.
    @inlinable
    func unlink(_ node: Int, _ reason: CacheRemovalReason, _ changes: inout Changes) {
        guard policy.nodes[node].segment != .none else { return }
        let tag = policy.tag(of: node)
        let hash = policy.nodes[node].hash
        let cost = policy.nodes[node].cost
        policy.remove(node)
        policy.free(node)
        let stripe = stripes[hash & stripeMask]
        stripe.mutex.lock()
        guard let slot = stripe.table.find(tag: tag, hash: hash) else {
            stripe.mutex.unlock()
            preconditionFailure("Cache \"\(name)\": a resident entry is missing from its table")
        }
        let (key, value) = stripe.table.remove(at: slot)
        stripe.mutex.unlock()
        changes.record(key, value, cost: cost, reason)
    }

    /// Removes every entry whose time-to-live ran out by `time`, or stops once `changes` holds `limit` removals;
    /// says whether no such entry is left. Policy lock held. - Complexity: O(removed × log n).
    @inlinable
    @discardableResult
    func removeDue(at time: Int64, _ changes: inout Changes, limit: Int = .max) -> Bool {
        while let first = policy.firstToExpire, policy.nodes[first].expiresAt <= time {
            guard changes.count < limit else { return false }
            unlink(first, .expired, &changes)
        }
        return true
    }

    /// Adds the operation's removal counts to the cache's. Policy lock held.
    @inlinable
    func finish(_ changes: inout Changes) {
        changes.forEach { removalCounts[$0.reason.index] += 1 }
    }

    /// Removes an entry a reader found expired, if it is still the resident one. Lock not held.
    @inlinable
    func removeExpired(_ tag: UInt64, at time: Int64) {
        var changes = Changes()
        policyMutex.lock()
        if let node = policy.node(ofLive: tag), policy.nodes[node].expiresAt <= time {
            unlink(node, .expired, &changes)
        }
        finish(&changes)
        policyMutex.unlock()
        deliver(changes)
    }

    /// After every entry was removed: clears the read buffers and gives back the tables' and the policy's
    /// memory. Policy lock held. - Complexity: O(stripes).
    @usableFromInline
    func releaseStorage() {
        // Every table is empty, so no reader can buffer a tag of a removed entry from here on; clearing the
        // buffers leaves no old tag that a reused node index could be confused with.
        for stripe in stripes {
            stripe.mutex.lock()
            stripe.reads = []
            stripe.table.removeAll()
            stripe.mutex.unlock()
        }
        pendingStripes.store(0, ordering: .relaxed)
        policy.releaseNodes()
    }

    /// Tells the removal handler about the operation's removals, then releases the removed keys and values. No
    /// lock held.
    @inlinable
    func deliver(_ changes: consuming Changes) {
        guard changes.first != nil, let onRemoval else { return }
        if let removalDelivery {
            let removals = changes
            removalDelivery.deliver { removals.forEach(onRemoval) }
        } else {
            changes.forEach(onRemoval)
        }
    }
}
