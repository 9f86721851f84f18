import Synchronization

/// What one operation removed, collected under the locks and acted on after them: the removals are notified,
/// and the removed keys and values are released (a value's deinit may run arbitrary code, so never under a
/// lock).
///
/// A pointer to a buffer allocated on the first removal, and two counts: the type is trivial, so an operation that
/// removes nothing (most reads and writes) pays nothing to create or drop it, where Swift storage would make every
/// write pay twice for a generic destruction through the type's value witness. Whoever creates one must end it
/// with ``release()`` exactly once, after the locks; ``Cache/deliver(_:)`` does.
///
/// When there is no removal handler and releasing a key or value runs no code (`Int`, a struct of plain values),
/// removals are only counted: nothing needs them after the lock.
@usableFromInline
struct CacheChanges<Key: Hashable & Sendable, Value: Sendable> {
    @usableFromInline
    var removals: UnsafeMutablePointer<CacheRemoval<Key, Value>>?
    /// The number of removals recorded.
    @usableFromInline
    var count = 0
    @usableFromInline
    var capacity = 0
    /// Removals by reason.
    @usableFromInline
    var counts = CacheRemovalCounts()
    /// Whether the removals themselves are kept (else only counted).
    @usableFromInline
    let keepsRemovals: Bool

    @inlinable
    init(keepingRemovals keepsRemovals: Bool) {
        self.keepsRemovals = keepsRemovals
    }

    /// Counts a removal whose key and value are not kept (``keepsRemovals`` is false).
    @inlinable
    mutating func count(_ reason: CacheRemovalReason) {
        counts[reason] += 1
        count += 1
    }

    @inlinable
    mutating func record(_ key: Key, _ value: Value, cost: Int, _ reason: CacheRemovalReason) {
        counts[reason] += 1
        guard keepsRemovals else {
            count += 1
            return
        }
        if count == capacity { grow() }
        (removals.unsafelyUnwrapped + count).initialize(
            to: CacheRemoval(key: key, value: value, cost: cost, reason: reason))
        count += 1
    }

    /// Doubles the buffer (4 removals at first), moving the removals recorded so far.
    @usableFromInline
    mutating func grow() {
        let newCapacity = max(4, capacity * 2)
        let larger = UnsafeMutablePointer<CacheRemoval<Key, Value>>.allocate(capacity: newCapacity)
        if let removals {
            larger.moveInitialize(from: removals, count: count)
            removals.deallocate()
        }
        removals = larger
        capacity = newCapacity
    }

    /// Whether nothing was removed.
    @inlinable
    var isEmpty: Bool { count == 0 }

    /// Calls `body` with each removal kept, in order.
    @inlinable
    func forEach(_ body: (CacheRemoval<Key, Value>) -> Void) {
        guard let removals else { return }
        for index in 0..<count { body(removals[index]) }
    }

    /// The removals, in order, as an array (for delivery elsewhere).
    @inlinable
    var array: [CacheRemoval<Key, Value>] {
        guard let removals else { return [] }
        return Array(UnsafeBufferPointer(start: removals, count: count))
    }

    /// Releases the removed keys and values and the buffer. Call exactly once, with no lock held.
    @inlinable
    func release() {
        guard let removals else { return }
        removals.deinitialize(count: count)
        removals.deallocate()
    }
}

/// A count per removal reason, stored inline (no array to check for uniqueness on every update).
@usableFromInline
struct CacheRemovalCounts {
    @usableFromInline
    var evicted: UInt64 = 0
    @usableFromInline
    var expired: UInt64 = 0
    @usableFromInline
    var removed: UInt64 = 0
    @usableFromInline
    var replaced: UInt64 = 0
    @usableFromInline
    var pressure: UInt64 = 0

    @inlinable
    init() {}

    @inlinable
    subscript(reason: CacheRemovalReason) -> UInt64 {
        get {
            switch reason {
            case .evicted: evicted
            case .expired: expired
            case .removed: removed
            case .replaced: replaced
            case .pressure: pressure
            }
        }
        set {
            switch reason {
            case .evicted: evicted = newValue
            case .expired: expired = newValue
            case .removed: removed = newValue
            case .replaced: replaced = newValue
            case .pressure: pressure = newValue
            }
        }
    }

    @inlinable
    mutating func add(_ other: CacheRemovalCounts) {
        evicted += other.evicted
        expired += other.expired
        removed += other.removed
        replaced += other.replaced
        pressure += other.pressure
    }
}

/// The cache's internal transitions. Functions documented "policy lock held" must be called with
/// `policyMutex` held and no stripe lock held.
extension Cache {
    @usableFromInline
    typealias Changes = CacheChanges<Key, Value>

