import Synchronization

/// A thread-safe in-memory cache with exact count and cost limits, frequency-aware eviction, time-to-live,
/// removal notifications, get-or-load with deduplication, and trimming under memory pressure.
///
/// ```swift
/// let thumbnails = Cache<URL, Image>(name: "thumbnails", costLimit: 64 << 20, cost: { $0.byteCount })
/// let image = try await thumbnails.value(forKey: url) { url in try await render(url) }  // one render per URL
/// ```
///
/// **Limits.** `countLimit` (entries) and `costLimit` (sum of the entries' costs) hold after every operation
/// returns, exactly: a write evicts before it returns. An entry that costs more than `costLimit` is never stored.
///
/// **Eviction.** ``CachePolicy/frequencyAware`` (W-TinyLFU, the default) or ``CachePolicy/leastRecentlyUsed``.
/// In frequency-aware mode a new key may be turned away if it is estimated less frequently used than the entry it
/// would replace: ``setValue(_:forKey:cost:timeToLive:isDiscardable:)`` then returns false.
///
/// **Concurrency.** Safe from any thread or task. The index is split into stripes with a lock each; a read holds
/// only its stripe's lock and buffers its use there. Frequency-aware mode applies a stripe's buffered uses in
/// batches, when the policy lock is free; LRU mode tries the policy lock on every read and buffers only when
/// another thread holds it. Either way reads never wait on each other's bookkeeping. Writes hold the policy lock
/// (then the stripe's), which is what makes the limits exact. Single-threaded, LRU mode applies every access in
/// order, so it is exact LRU.
///
/// **Notifications.** `onRemoval` is told about every entry that leaves, with the reason (evicted, expired,
/// removed, replaced, pressure), after the operation has released every lock: a handler may read and write the
/// cache. Without a `removalDelivery` it runs on the thread that caused the removal, before that call returns, in
/// removal order; with one, each operation's removals are handed to it as one batch, in order (a bulk removal: one
/// batch per chunk, see ``removalsPerHold``).
///
/// **Time-to-live.** Per entry, or `timeToLive` for all, measured on the `clock` given at creation (tests pass a
/// manual clock). An expired entry is never returned; it is removed when it is read or at the next write.
///
/// **Memory pressure.** Caches register with `memoryPressure` (``MemoryPressureMonitor/shared`` by default): on a
/// warning they shrink to `pressureTrimFraction` of their count and cost, dropping entries stored with
/// `isDiscardable: true` first; on critical pressure they empty.
///
/// `Key`'s `hash(into:)` and `==` run under the cache's locks and must not use the cache.
///
/// - Complexity: O(1) per read, write and removal (amortized: plus the evictions it causes, and O(log n) for
///   entries with a time-to-live); ``removeAll()`` and ``trim(toFraction:)`` are O(n).
///
/// Unchecked-Sendable invariant: `policy` and `removalCounts` are read and written only while `policyMutex` is
/// held; each stripe's state only while that stripe's mutex is held (see `CacheStripe`); every other stored
/// property is immutable or atomic. Entries live in the policy's `CacheEntryStore`; a reader reaches an entry
/// through its stripe's index and the store address in `publishedEntries`. An entry's key, value, expiry and
/// generation change only while both the policy lock and the lock of the stripe that indexes it are held, so a
/// reader holding the stripe lock alone sees them whole; a store that grows frees its old buffer only after taking
/// and releasing every stripe lock, so no reader still uses it. Lock order: policy, then one stripe; a thread
/// holding a stripe lock only ever *tries* the policy lock. Exercised under Thread Sanitizer (and Address
/// Sanitizer) by `CacheStressTests`. The lock-guarded stored properties here and in `CacheStripe` are
/// `@exclusivity(unchecked)`: the locks make every access exclusive, and the dynamic checks (a thread-local
/// lookup per access) cost half of a get/set.
public final class Cache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    /// The name used in `description`, in the load queue's name and in load jobs' names.
    public let name: String
    /// How victims are chosen.
    public let policyKind: CachePolicy
    /// The time-to-live of entries stored without one, or nil (they never expire).
    public let timeToLive: Duration?
    /// The fraction of count and cost kept on a memory-pressure warning.
    public let pressureTrimFraction: Double

    @usableFromInline
    let stripes: [CacheStripe<Key, Value>]
    /// `stripes`, unretained: the hot paths reach a stripe through ``withStripe(_:_:)`` without retaining it
    /// (`stripes` keeps every stripe alive for the cache's lifetime).
    @usableFromInline
    let stripeReferences: [Unmanaged<CacheStripe<Key, Value>>]
    @usableFromInline
    let stripeMask: Int
    /// Bit i set: stripe i may hold buffered reads that writers should apply (LRU mode: a read that found the
    /// policy lock busy; frequency-aware mode: a read that reached the drain threshold and found it busy).
    @usableFromInline
    let pendingStripes = Atomic<UInt64>(0)
    @usableFromInline
    let policyMutex = SpinLock()
    /// The address of the policy's entry store (``CacheEntryStore``), for readers, who hold only a stripe lock.
    /// Changed (policy lock held) when the store grows or is released.
    @usableFromInline
    let publishedEntries: Atomic<UnsafeMutableRawPointer>
    @usableFromInline
    @exclusivity(unchecked) var policy: Policy
    @usableFromInline
    @exclusivity(unchecked) var removalCounts = CacheRemovalCounts()
    /// Frequency-aware mode: reads always buffer their accesses and apply them in batches (see `CacheStripe`).
    @usableFromInline
    let buffersReads: Bool
    /// Whether operations keep what they remove until after the locks (see ``CacheChanges``): there is a removal
    /// handler, or releasing a key or value may run code.
    @usableFromInline
    let keepsRemovals: Bool
    /// Set once any entry may expire: from then on reads consult the clock.
    @usableFromInline
    let mayExpire: Atomic<Bool>
    /// Nanoseconds on the cache's clock since the cache was created.
    @usableFromInline
    let now: @Sendable () -> Int64
    @usableFromInline
    let costOf: (@Sendable (Value) -> Int)?
    @usableFromInline
    let onRemoval: (@Sendable (CacheRemoval<Key, Value>) -> Void)?
    @usableFromInline
    let removalDelivery: Delivery?
    @usableFromInline
    let loader: Coalescer<Key, Value>
    @usableFromInline
    let failureTimeToLive: Duration?
    let failures = PlatformLock(FailureTable<Key>())
    let loadCounters = PlatformLock(LoadCounters())

    /// Creates a cache.
    ///
    /// - Parameters:
    ///   - countLimit: the most entries it holds; nil for no limit.
    ///   - costLimit: the most total cost it holds; nil for no limit (then the total must stay within `Int.max`:
    ///     a write that would pass it traps). Limits above `Int.max / 2` are enforced as `Int.max / 2`.
    ///   - policy: how victims are chosen.
    ///   - timeToLive: how long entries stored without their own time-to-live stay; nil for ever.
    ///   - clock: the clock time-to-live and load times are measured on.
    ///   - cost: the cost of a value stored without an explicit cost (and of loaded values); by default 0.
    ///   - name: shown in `description`, in diagnostics, and in the name of the default load queue.
    ///   - memoryPressure: the monitor the cache registers with (weakly); nil for none.
    ///   - pressureTrimFraction: the fraction of count and cost kept on a memory-pressure warning.
    ///   - loadQueue: where `value(forKey:orLoad:)` runs loads; by default a queue of its own named
    ///     "<name> loads".
    ///   - failureTimeToLive: if set, a failed load's error is returned to callers of the same key for this long
    ///     instead of loading again.
    ///   - removalDelivery: where removal notifications run; nil to run them on the thread that caused them.
    ///   - onRemoval: told about every entry that leaves the cache, with the reason.
    public init(
        name: String = "cache", countLimit: Int? = nil, costLimit: Int? = nil,
        policy: CachePolicy = .frequencyAware, timeToLive: Duration? = nil,
        clock: some Clock<Duration> = ContinuousClock(), cost: (@Sendable (Value) -> Int)? = nil,
        memoryPressure: MemoryPressureMonitor? = .shared, pressureTrimFraction: Double = 0.5,
        loadQueue: WorkQueue? = nil, failureTimeToLive: Duration? = nil, removalDelivery: Delivery? = nil,
        onRemoval: (@Sendable (CacheRemoval<Key, Value>) -> Void)? = nil
    ) {
        precondition(countLimit.map { $0 >= 0 } ?? true, "Cache \"\(name)\": countLimit must be ≥ 0")
        precondition(costLimit.map { $0 >= 0 } ?? true, "Cache \"\(name)\": costLimit must be ≥ 0")
        precondition(timeToLive.map { $0 > .zero } ?? true, "Cache \"\(name)\": timeToLive must be > 0")
        precondition(
            (0...1).contains(pressureTrimFraction), "Cache \"\(name)\": pressureTrimFraction must be in 0...1")
        self.name = name
        policyKind = policy
        self.timeToLive = timeToLive
        self.pressureTrimFraction = pressureTrimFraction
        var stripeCount = 1
        while stripeCount < min(64, 4 * activeProcessorCount()) { stripeCount <<= 1 }
        stripes = (0..<stripeCount).map { _ in CacheStripe() }
        stripeReferences = stripes.map { Unmanaged.passUnretained($0) }
        stripeMask = stripeCount - 1
        self.policy = Policy(
            isFrequencyAware: policy == .frequencyAware, countLimit: countLimit, costLimit: costLimit)
        publishedEntries = Atomic(self.policy.nodes.base)
        mayExpire = Atomic(timeToLive != nil)
        let origin = clock.now
        now = { Cache.nanoseconds(origin.duration(to: clock.now)) }
        costOf = cost
        self.onRemoval = onRemoval
        buffersReads = policy == .frequencyAware
        keepsRemovals = onRemoval != nil || !_isPOD(Key.self) || !_isPOD(Value.self)
        self.removalDelivery = removalDelivery
        loader = Coalescer(queue: loadQueue ?? WorkQueue(name: "\(name) loads"), name: name)
        self.failureTimeToLive = failureTimeToLive
        memoryPressure?.register(self)
    }

    @usableFromInline
    typealias Policy = EvictionPolicy<Key, Value>

    /// The limit on entries, or nil.
    public var countLimit: Int? { withPolicy { $0.countLimit } }
    /// The limit on total cost as enforced (at most `Int.max / 2`), or nil.
    public var costLimit: Int? { withPolicy { $0.costLimit } }
    /// The number of entries (expired ones included until they are removed). - Complexity: O(1).
    public var count: Int { withPolicy { $0.count } }
    /// The sum of the entries' costs. - Complexity: O(1).
    public var totalCost: Int { withPolicy { $0.totalCost } }

    /// Changes the limits; entries whose time-to-live has run out are removed first (as `.expired`), then entries
    /// are evicted (and notified) before this returns until both hold. A large reduction removes entries in chunks
    /// (see ``removalsPerHold``). - Complexity: O(removed entries).
    public func setLimits(count countLimit: Int?, cost costLimit: Int?) {
        precondition(countLimit.map { $0 >= 0 } ?? true, "Cache \"\(name)\": countLimit must be ≥ 0")
        precondition(costLimit.map { $0 >= 0 } ?? true, "Cache \"\(name)\": costLimit must be ≥ 0")
        applyLimits(count: countLimit, cost: costLimit)
    }

    /// Counters since creation. - Complexity: O(stripes).
    public var statistics: CacheStatistics {
        var result = CacheStatistics()
        for stripe in stripes {
            stripe.mutex.lock()
            result.hits += stripe.hits
            result.misses += stripe.misses
            stripe.mutex.unlock()
        }
        withPolicy { policy in
            for reason in CacheRemovalReason.allCases { result.removals[reason] = removalCounts[reason] }
            result.count = policy.count
            result.totalCost = policy.totalCost
        }
        loadCounters.withLock { counters in
            result.loads = counters.loads
            result.sharedLoadWaits = counters.waits > counters.jobs ? counters.waits - counters.jobs : 0
            result.loadFailures = counters.failures
            result.totalLoadTime = .nanoseconds(counters.nanoseconds)
        }
        // Each of those callers missed on its way to the loader: counted as a shared wait, not as a miss.
        result.misses -= min(result.misses, result.sharedLoadWaits)
        return result
    }

    /// Calls `body` with stripe `index`, without retaining it. - Complexity: O(1).
    @inlinable @inline(__always)
    func withStripe<Result>(_ index: Int, _ body: (CacheStripe<Key, Value>) -> Result) -> Result {
        stripeReferences[index]._withUnsafeGuaranteedRef(body)
    }

    @inlinable
    func withPolicy<Result>(_ body: (borrowing Policy) -> Result) -> Result {
        policyMutex.lock()
        defer { policyMutex.unlock() }
        return body(policy)
    }

    /// The expiry time of an entry stored at `time` with `lifetime`; `.max` (never) when that is past the end of
    /// `Int64` nanoseconds (about 292 years).
    @inlinable
    static func expiry(after lifetime: Duration, from time: Int64) -> Int64 {
        let (sum, overflow) = time.addingReportingOverflow(nanoseconds(lifetime))
        return overflow ? .max : sum
    }

    /// `fraction` (in 0...1) of `amount`, rounded down, without trapping when the product rounds up past `Int.max`.
    @inlinable
    static func scaled(_ amount: Int, by fraction: Double) -> Int {
        if fraction >= 1 { return amount }
        let product = Double(amount) * fraction
        return product >= Double(Int.max) ? amount : Int(product)
    }

    @inlinable
    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).overflow
            ? .max
            : scaled + attoseconds / 1_000_000_000
    }
}

extension Cache: CustomStringConvertible {
    /// One line: name, policy, count and cost against their limits, hit rate.
    public var description: String {
        let statistics = self.statistics
        let limits = withPolicy { ($0.countLimit, $0.costLimit) }
        let countText = limits.0.map { "\(statistics.count)/\($0)" } ?? "\(statistics.count)"
        let costText = limits.1.map { "\(statistics.totalCost)/\($0)" } ?? "\(statistics.totalCost)"
        return "Cache \"\(name)\" (\(policyKind)): \(countText) entries, cost \(costText), "
            + "hit rate \(Int((statistics.hitRate * 100).rounded()))%"
    }
}

/// Load counters of a cache. Guarded by its `loadCounters` lock.
@usableFromInline
struct LoadCounters {
    @usableFromInline
    var loads: UInt64 = 0
    @usableFromInline
    var failures: UInt64 = 0
    @usableFromInline
    var nanoseconds: Int64 = 0
    /// Callers of `value(forKey:orLoad:)` that went to the loader, and the load jobs that ran for them: the
    /// difference is the callers that waited for a load another caller started.
    var waits: UInt64 = 0
    var jobs: UInt64 = 0
}
