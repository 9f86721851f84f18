/// The cache's eviction policy and totals: which entries stay when a limit is exceeded. Guarded by the cache's
/// policy lock; every operation is O(1) except where stated.
///
/// Frequency-aware mode (W-TinyLFU): a new entry enters a small FIFO **window** (1% of the capacity). Entries
/// pushed out of the window are **candidates** for the main space. When the cache is over a limit, a candidate and
/// the main space's victim are compared by their estimated recent frequency (``FrequencySketch``); the less
/// frequent one is evicted and a winning candidate joins **probation**. A burst of one-time keys (a scan) therefore
/// cannot flush the frequently used entries, which plain LRU lets happen.
///
/// The main space is a two-level CLOCK: a use only sets the entry's reference bit (and counts in the sketch), so a
/// read moves nothing. The hand passes probation's oldest entries when a victim is needed: a referenced one is
/// promoted to **protected** (its bit cleared), and the first unreferenced one is the victim. When protected
/// outgrows 80% of the main space, its oldest entries go back to probation, except referenced ones, which get
/// another round. This is segmented LRU with the reordering done by the hand instead of by every read.
///
/// LRU mode: one list; a use moves the entry to its most recent end; the least recently used entry is evicted
/// first.
///
/// Capacity is measured in entries when a count limit is set, otherwise in cost; both limits are enforced.
///
/// Entries are ``CacheNode``s in the ``CacheEntryStore``, each beside its key and value, linked by index (no
/// object per entry); the stripes' indices refer to them by index, their read buffers by tag (``tag(of:)``).
///
/// - Complexity: O(1) per operation, amortized for victim selection (every bit the hand clears was set by a use).
@usableFromInline
struct EvictionPolicy<Key, Value>: ~Copyable {
    @usableFromInline
    let isFrequencyAware: Bool
    @usableFromInline
    var countLimit: Int?
    @usableFromInline
    var costLimit: Int?
    @usableFromInline
    var count = 0
    @usableFromInline
    var totalCost = 0

    /// The nodes, in the store they share with the entries' keys and values.
    @usableFromInline
    var nodes = CacheEntryStore<Key, Value>()

    /// Node indices handed out so far: `0..<nodeCount` are initialized, in use or free.
    @inlinable
    var nodeCount: Int { nodes.count }
    /// Head of the free-node list (linked through `next`), or -1.
    @usableFromInline
    var freeNodes: Int32 = -1
    /// Oldest and newest node of each segment's list. The window (frequency-aware mode) or the only list (LRU
    /// mode) is `.window`.
    @usableFromInline
    var heads = SegmentEnds()
    @usableFromInline
    var tails = SegmentEnds()
    @usableFromInline
    var windowWeight = 0
    @usableFromInline
    var protectedWeight = 0
    @usableFromInline
    var windowMaximum = Int.max
    @usableFromInline
    var protectedMaximum = Int.max
    @usableFromInline
    var sketch: FrequencySketch
    /// Nodes that expire, as a binary min-heap by expiry time (see `EvictionPolicy+Expiry`).
    @usableFromInline
    var expiry: [Int32] = []
    @usableFromInline
    var random: UInt64 = 0x2545_F491_4F6C_DD1D
    /// Nodes allocated so far (wrapping; see ``CacheNode/stamp``).
    @usableFromInline
    var allocations: UInt32 = 0

    @inlinable
    init(isFrequencyAware: Bool, countLimit: Int?, costLimit: Int?) {
        self.isFrequencyAware = isFrequencyAware
        self.countLimit = countLimit
        self.costLimit = costLimit.map(EvictionPolicy.effectiveCostLimit)
        sketch = FrequencySketch(
            capacity: isFrequencyAware ? min(countLimit ?? 256, FrequencySketch.initialCapacityLimit) : 16)
        computeBudgets()
    }

    /// Whether capacity is counted in entries (else in cost).
    @inlinable
    var measuresCount: Bool { countLimit != nil || costLimit == nil }

    @inlinable
    func weight(_ node: Int) -> Int { measuresCount ? 1 : nodes[node].cost }

