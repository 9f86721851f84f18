extension Cache {
    /// The most entries a bulk removal — ``removeAll()``, ``trim(toFraction:)``, ``removeExpired()``, a lower
    /// ``setLimits(count:cost:)``, a memory-pressure purge — removes in one hold of the policy lock.
    ///
    /// The policy lock is a spin lock meant for sections of tens of nanoseconds. A bulk removal releases it after
    /// each chunk, and notifies that chunk's removals before taking it again, so writers on other threads wait at
    /// most one chunk (tens of microseconds), not the whole operation (tens of milliseconds for a million
    /// entries). Entries written while a bulk removal runs may or may not be removed by it; ``removeAll()`` goes on
    /// until the cache is empty.
    public static var removalsPerHold: Int { 1024 }

    /// How many nodes ``trim(toFraction:)`` looks at per hold while it looks for discardable entries.
    @usableFromInline
    static var nodesScannedPerHold: Int { 16 * removalsPerHold }

    /// Runs `step` in holds of the policy lock until it returns true. Each hold's removals are counted, and
    /// notified after the lock is released. Lock not held.
    @usableFromInline
    func inChunks(_ step: (inout Changes) -> Bool) {
        while true {
            var changes = Changes(keepingRemovals: keepsRemovals)
            policyMutex.lock()
            if pendingStripes.load(ordering: .relaxed) != 0 { drainBufferedReads() }
            let done = step(&changes)
            finish(&changes)
            policyMutex.unlock()
            deliver(changes)
            if done { return }
        }
    }

    /// Removes every entry present when it is called (notified as `.removed`; entries whose time-to-live has run
    /// out as `.expired`). Loads in flight still return their values to their callers but do not store them.
    /// Removes in chunks (see ``removalsPerHold``): entries written by other threads, or by the removal handler,
    /// while it runs may stay. - Complexity: O(n).
    public func removeAll() { purge(.removed) }

    /// Removes every expired entry now (they are otherwise removed when read or at the next write), in chunks
    /// (see ``removalsPerHold``). - Complexity: O(expired × log n).
    public func removeExpired() {
        let time = now()
        inChunks { changes in removeDue(at: time, &changes, limit: Self.removalsPerHold) }
    }

    /// Shrinks to `fraction` of the current count and cost (rounded down), dropping entries whose time-to-live has
    /// run out first (notified as `.expired`), then discardable entries (in storage order), then the coldest:
    /// probation, window, protected, each oldest first (notified as `.pressure`). Removes in chunks
    /// (see ``removalsPerHold``), and at most as many entries as the cache held when it was called, so writers
    /// that keep refilling it cannot keep it going. - Complexity: O(n).
    public func trim(toFraction fraction: Double) {
        precondition((0...1).contains(fraction), "Cache \"\(name)\": trim fraction must be in 0...1")
        let time = mayExpire.load(ordering: .relaxed) ? now() : 0
        var target: (count: Int, cost: Int, removals: Int)?
        var removed = 0
        var scanned = 0  // discardable entries: the node index the scan goes on from
        inChunks { changes in
            let goal =
                target ?? (
                    Cache.scaled(policy.count, by: fraction), Cache.scaled(policy.totalCost, by: fraction), policy.count
                )
            target = goal
            func done() -> Bool {
                (policy.count <= goal.count && policy.totalCost <= goal.cost)
                    || removed + changes.count >= goal.removals
            }
            let limit = Self.removalsPerHold
            defer { removed += changes.count }
            guard removeDue(at: time, &changes, limit: limit) else { return false }  // expired entries first
            let scanEnd = min(policy.nodeCount, scanned + Self.nodesScannedPerHold)
            while scanned < scanEnd, !done(), changes.count < limit {
                // A node freed since (segment `.none`) is skipped; one allocated since is a live entry like any.
                if policy.nodes[scanned].segment != .none && policy.nodes[scanned].isDiscardable {
                    unlink(scanned, .pressure, &changes)
                }
                scanned += 1
            }
            if !done() && scanned < policy.nodeCount { return false }
            while !done(), let node = policy.coldest {
                guard changes.count < limit else { return false }
                unlink(node, .pressure, &changes)
            }
            if policy.count == 0 { releaseStorage() }
            return true
        }
    }

    /// Removes every entry present when it is called with `reason` (expired ones as `.expired`), in chunks, in
    /// storage order; `.removed` also supersedes the loads in flight. Entries written meanwhile stay.
    /// - Complexity: O(n).
    @usableFromInline
    func purge(_ reason: CacheRemovalReason) {
        let time = mayExpire.load(ordering: .relaxed) ? now() : 0
        var mark: UInt32?
        var scanned = 0
        inChunks { changes in
            if mark == nil {
                mark = policy.allocations
                if reason == .removed {
                    for stripe in stripes {
                        stripe.mutex.lock()
                        if !stripe.loads.isEmpty { stripe.supersedeAllLoads() }
                        stripe.mutex.unlock()
                    }
                }
            }
            let scanEnd = min(policy.nodeCount, scanned + Self.nodesScannedPerHold)
            while scanned < scanEnd {
                guard changes.count < Self.removalsPerHold else { return false }
                let node = scanned
                scanned += 1
                guard policy.nodes[node].segment != .none, !policy.isAllocated(node, after: mark!) else { continue }
                unlink(node, policy.nodes[node].expiresAt <= time ? .expired : reason, &changes)
            }
            guard scanned >= policy.nodeCount else { return false }
            if policy.count == 0 { releaseStorage() }
            return true
        }
    }

    /// ``setLimits(count:cost:)`` once its arguments are checked: expired entries first, then evictions (in the
    /// policy's order) until the new limits hold, in chunks, and then the new limits. Until that last hold the old
    /// limits stay in force, so a write between two chunks evicts at most what it overflows, not the rest of the
    /// reduction. At most as many entries are evicted as the cache held when it was called. Lock not held.
    @usableFromInline
    func applyLimits(count countLimit: Int?, cost costLimit: Int?) {
        let time = mayExpire.load(ordering: .relaxed) ? now() : 0
        var removals: Int?
        var removed = 0
        inChunks { changes in
            let limit = Self.removalsPerHold
            let budget = removals ?? policy.count
            removals = budget
            defer { removed += changes.count }
            guard removeDue(at: time, &changes, limit: limit) else { return false }  // before live entries go
            let targetCost = costLimit.map(Policy.effectiveCostLimit) ?? .max
            defer { policy.settle() }
            while (policy.count > (countLimit ?? .max) || policy.totalCost > targetCost)
                && removed + changes.count < budget
            {
                guard changes.count < limit else { return false }
                guard let victim = policy.nextVictim() else { break }
                unlink(victim, .evicted, &changes)
            }
            policy.setLimits(count: countLimit, cost: costLimit)
            evictOverflow(&changes)  // what writers added since the last chunk, if anything
            return true
        }
    }
}
