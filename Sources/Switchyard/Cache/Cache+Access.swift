import Synchronization

extension Cache {
    /// The value for `key`, or nil if it is absent or expired. Counts a hit or a miss and records the use for
    /// the eviction policy. Never waits for a write to finish its bookkeeping (see the type's Concurrency notes).
    /// - Complexity: O(1).
    @inlinable
    public func value(forKey key: Key) -> Value? {
        let hash = key.hashValue
        let index = hash & stripeMask
        let time = mayExpire.load(ordering: .relaxed) ? now() : 0
        let (value, expired) = withStripe(index) { stripe -> (Value?, UInt64?) in
            stripe.mutex.lock()
            let records = publishedEntries.load(ordering: .acquiring)
            guard let entry = find(key, hash: hash, in: stripe, records) else {
                stripe.misses += 1
                stripe.mutex.unlock()
                return (nil, nil)
            }
            let node = Store.node(entry, in: records)
            let tag = Policy.tag(entry, generation: node.pointee.generation)
            if node.pointee.expiresAt <= time {
                stripe.misses += 1
                stripe.mutex.unlock()
                return (nil, tag)
            }
            let value = Store.value(entry, in: records).pointee
            stripe.hits += 1
            if buffersReads {
                _ = stripe.buffer(tag)
                if stripe.readCount < CacheStripe<Key, Value>.drainThreshold {
                    stripe.mutex.unlock()
                } else if policyMutex.tryLock() {
                    applyBufferedReads(of: stripe)
                    stripe.mutex.unlock()
                    policyMutex.unlock()
                } else {
                    // Busy: the next write applies them (see `drainBufferedReads`). The load first keeps reads of a
                    // stripe already marked from writing the shared word again.
                    stripe.mutex.unlock()
                    let bit: UInt64 = 1 << UInt64(index)
                    if pendingStripes.load(ordering: .relaxed) & bit == 0 {
                        pendingStripes.bitwiseOr(bit, ordering: .relaxed)
                    }
                }
            } else if policyMutex.tryLock() {
                // Both locks held (the policy lock only tried, so no ordering rule is broken): apply this
                // stripe's buffered reads, then this one, in order.
                applyBufferedReads(of: stripe)
                policy.recordAccess(entry)
                stripe.mutex.unlock()
                if pendingStripes.load(ordering: .relaxed) != 0 { drainBufferedReads() }
                policyMutex.unlock()
            } else {
                let wasEmpty = stripe.readCount == 0
                let buffered = stripe.buffer(tag)
                stripe.mutex.unlock()
                if wasEmpty && buffered { pendingStripes.bitwiseOr(1 << UInt64(index), ordering: .relaxed) }
            }
            return (value, nil)
        }
        if let expired { removeExpired(expired, at: time) }
        return value
    }

    /// Whether `key` has a live entry; does not count as a use, a hit or a miss. - Complexity: O(1).
    @inlinable
    public func contains(_ key: Key) -> Bool { peek(key) != nil }

    /// The value for `key` if live, without counting or recording a use.
    @inlinable
    func peek(_ key: Key) -> Value? {
        let hash = key.hashValue
        let time = mayExpire.load(ordering: .relaxed) ? now() : 0
        return withStripe(hash & stripeMask) { stripe in
            stripe.mutex.lock()
            defer { stripe.mutex.unlock() }
            let records = publishedEntries.load(ordering: .acquiring)
            guard let entry = find(key, hash: hash, in: stripe, records),
                Store.node(entry, in: records).pointee.expiresAt > time
            else { return nil }
            return Store.value(entry, in: records).pointee
        }
    }

    /// Stores `value` for `key`, replacing (and notifying) any previous value, then evicts until the limits hold.
    ///
    /// - Parameters:
    ///   - value: the value to store.
    ///   - key: its key.
    ///   - cost: the entry's cost; by default the cache's `cost` function of the value, or 0.
    ///   - timeToLive: how long the entry stays; by default the cache's `timeToLive`.
    ///   - isDiscardable: whether the entry goes first under memory pressure.
    /// - Returns: whether the entry is in the cache when this returns. False when it costs more than the cost
    ///   limit, or when the frequency-aware policy turned the new key away (the replaced value, if any, is gone
    ///   either way, and the new value is notified as `.evicted`).
    /// - Complexity: O(1) amortized, plus O(log n) with a time-to-live.
    @discardableResult
    @inlinable
    public func setValue(
        _ value: Value, forKey key: Key, cost: Int? = nil, timeToLive: Duration? = nil, isDiscardable: Bool = false
    ) -> Bool {
        store(value, forKey: key, cost: cost, timeToLive: timeToLive, isDiscardable: isDiscardable, load: nil)
    }