    /// Applies the buffered reads of every stripe marked in `pendingStripes`. Policy lock held.
    @inlinable
    func drainBufferedReads() {
        var bits = pendingStripes.exchange(0, ordering: .relaxed)
        while bits != 0 {
            let index = bits.trailingZeroBitCount
            bits &= bits - 1
            withStripe(index) { stripe in
                stripe.mutex.lock()
                applyBufferedReads(of: stripe)
                stripe.mutex.unlock()
            }
        }
    }

    /// Applies and clears `stripe`'s buffered reads, skipping entries that have left. Policy lock and
    /// `stripe`'s lock held.
    @inlinable
    func applyBufferedReads(of stripe: CacheStripe<Key, Value>) {
        guard stripe.readCount > 0 else { return }
        for tag in UnsafeBufferPointer(start: stripe.reads, count: stripe.readCount) {
            if let node = policy.node(ofLive: tag) { policy.recordAccess(node) }
        }
        stripe.readCount = 0
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

    /// Removes a resident node's entry from its stripe's index and from the policy, and frees the node. Policy
    /// lock held.
    @inlinable
    func unlink(_ node: Int, _ reason: CacheRemovalReason, _ changes: inout Changes) {
        guard policy.nodes[node].segment != .none else { return }
        let hash = policy.nodes[node].hash
        let cost = policy.nodes[node].cost
        withStripe(hash & stripeMask) { stripe in
            stripe.mutex.lock()
            stripe.index.remove(entry: node, hash: hash)
            if keepsRemovals {
                let (key, value) = policy.nodes.vacate(node)
                stripe.mutex.unlock()
                changes.record(key, value, cost: cost, reason)
            } else {
                // Nothing to notify, and dropping the key and value runs no code: they need not be read at all.
                policy.nodes[node].isOccupied = false
                stripe.mutex.unlock()
                changes.count(reason)
            }
        }
        policy.remove(node)
        policy.free(node)
    }

    @usableFromInline
    typealias Store = CacheEntryStore<Key, Value>

    /// The entry of `stripe` (whose lock is held) with key `key` and hash `hash`, its record read at `records`
    /// (the published store address, or the policy's under the policy lock).
    @inlinable @inline(__always)
    func find(_ key: Key, hash: Int, in stripe: CacheStripe<Key, Value>, _ records: UnsafeMutableRawPointer) -> Int? {
        stripe.index.find(hash: hash) { Store.key($0, in: records).pointee == key }
    }

    /// Makes room in the entry store for one more node: moves it to a buffer twice as large, publishes the new
    /// address to readers, and frees the old buffer once every stripe lock was taken and released once (no
    /// reader still uses it then; see ``CacheEntryStore``). Policy lock held, no stripe lock.
    /// - Complexity: O(entries + stripes), once per doubling.
    @usableFromInline
    func growEntries() {
        let old = policy.nodes.grow()
        publishedEntries.store(policy.nodes.base, ordering: .releasing)
        for stripe in stripes {
            stripe.mutex.lock()
            stripe.mutex.unlock()
        }
        old.deallocate()
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
        if !changes.isEmpty { removalCounts.add(changes.counts) }
    }

    /// Removes an entry a reader found expired, if it is still the resident one. Lock not held.
    @inlinable
    func removeExpired(_ tag: UInt64, at time: Int64) {
        var changes = Changes(keepingRemovals: keepsRemovals)
        policyMutex.lock()
        if let node = policy.node(ofLive: tag), policy.nodes[node].expiresAt <= time {
            unlink(node, .expired, &changes)
        }
        finish(&changes)
        policyMutex.unlock()
        deliver(changes)
    }

    /// After every entry was removed: clears the read buffers and gives back the indices' and the store's
    /// memory. Policy lock held. - Complexity: O(stripes + nodes).
    @usableFromInline
    func releaseStorage() {
        // Every index is empty, so no reader can buffer a tag of a removed entry from here on; clearing the
        // buffers leaves no old tag that a reused node index could be confused with.
        for stripe in stripes {
            stripe.mutex.lock()
            stripe.readCount = 0
            stripe.index.removeAll()
            stripe.mutex.unlock()
        }
        pendingStripes.store(0, ordering: .relaxed)
        // The pass above is also what freeing the entry store needs: a reader that took its stripe's lock after
        // the pass finds an empty index and reads no entry, even through the old address.
        policy.releaseNodes()
        publishedEntries.store(policy.nodes.base, ordering: .releasing)
    }

    /// Tells the removal handler about the operation's removals, then releases the removed keys and values. No
    /// lock held.
    @inlinable
    func deliver(_ changes: Changes) {
        // Without kept removals there is no handler to call and nothing to release (see `keepsRemovals`).
        guard keepsRemovals, !changes.isEmpty else { return }
        if let onRemoval {
            if let removalDelivery {
                let removals = changes.array
                changes.release()
                removalDelivery.deliver { removals.forEach(onRemoval) }
                return
            }
            changes.forEach(onRemoval)
        }
        changes.release()
    }
}
