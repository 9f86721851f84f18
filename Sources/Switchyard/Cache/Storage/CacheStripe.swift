/// One stripe of a cache's table: the entries whose keys hash to it, behind their own lock, plus the reads of
/// the stripe that have not yet been applied to the eviction policy.
///
/// Readers hold only a stripe lock, so reads of different stripes never wait for each other. A read then tries
/// the policy lock without waiting; if another thread holds it, the access is buffered here (as the entry's
/// policy tag) and applied by the next thread that holds the policy lock. The buffer is bounded: when it is
/// full, further accesses are dropped (they only inform recency and frequency; limits never depend on them). A
/// buffered tag whose entry has left by the time it is applied is ignored (``EvictionPolicy/node(ofLive:)``).
///
/// Unchecked-Sendable invariant: `table`, `reads`, `hits` and `misses` are read and written only while `mutex`
/// is held. Exercised under Thread Sanitizer by `CacheStressTests`.
@usableFromInline
final class CacheStripe<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    /// The most buffered reads a stripe keeps.
    @inlinable
    static var readBufferCapacity: Int { 64 }

    @usableFromInline
    let mutex = SpinLock()
    @usableFromInline
    @exclusivity(unchecked) var table = CacheTable<Key, Value>()
    @usableFromInline
    @exclusivity(unchecked) var reads: [UInt64] = []
    @usableFromInline
    @exclusivity(unchecked) var hits: UInt64 = 0
    @usableFromInline
    @exclusivity(unchecked) var misses: UInt64 = 0

    @inlinable
    init() {}

    /// Buffers an access; returns false when the buffer is full (the access is dropped). Lock held.
    @inlinable
    func buffer(_ tag: UInt64) -> Bool {
        guard reads.count < CacheStripe.readBufferCapacity else { return false }
        if reads.isEmpty { reads.reserveCapacity(CacheStripe.readBufferCapacity) }
        reads.append(tag)
        return true
    }
}