    /// ``setValue(_:forKey:cost:timeToLive:isDiscardable:)``, or with `load` the end of that load: its value is
    /// stored only if the load was not superseded (see ``CacheStripe``); a plain write supersedes any load of the
    /// key in flight.
    @discardableResult
    @inlinable
    func store(
        _ value: Value, forKey key: Key, cost: Int?, timeToLive: Duration?, isDiscardable: Bool,
        load ticket: CacheLoadTicket?
    ) -> Bool {
        let cost = cost ?? costOf?(value) ?? 0
        precondition(cost >= 0, "Cache \"\(name)\": cost of an entry must be ≥ 0 (got \(cost) for \(key))")
        let lifetime = timeToLive ?? self.timeToLive
        precondition(lifetime.map { $0 > .zero } ?? true, "Cache \"\(name)\": timeToLive must be > 0")
        if lifetime != nil && !mayExpire.load(ordering: .relaxed) { mayExpire.store(true, ordering: .relaxed) }
        let time = mayExpire.load(ordering: .relaxed) ? now() : 0
        let expiresAt = lifetime.map { Cache.expiry(after: $0, from: time) } ?? .max
        let hash = key.hashValue
        var changes = Changes(keepingRemovals: keepsRemovals)
        policyMutex.lock()
        if pendingStripes.load(ordering: .relaxed) != 0 { drainBufferedReads() }
        if !policy.expiry.isEmpty { removeDue(at: time, &changes) }
        if !policy.hasRoomForNode { growEntries() }
        let stored = withStripe(hash & stripeMask) { stripe -> Bool in
            stripe.mutex.lock()
            // Both locks are held anyway: this stripe's buffered uses inform the evictions this write may cause.
            if buffersReads { applyBufferedReads(of: stripe) }
            if let ticket {
                guard stripe.endLoad(ticket, of: key) else {  // written or removed while it loaded: that write wins
                    stripe.mutex.unlock()
                    return false
                }
            } else if !stripe.loads.isEmpty {
                stripe.supersedeLoad(of: key)
            }
            if let node = find(key, hash: hash, in: stripe, policy.nodes.base) {
                let replaced = policy.nodes.value(node).move()
                policy.nodes.value(node).initialize(to: value)
                policy.nodes[node].expiresAt = expiresAt
                let storedKey = keepsRemovals ? policy.nodes.key(node).pointee : key
                stripe.mutex.unlock()
                changes.record(storedKey, replaced, cost: policy.nodes[node].cost, .replaced)
                policy.nodes[node].isDiscardable = isDiscardable
                if cost != policy.nodes[node].cost { policy.changeCost(of: node, to: cost) }
                if expiresAt != .max || policy.nodes[node].heapIndex >= 0 { policy.reschedule(node) }
                if policy.fits(cost: cost) {
                    policy.recordAccess(node)
                    evictOverflow(&changes)
                } else {
                    unlink(node, .evicted, &changes)
                }
                return policy.nodes[node].segment != .none
            } else if !policy.fits(cost: cost) {
                stripe.mutex.unlock()
                changes.record(key, value, cost: cost, .evicted)
                return false
            } else {
                let node = policy.allocate(
                    hash: hash, cost: cost, expiresAt: expiresAt, isDiscardable: isDiscardable)
                policy.nodes.occupy(node, key: key, value: value)
                stripe.index.insert(entry: node, hash: hash)
                stripe.mutex.unlock()
                policy.insert(node)
                evictOverflow(&changes)
                return policy.nodes[node].segment != .none
            }
        }
        finish(&changes)
        policyMutex.unlock()
        deliver(changes)
        return stored
    }

    /// Removes the entry for `key` and returns its value (nil if absent or expired; an expired entry is removed
    /// as `.expired`). - Complexity: O(1), plus O(log n) with a time-to-live.
    @discardableResult
    @inlinable
    public func removeValue(forKey key: Key) -> Value? {
        let time = mayExpire.load(ordering: .relaxed) ? now() : 0
        let hash = key.hashValue
        var changes = Changes(keepingRemovals: keepsRemovals)
        policyMutex.lock()
        if pendingStripes.load(ordering: .relaxed) != 0 { drainBufferedReads() }
        let result = withStripe(hash & stripeMask) { stripe -> Value? in
            stripe.mutex.lock()
            if !stripe.loads.isEmpty { stripe.supersedeLoad(of: key) }
            guard let node = find(key, hash: hash, in: stripe, policy.nodes.base) else {
                stripe.mutex.unlock()
                return nil
            }
            let live = policy.nodes[node].expiresAt > time
            stripe.index.remove(entry: node, hash: hash)
            let (removedKey, value) = policy.nodes.vacate(node)
            stripe.mutex.unlock()
            let cost = policy.nodes[node].cost
            policy.remove(node)
            policy.free(node)
            changes.record(removedKey, value, cost: cost, live ? .removed : .expired)
            return live ? value : nil
        }
        finish(&changes)
        policyMutex.unlock()
        deliver(changes)
        return result
    }
}
