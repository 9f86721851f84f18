/// How a ``Cache`` chooses what to evict when a limit is exceeded.
public enum CachePolicy: Sendable, Hashable, CustomStringConvertible {
    /// W-TinyLFU: a small recency window in front of a segmented LRU, with admission decided by an estimate of
    /// each key's recent frequency. Keeps frequently used entries through scans and bursts of one-time keys;
    /// on skewed workloads it hits more often than LRU. The default.
    case frequencyAware
    /// Least recently used first.
    case leastRecentlyUsed

    public var description: String {
        switch self {
        case .frequencyAware: "frequency-aware (W-TinyLFU)"
        case .leastRecentlyUsed: "LRU"
        }
    }
}
