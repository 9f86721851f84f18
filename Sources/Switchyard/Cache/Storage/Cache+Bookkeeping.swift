import Synchronization

/// What one operation changed, collected under the locks and acted on after them.
@usableFromInline
struct CacheChanges<Key: Hashable & Sendable, Value: Sendable> {
    /// Removals to notify, in order.
    @usableFromInline
    var removals: [CacheRemoval<Key, Value>] = []
    /// Entries whose last reference may be dropped here; released after the locks (a value's deinit may run
    /// arbitrary code).
    @usableFromInline
    var released: [CacheEntry<Key, Value>] = []

    @inlinable
    init() {}

    @inlinable
    mutating func record(_ entry: CacheEntry<Key, Value>, _ reason: CacheRemovalReason) {
        removals.append(CacheRemoval(key: entry.key, value: entry.value, cost: entry.cost, reason: reason))
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
    func drainBufferedReads(_ changes: inout Changes) {
        var bits = pendingStripes.exchange(0, ordering: .relaxed)
        while bits != 0 {
            let index = bits.trailingZeroBitCount
            bits &= bits - 1
            let stripe = stripes[index]
            stripe.mutex.lock()
            applyBufferedReads(of: stripe, &changes.released)
            stripe.mutex.unlock()
        }
    }

    /// Applies and clears `stripe`'s buffered reads. Policy lock and `stripe`'s lock held.
    @inlinable
    func applyBufferedReads(of stripe: CacheStripe<Key, Value>, _ released: inout [Entry]) {
        guard !stripe.reads.isEmpty else { return }
        for entry in stripe.reads {
            if entry.segment == .none {
                released.append(entry)  // possibly its last reference
            } else {
                policy.recordAccess(entry)
            }
        }
        stripe.reads.removeAll(keepingCapacity: true)
    }

    /// Evicts until the limits hold. Policy lock held.
    @inlinable
    func evictOverflow(candidates: Int, _ changes: inout Changes) {
        guard policy.isOverLimit else { return }
        var victims: [Entry] = []
        policy.evictOverflow(candidates: candidates, into: &victims)
        for victim in victims {
            removeFromTable(victim)
            changes.record(victim, .evicted)
        }
    }

    /// Removes a resident entry from the policy and its stripe's table. Policy lock held.
    @inlinable
    func unlink(_ entry: Entry, _ reason: CacheRemovalReason, _ changes: inout Changes) {
        guard entry.segment != .none else { return }
        policy.remove(entry)
        removeFromTable(entry)
        changes.record(entry, reason)
    }

    /// Takes `entry` out of its stripe's table if it is still there. Policy lock held.
    @inlinable
    func removeFromTable(_ entry: Entry) {
        let stripe = stripes[entry.hash & stripeMask]
        stripe.mutex.lock()
        if stripe.table[entry.key] === entry { stripe.table.removeValue(forKey: entry.key) }
        stripe.mutex.unlock()
    }

    /// Removes every entry whose time-to-live ran out by `time`. Policy lock held.
    @inlinable
    func removeDue(at time: Int64, _ changes: inout Changes) {
        while let first = policy.expiry.first, first.expiresAt <= time {
            unlink(first, .expired, &changes)
        }
    }

    /// Puts a resident entry whose expiry changed in its place in the expiry heap. Policy lock held.
    @inlinable
    func reschedule(_ entry: Entry) {
        if entry.expiresAt == .max {
            policy.expiry.remove(entry)
        } else if entry.heapIndex >= 0 {
            policy.expiry.update(entry)
        } else {
            policy.expiry.insert(entry)
        }
    }

    /// Adds the operation's removal counts to the cache's. Policy lock held.
    @inlinable
    func finish(_ changes: inout Changes) {
        for removal in changes.removals { removalCounts[removal.reason.index] += 1 }
    }

    /// Removes an entry a reader found expired, if it is still the resident one. Lock not held.
    @inlinable
    func removeExpired(_ entry: Entry, at time: Int64) {
        var changes = Changes()
        policyMutex.lock()
        if entry.segment != .none && entry.expiresAt <= time { unlink(entry, .expired, &changes) }
        finish(&changes)
        policyMutex.unlock()
        deliver(changes)
    }

    /// Tells the removal handler about the operation's removals. No lock held.
    @inlinable
    func deliver(_ changes: consuming Changes) {
        guard !changes.removals.isEmpty, let onRemoval else { return }
        let removals = changes.removals
        if let removalDelivery {
            removalDelivery.deliver { for removal in removals { onRemoval(removal) } }
        } else {
            for removal in removals { onRemoval(removal) }
        }
    }
}
