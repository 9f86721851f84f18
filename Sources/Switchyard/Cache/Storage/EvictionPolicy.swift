/// The cache's eviction policy and totals: which entries stay when a limit is exceeded. Guarded by the cache's
/// policy lock; every operation is O(1) except where stated.
///
/// Frequency-aware mode (W-TinyLFU): a new entry enters a small LRU **window** (1% of the capacity). Entries
/// pushed out of the window become **candidates** for the main space, a segmented LRU of **probation** (entries
/// seen once there) and **protected** (entries used again in probation; 80% of the main space). When the cache is
/// over a limit, the candidate and probation's least recent entry (the victim) are compared by their estimated
/// recent frequency (``FrequencySketch``), and the less frequent one is evicted. A burst of one-time keys (a
/// scan) therefore cannot flush the frequently used entries, which plain LRU lets happen.
///
/// LRU mode: one list; the least recently used entry is evicted first.
///
/// Capacity is measured in entries when a count limit is set, otherwise in cost; both limits are enforced.
@usableFromInline
struct EvictionPolicy<Key: Hashable & Sendable, Value: Sendable> {
    @usableFromInline
    typealias Entry = CacheEntry<Key, Value>

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

    /// The window (frequency-aware mode) or the only list (LRU mode).
    @usableFromInline
    var window = CacheEntryList<Key, Value>()
    @usableFromInline
    var probation = CacheEntryList<Key, Value>()
    @usableFromInline
    var protected = CacheEntryList<Key, Value>()
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
    /// Entries that expire, by expiry time.
    @usableFromInline
    var expiry = ExpiryHeap<Key, Value>()
    @usableFromInline
    var random: UInt64 = 0x2545_F491_4F6C_DD1D

    @inlinable
    init(isFrequencyAware: Bool, countLimit: Int?, costLimit: Int?) {
        self.isFrequencyAware = isFrequencyAware
        self.countLimit = countLimit
        self.costLimit = costLimit
        sketch = FrequencySketch(capacity: isFrequencyAware ? countLimit ?? 256 : 16)
        computeBudgets()
    }

    /// Whether capacity is counted in entries (else in cost).
    @inlinable
    var measuresCount: Bool { countLimit != nil || costLimit == nil }

    @inlinable
    func weight(_ entry: Entry) -> Int { measuresCount ? 1 : entry.cost }

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

    /// Changes the limits; the caller then evicts with ``evictOverflow(candidates:into:)``.
    @inlinable
    mutating func setLimits(count: Int?, cost: Int?) {
        let wasCountMeasured = measuresCount
        countLimit = count
        costLimit = cost
        computeBudgets()
        if wasCountMeasured != measuresCount {  // the segments' weights are in the other unit now
            windowWeight = 0
            protectedWeight = 0
            var entry = window.first
            while let current = entry { windowWeight += weight(current); entry = current.next }
            entry = protected.first
            while let current = entry { protectedWeight += weight(current); entry = current.next }
        }
        if isFrequencyAware, let countLimit { sketch.ensureCapacity(countLimit) }
    }

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

    // MARK: Transitions

    /// Adds a new entry as the most recently used of the window; returns how many entries left the window for
    /// probation (the candidates, at probation's most recent end).
    @inlinable
    mutating func insert(_ entry: Entry) -> Int {
        count += 1
        totalCost += entry.cost
        entry.segment = .window
        window.append(entry)
        windowWeight += weight(entry)
        guard isFrequencyAware else { return 0 }
        if countLimit == nil && !sketch.fits(count) { sketch.ensureCapacity(count * 2) }
        sketch.increment(entry.hash)
        var candidates = 0
        while windowWeight > windowMaximum, let oldest = window.first, oldest !== entry {
            window.remove(oldest)
            windowWeight -= weight(oldest)
            oldest.segment = .probation
            probation.append(oldest)
            candidates += 1
        }
        return candidates
    }

    /// Records a use of a resident entry.
    @inlinable
    mutating func recordAccess(_ entry: Entry) {
        switch entry.segment {
        case .none:
            return
        case .window:
            window.moveToEnd(entry)
        case .probation:
            probation.remove(entry)
            entry.segment = .protected
            protected.append(entry)
            protectedWeight += weight(entry)
            while protectedWeight > protectedMaximum, let oldest = protected.first, oldest !== entry {
                protected.remove(oldest)
                protectedWeight -= weight(oldest)
                oldest.segment = .probation
                probation.append(oldest)
            }
        case .protected:
            protected.moveToEnd(entry)
        }
        if isFrequencyAware { sketch.increment(entry.hash) }
    }

    /// A resident entry's cost changes to `cost`.
    @inlinable
    mutating func changeCost(of entry: Entry, to cost: Int) {
        let oldWeight = weight(entry)
        totalCost += cost - entry.cost
        entry.cost = cost
        let delta = weight(entry) - oldWeight
        switch entry.segment {
        case .window: windowWeight += delta
        case .protected: protectedWeight += delta
        case .probation, .none: break
        }
    }

    /// Takes a resident entry out of the policy (and the expiry heap).
    @inlinable
    mutating func remove(_ entry: Entry) {
        switch entry.segment {
        case .none:
            return
        case .window:
            window.remove(entry)
            windowWeight -= weight(entry)
        case .probation:
            probation.remove(entry)
        case .protected:
            protected.remove(entry)
            protectedWeight -= weight(entry)
        }
        entry.segment = .none
        expiry.remove(entry)
        count -= 1
        totalCost -= entry.cost
    }

    // MARK: Choosing victims

    /// Evicts until both limits hold, appending the evicted entries to `victims`. `candidates` is what the last
    /// ``insert(_:)`` returned (0 otherwise). - Complexity: O(evicted entries).
    @inlinable
    mutating func evictOverflow(candidates: Int, into victims: inout [Entry]) {
        var candidates = candidates
        while isOverLimit {
            let victim = probation.first ?? (isFrequencyAware ? nil : window.first)
            let candidate = candidates > 0 ? probation.last : nil
            let evicted: Entry
            if let victim, let candidate, victim !== candidate {
                if admits(candidate, over: victim) {
                    evicted = victim
                } else {
                    evicted = candidate
                    candidates -= 1
                }
            } else if let victim {
                if candidate === victim { candidates -= 1 }
                evicted = victim
            } else if let coldest = protected.first ?? window.first {
                evicted = coldest
            } else {
                return
            }
            remove(evicted)
            victims.append(evicted)
        }
    }

    /// Whether the candidate should replace the victim: it is estimated more frequent. Among frequent ties a
    /// rare random admission keeps an attacker from pinning the cache with crafted hash collisions.
    @inlinable
    mutating func admits(_ candidate: Entry, over victim: Entry) -> Bool {
        let candidateFrequency = sketch.frequency(candidate.hash)
        let victimFrequency = sketch.frequency(victim.hash)
        if candidateFrequency > victimFrequency { return true }
        guard candidateFrequency >= 6 else { return false }
        random ^= random << 13
        random ^= random >> 7
        random ^= random << 17
        return random & 127 == 0
    }

    /// Every resident entry, coldest first: probation, then the window, then protected, each least recent first.
    /// - Complexity: O(count).
    @inlinable
    func entriesColdestFirst() -> [Entry] {
        var result: [Entry] = []
        result.reserveCapacity(count)
        func appendAll(_ list: CacheEntryList<Key, Value>) {
            var entry = list.first
            while let current = entry {
                result.append(current)
                entry = current.next
            }
        }
        appendAll(probation)
        appendAll(window)
        appendAll(protected)
        return result
    }
}