    @inlinable
    mutating func computeBudgets() {
        guard isFrequencyAware, let maximum = countLimit ?? costLimit else {
            windowMaximum = .max
            protectedMaximum = .max
            return
        }
        windowMaximum = max(1, maximum / 100)
        protectedMaximum = (maximum - min(maximum, windowMaximum)) / 5 * 4
    }

    /// Changes the limits; the caller then evicts until ``isOverLimit`` is false.
    @inlinable
    mutating func setLimits(count: Int?, cost: Int?) {
        let wasCountMeasured = measuresCount
        countLimit = count
        costLimit = cost.map(EvictionPolicy.effectiveCostLimit)
        computeBudgets()
        if wasCountMeasured != measuresCount {  // the segments' weights are in the other unit now
            windowWeight = 0
            protectedWeight = 0
            var node = first(.window)
            while let current = node {
                windowWeight += weight(current)
                node = successor(of: current)
            }
            node = first(.protected)
            while let current = node {
                protectedWeight += weight(current)
                node = successor(of: current)
            }
        }
        if isFrequencyAware, let countLimit {
            sketch.ensureCapacity(min(countLimit, max(FrequencySketch.initialCapacityLimit, self.count * 2)))
        }
    }

    /// A cost limit as enforced: at most `Int.max / 2`, so that the total cost (at most the limit) plus a new
    /// entry's cost (at most the limit too, or it is never stored) cannot overflow.
    @inlinable
    static func effectiveCostLimit(_ limit: Int) -> Int { min(limit, Int.max / 2) }

    @inlinable
    var isOverLimit: Bool {
        if let countLimit, count > countLimit { return true }
        if let costLimit, totalCost > costLimit { return true }
        return false
    }

    /// Whether an entry of this cost can ever fit.
    @inlinable
    func fits(cost: Int) -> Bool {
        if let costLimit, cost > costLimit { return false }
        if let countLimit, countLimit < 1 { return false }
        return true
    }

    /// The next node of its list (more recent), or nil.
    @inlinable
    func successor(of node: Int) -> Int? {
        let next = nodes[node].next
        return next >= 0 ? Int(next) : nil
    }

    // MARK: Transitions

    /// Adds a new node (from ``allocate(hash:cost:expiresAt:isDiscardable:)``) as the newest of the window. In
    /// frequency-aware mode, nodes pushed out of the window (never `node` itself) become candidates: the caller then
    /// evicts (``nextVictim()``) while over a limit and ends with ``settle()``.
    @inlinable
    mutating func insert(_ node: Int) {
        count += 1
        let (sum, overflow) = totalCost.addingReportingOverflow(nodes[node].cost)
        precondition(!overflow, "Cache: the total cost of the entries exceeds Int.max (set a cost limit)")
        totalCost = sum
        append(node, to: .window)
        windowWeight += weight(node)
        if nodes[node].expiresAt != .max { reschedule(node) }
        guard isFrequencyAware else { return }
        if !sketch.fits(count) { sketch.ensureCapacity(min(count * 2, countLimit ?? .max)) }
        sketch.increment(nodes[node].hash)
        while windowWeight > windowMaximum, let oldest = first(.window), oldest != node {
            unlinkFromList(oldest)
            windowWeight -= weight(oldest)
            append(oldest, to: .candidate)
        }
    }

    /// Records a use of a resident node: in frequency-aware mode its reference bit and a count in the sketch; in
    /// LRU mode a move to the most recent end.
    @inlinable
    mutating func recordAccess(_ node: Int) {
        guard nodes[node].segment != .none else { return }
        if isFrequencyAware {
            nodes[node].isReferenced = true
            sketch.increment(nodes[node].hash)
        } else {
            moveToEnd(node)
        }
    }

    /// A resident node's cost changes to `cost`.
    @inlinable
    mutating func changeCost(of node: Int, to cost: Int) {
        let oldWeight = weight(node)
        let (sum, overflow) = (totalCost - nodes[node].cost).addingReportingOverflow(cost)
        precondition(!overflow, "Cache: the total cost of the entries exceeds Int.max (set a cost limit)")
        totalCost = sum
        nodes[node].cost = cost
        let delta = weight(node) - oldWeight
        switch nodes[node].segment {
        case .window: windowWeight += delta
        case .protected: protectedWeight += delta
        case .probation, .candidate, .none: break
        }
    }

