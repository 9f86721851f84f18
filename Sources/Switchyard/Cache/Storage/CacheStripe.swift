/// One stripe of a cache: the index of the entries whose keys hash to it, behind their own lock, plus the reads
/// of the stripe that have not yet been applied to the eviction policy. (The entries themselves live in the
/// cache's ``CacheEntryStore``; this stripe's lock guards the keys, values and expiry times of those it indexes.)
///
/// Readers hold only a stripe lock, so reads of different stripes never wait for each other. A read records its
/// access here (as the entry's policy tag) for the eviction policy:
///
/// - In frequency-aware mode always: when ``drainThreshold`` accesses are buffered, the reader *tries* the policy
///   lock and applies them all; if another thread holds it, it marks the stripe for the next write to apply. A
///   write also applies its own stripe's buffer (it holds both locks anyway).
/// - In LRU mode only when the reader's try of the policy lock fails (otherwise it applies its access at once,
///   so single-threaded LRU is exact); the next thread that holds the policy lock applies the buffer.
///
/// The buffer is bounded: when it is full, further accesses are dropped (they only inform recency and frequency;
/// limits never depend on them). A buffered tag whose entry has left by the time it is applied is ignored
/// (``EvictionPolicy/node(ofLive:)``).
///
/// The stripe also keeps a ticket for each load of ``Cache/value(forKey:priority:cost:timeToLive:orLoad:)`` in
/// flight for one of its keys: a write or removal of that key marks the ticket superseded, and a superseded load
/// does not store its value (the write that came while it ran wins).
///
/// Unchecked-Sendable invariant: `index`, the buffer `reads` points to, `readCount`, `hits`, `misses` and `loads`
/// (and the tickets' `isSuperseded`) are read and written only while `mutex` is held; `reads` itself is
/// immutable. Exercised under Thread Sanitizer by `CacheStressTests` and
/// `CacheLoadRaceTests`.
@usableFromInline
final class CacheStripe<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    /// The most buffered reads a stripe keeps.
    @inlinable
    static var readBufferCapacity: Int { 64 }

    /// Frequency-aware mode: the number of buffered reads at which a reader tries to apply them.
    @inlinable
    static var drainThreshold: Int { 16 }

    @usableFromInline
    let mutex = SpinLock()
    @usableFromInline
    @exclusivity(unchecked) var index = CacheIndex()
    /// The buffered reads: `readCount` tags, oldest first, in a buffer of ``readBufferCapacity``.
    @usableFromInline
    let reads = UnsafeMutablePointer<UInt64>.allocate(capacity: CacheStripe.readBufferCapacity)
    @usableFromInline
    @exclusivity(unchecked) var readCount = 0
    @usableFromInline
    @exclusivity(unchecked) var hits: UInt64 = 0
    @usableFromInline
    @exclusivity(unchecked) var misses: UInt64 = 0
    /// The loads in flight for keys of this stripe (usually none: writes check `isEmpty` only).
    @usableFromInline
    @exclusivity(unchecked) var loads: [Key: CacheLoadTicket] = [:]

    @inlinable
    init() {}

    deinit { reads.deallocate() }

    /// Buffers an access; returns false when the buffer is full (the access is dropped). Lock held.
    @inlinable
    func buffer(_ tag: UInt64) -> Bool {
        guard readCount < CacheStripe.readBufferCapacity else { return false }
        reads[readCount] = tag
        readCount += 1
        return true
    }

    /// Registers a load of `key` starting now; a load of the same key still in flight (one whose callers all
    /// left, still running) is superseded by it. Lock held.
    func beginLoad(of key: Key) -> CacheLoadTicket {
        let ticket = CacheLoadTicket()
        loads.updateValue(ticket, forKey: key)?.isSuperseded = true
        return ticket
    }

    /// Ends the load of `ticket`; returns whether it may store its value (nothing wrote or removed the key, and no
    /// newer load started, while it ran). Lock held.
    @usableFromInline
    func endLoad(_ ticket: CacheLoadTicket, of key: Key) -> Bool {
        if loads[key] === ticket { loads.removeValue(forKey: key) }
        return !ticket.isSuperseded
    }

    /// A write or removal of `key`: a load of it in flight must not store its (older) value. Lock held.
    @inlinable
    func supersedeLoad(of key: Key) {
        loads.removeValue(forKey: key)?.isSuperseded = true
    }

    /// Every key was removed: no load in flight may store its value. Lock held.
    func supersedeAllLoads() {
        for ticket in loads.values { ticket.isSuperseded = true }
        loads = [:]
    }
}

/// A load in flight for one key of a cache (see ``CacheStripe``).
///
/// Unchecked-Sendable invariant: `isSuperseded` is read and written only while the lock of the stripe that holds
/// the key is held. Exercised under Thread Sanitizer by `CacheLoadRaceTests`.
@usableFromInline
final class CacheLoadTicket: @unchecked Sendable {
    @usableFromInline
    @exclusivity(unchecked) var isSuperseded = false

    init() {}
}
