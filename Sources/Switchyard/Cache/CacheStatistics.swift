/// Counters of a ``Cache`` since it was created, read in one call to ``Cache/statistics``.
///
/// The counters of different stripes are read one stripe at a time, so under concurrent use the totals are a
/// close, not an atomic, picture; `count` and `totalCost` are exact at the moment they were read.
public struct CacheStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Lookups that found a live entry (`value(forKey:)`, and `value(forKey:orLoad:)` without loading).
    public var hits: UInt64 = 0
    /// Lookups that found nothing, or an expired entry — except callers of ``Cache/value(forKey:priority:cost:timeToLive:orLoad:)``
    /// that waited for a load another caller had started, counted in ``sharedLoadWaits``.
    public var misses: UInt64 = 0
    /// Callers of ``Cache/value(forKey:priority:cost:timeToLive:orLoad:)`` that found nothing and were served by a
    /// load another caller started (100 concurrent callers of a missing key: 1 miss, 1 load, 99 shared waits).
    public var sharedLoadWaits: UInt64 = 0
    /// Removals by reason (every reason is present, zero if none happened).
    public var removals: [CacheRemovalReason: UInt64] = Dictionary(
        uniqueKeysWithValues: CacheRemovalReason.allCases.map { ($0, 0) })
    /// Loads started by `value(forKey:orLoad:)` (coalesced callers share one).
    public var loads: UInt64 = 0
    /// Loads that threw.
    public var loadFailures: UInt64 = 0
    /// Time spent in loads, on the cache's clock.
    public var totalLoadTime: Duration = .zero
    /// Entries in the cache.
    public var count = 0
    /// Sum of the entries' costs.
    public var totalCost = 0

    /// hits / (hits + misses), or 0 before any lookup (shared load waits count as neither).
    public var hitRate: Double {
        let lookups = hits + misses
        return lookups == 0 ? 0 : Double(hits) / Double(lookups)
    }

    /// Entries evicted for the limits (the `.evicted` removals).
    public var evictions: UInt64 { removals[.evicted] ?? 0 }

    public var description: String {
        let reasons = CacheRemovalReason.allCases.map { "\($0) \(removals[$0] ?? 0)" }.joined(separator: ", ")
        return "hits \(hits), misses \(misses) (hit rate \(Int((hitRate * 100).rounded()))%), removals: \(reasons); "
            + "loads \(loads) (\(loadFailures) failed, \(totalLoadTime), \(sharedLoadWaits) shared waits); count \(count), cost \(totalCost)"
    }
}