    /// Takes a resident node out of the lists, the expiry heap and the totals. The caller then frees it
    /// (``free(_:)``) once its stripe's index no longer refers to it.
    @inlinable
    mutating func remove(_ node: Int) {
        switch nodes[node].segment {
        case .none:
            return
        case .window:
            windowWeight -= weight(node)
        case .protected:
            protectedWeight -= weight(node)
        case .probation, .candidate:
            break
        }
        unlinkFromList(node)
        nodes[node].segment = .none
        removeFromExpiry(node)
        count -= 1
        totalCost -= nodes[node].cost
    }

    // MARK: Choosing victims

    /// The node to evict next while over a limit, or nil when the cache is empty. A candidate is compared with the
    /// main space's victim: the winner stays (a candidate that wins joins probation), the other is returned. The
    /// caller evicts it and asks again while over a limit, then calls ``settle()``. - Complexity: O(1) amortized.
    @inlinable
    mutating func nextVictim() -> Int? {
        guard isFrequencyAware else { return first(.window) }
        guard let candidate = first(.candidate) else { return mainVictim() ?? first(.window) }
        guard let victim = mainVictim() else { return candidate }
        guard admits(candidate, over: victim) else { return candidate }
        unlinkFromList(candidate)
        append(candidate, to: .probation)
        return victim
    }

    /// The main space's victim after the clock hand's pass: probation's oldest unreferenced node (referenced ones
    /// are promoted on the way), else protected's oldest unreferenced one; nil when the main space is empty.
    @inlinable
    mutating func mainVictim() -> Int? {
        while let oldest = first(.probation) {
            guard nodes[oldest].isReferenced else { return oldest }
            nodes[oldest].isReferenced = false
            unlinkFromList(oldest)
            append(oldest, to: .protected)
            protectedWeight += weight(oldest)
        }
        // Everything in the main space is protected: one pass clears every bit, so this ends.
        while let oldest = first(.protected) {
            guard nodes[oldest].isReferenced else { return oldest }
            nodes[oldest].isReferenced = false
            moveToEnd(oldest)
        }
        return nil
    }

    /// Ends a write's evictions: candidates still waiting join probation (the cache had room for them), and
    /// protected gives its oldest unreferenced nodes back to probation until it is within its share.
    @inlinable
    mutating func settle() {
        guard isFrequencyAware else { return }
        while let candidate = first(.candidate) {
            unlinkFromList(candidate)
            append(candidate, to: .probation)
        }
        while protectedWeight > protectedMaximum, let oldest = first(.protected) {
            unlinkFromList(oldest)
            if nodes[oldest].isReferenced {
                nodes[oldest].isReferenced = false
                append(oldest, to: .protected)
            } else {
                protectedWeight -= weight(oldest)
                append(oldest, to: .probation)
            }
        }
    }

    /// Whether the candidate should replace the victim: it is estimated more frequent. Among frequent ties a
    /// rare random admission keeps an attacker from pinning the cache with crafted hash collisions.
    @inlinable
    mutating func admits(_ candidate: Int, over victim: Int) -> Bool {
        let candidateFrequency = sketch.frequency(nodes[candidate].hash)
        let victimFrequency = sketch.frequency(nodes[victim].hash)
        if candidateFrequency > victimFrequency { return true }
        guard candidateFrequency >= 6 else { return false }
        random ^= random << 13
        random ^= random >> 7
        random ^= random << 17
        return random & 127 == 0
    }

    /// The coldest resident node: probation's oldest, else the window's, else protected's (in LRU mode, the least
    /// recent); nil when empty. The order ``Cache/trim(toFraction:)`` and purges remove entries in.
    @inlinable
    var coldest: Int? { first(.probation) ?? first(.window) ?? first(.protected) }

    /// Forgets every node (all must have been removed, and no stripe may index any); gives back the store's
    /// memory.
    @inlinable
    mutating func releaseNodes() {
        precondition(count == 0, "Cache: releasing nodes of a non-empty policy")
        // Generations must keep growing across reuse of an index, so buffered tags taken before stay dead: the
        // store is emptied only when nothing can still hold a tag (the caller cleared every buffer first).
        nodes = CacheEntryStore()
        freeNodes = -1
    }
}
