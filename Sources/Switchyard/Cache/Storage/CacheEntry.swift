/// Which part of the eviction policy holds an entry.
@usableFromInline
enum CacheSegment: UInt8 {
    /// Not in the cache (removed, evicted, or never admitted).
    case none
    /// The admission window (frequency-aware mode), or the only list (LRU mode).
    case window
    /// Main space, seen once there: the first place victims are taken from.
    case probation
    /// Main space, accessed again while in probation.
    case protected
}

/// One cached key and value, with its place in the eviction policy.
///
/// Locking (see ``Cache``): `key` and `hash` never change. `value`, `cost`, `expiresAt` and `isDiscardable` are
/// written only while holding both the policy lock and the entry's stripe lock, so a reader holding either may
/// read them. The links, `segment` and `heapIndex` belong to the policy lock alone.
///
/// Unchecked-Sendable invariant: as stated above; entries travel between threads only inside the cache (read
/// buffers), and every field access follows the locking rule. Exercised under Thread Sanitizer by
/// `CacheStressTests`.
@usableFromInline
final class CacheEntry<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    @usableFromInline
    let key: Key
    @usableFromInline
    let hash: Int
    @usableFromInline
    @exclusivity(unchecked) var value: Value
    @usableFromInline
    @exclusivity(unchecked) var cost: Int
    /// Nanoseconds on the cache's clock after which the entry is expired; `Int64.max` when it never expires.
    @usableFromInline
    @exclusivity(unchecked) var expiresAt: Int64
    @usableFromInline
    @exclusivity(unchecked) var isDiscardable: Bool

    @usableFromInline
    @exclusivity(unchecked) var segment = CacheSegment.none
    /// Links of the policy list the entry is in. Unowned: the stripe's table owns resident entries, and an entry
    /// leaves its list before it leaves the table.
    @usableFromInline
    @exclusivity(unchecked) unowned(unsafe) var previous: CacheEntry?
    @usableFromInline
    @exclusivity(unchecked) unowned(unsafe) var next: CacheEntry?
    /// Position in the expiry heap, or -1 when the entry never expires.
    @usableFromInline
    @exclusivity(unchecked) var heapIndex = -1

    @inlinable
    init(key: Key, hash: Int, value: Value, cost: Int, expiresAt: Int64, isDiscardable: Bool) {
        self.key = key
        self.hash = hash
        self.value = value
        self.cost = cost
        self.expiresAt = expiresAt
        self.isDiscardable = isDiscardable
    }
}
