/// Why an entry left a ``Cache``.
public enum CacheRemovalReason: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Evicted to keep the count or cost limit, or not admitted (a new entry can lose to the entries it would
    /// replace, or cost more than the cost limit).
    case evicted
    /// Its time-to-live ran out.
    case expired
    /// Removed by ``Cache/removeValue(forKey:)`` or ``Cache/removeAll()``.
    case removed
    /// Its value was replaced by a new value for the same key.
    case replaced
    /// Dropped under memory pressure (``Cache/trim(toFraction:)``, or the memory-pressure monitor).
    case pressure

    public var description: String {
        switch self {
        case .evicted: "evicted"
        case .expired: "expired"
        case .removed: "removed"
        case .replaced: "replaced"
        case .pressure: "pressure"
        }
    }
}

/// An entry that left a ``Cache``, as told to its removal handler.
public struct CacheRemoval<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    public let key: Key
    public let value: Value
    public let cost: Int
    public let reason: CacheRemovalReason

    @usableFromInline
    init(key: Key, value: Value, cost: Int, reason: CacheRemovalReason) {
        self.key = key
        self.value = value
        self.cost = cost
        self.reason = reason
    }
}
