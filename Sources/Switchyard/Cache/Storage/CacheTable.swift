/// One stripe's entries: an open-addressing hash table (linear probing, at most half full) whose buckets index a
/// dense array of slots (key, value, hash, expiry, policy tag).
///
/// No object per entry: keys and values live inline in the slots, so storing and evicting allocate nothing once
/// the arrays have grown, and nothing is reference-counted but the keys and values themselves. A bucket holds
/// the top 32 bits of its entry's hash beside the slot index, so a probe compares keys only on a likely match,
/// and a miss never touches the slots. A removal moves the last slot into the hole, so the slots stay dense.
///
/// Guarded by its stripe's lock (see ``CacheStripe``). - Complexity: O(1) expected per lookup, insertion and
/// removal (probe sequences stay short at load ≤ ½); growing is O(count), amortized O(1).
@usableFromInline
struct CacheTable<Key: Hashable & Sendable, Value: Sendable>: ~Copyable {
    /// One entry of the table.
    @usableFromInline
    struct Slot {
        @usableFromInline
        var hash: Int
        /// The entry's node in the eviction policy (see ``EvictionPolicy/tag(of:)``).
        @usableFromInline
        var tag: UInt64
        /// Nanoseconds on the cache's clock after which the entry is expired; `Int64.max` when it never expires.
        @usableFromInline
        var expiresAt: Int64
        @usableFromInline
        var key: Key
        @usableFromInline
        var value: Value

        @inlinable
        init(hash: Int, tag: UInt64, expiresAt: Int64, key: Key, value: Value) {
            self.hash = hash
            self.tag = tag
            self.expiresAt = expiresAt
            self.key = key
            self.value = value
        }
    }

    /// Per bucket: 0 when empty, else the top 32 bits of the entry's hash (high half) and its slot index + 1
    /// (low half). The count is a power of two.
    @usableFromInline
    var buckets: CacheBuffer<UInt64>
    /// 64 − log2(bucket count): a bucket's home is the top bits of the Fibonacci product of its hash's top half.
    @usableFromInline
    var shift: UInt64
    @usableFromInline
    var slots = CacheBuffer<Slot>()

    @inlinable
    init() {
        buckets = CacheBuffer(repeating: 0, count: 8)
        shift = 64 - 3
    }

    @inlinable
    var count: Int { slots.count }

    /// The high half of a bucket word for `hash`.
    @inlinable
    static func fragment(_ hash: Int) -> UInt64 { UInt64(bitPattern: Int64(hash)) & 0xFFFF_FFFF_0000_0000 }

    /// The home bucket of an entry whose bucket word has high half `fragment`.
    @inlinable
    func home(_ fragment: UInt64) -> Int {
        Int(truncatingIfNeeded: ((fragment &>> 32) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    /// The slot index of `key`, or nil.
    @inlinable @inline(__always)
    func find(_ key: Key, hash: Int) -> Int? {
        firstSlot(hash: hash) { slots[$0].key == key }
    }

    /// Probes from the home bucket of `hash` for the first slot index with that hash's fragment that `matches`;
    /// nil at the first empty bucket.
    @inlinable @inline(__always)
    func firstSlot(hash: Int, where matches: (Int) -> Bool) -> Int? {
        firstEntry(hash: hash, where: matches)?.slot
    }

    /// ``firstSlot(hash:where:)``, with the bucket that holds the slot.
    @inlinable @inline(__always)
    func firstEntry(hash: Int, where matches: (Int) -> Bool) -> (bucket: Int, slot: Int)? {
        let fragment = CacheTable.fragment(hash)
        let mask = buckets.count - 1
        var bucket = home(fragment)
        while true {
            let word = buckets[bucket]
            if word == 0 { return nil }
            if word & 0xFFFF_FFFF_0000_0000 == fragment {
                let index = Int(truncatingIfNeeded: word & 0xFFFF_FFFF) - 1
                if matches(index) { return (bucket, index) }
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// Removes the entry with policy tag `tag` (and hash `hash`) and returns its key and value, or nil if there is
    /// none. One probe finds both its slot and its bucket.
    @inlinable
    mutating func remove(tag: UInt64, hash: Int) -> (key: Key, value: Value)? {
        guard let (bucket, slot) = firstEntry(hash: hash, where: { slots[$0].tag == tag }) else { return nil }
        return remove(at: slot, bucket: bucket)
    }

    /// Adds an entry for a key that is not in the table.
    @inlinable
    mutating func insert(key: Key, hash: Int, value: Value, expiresAt: Int64, tag: UInt64) {
        precondition(slots.count < Int(UInt32.max - 1), "Cache: more than 2^32 - 2 entries in one stripe")
        if (slots.count + 1) * 2 > buckets.count { resize(to: buckets.count * 2) }
        slots.append(Slot(hash: hash, tag: tag, expiresAt: expiresAt, key: key, value: value))
        place(slots.count - 1)
    }

    /// Removes the entry at slot `index` and returns its key and value. The last slot takes its place.
    @inlinable
    mutating func remove(at index: Int) -> (key: Key, value: Value) {
        remove(at: index, bucket: bucket(holding: index))
    }

    /// ``remove(at:)`` when the bucket holding slot `index` is known.
    @inlinable
    mutating func remove(at index: Int, bucket holder: Int) -> (key: Key, value: Value) {
        vacate(holder)
        let last = slots.count - 1
        if index != last {
            buckets[bucket(holding: last)] = CacheTable.fragment(slots[last].hash) | UInt64(index + 1)
            slots.swapAt(index, last)
        }
        let removed = slots.removeLast()
        return (removed.key, removed.value)
    }

    /// Empties the table and gives back its memory.
    @inlinable
    mutating func removeAll() {
        self = CacheTable()
    }

    // MARK: Buckets

    /// Puts slot `index` in the first empty bucket from its home.
    @inlinable
    mutating func place(_ index: Int) {
        let fragment = CacheTable.fragment(slots[index].hash)
        let mask = buckets.count - 1
        var bucket = home(fragment)
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = fragment | UInt64(index + 1)
    }

    /// The bucket that holds slot `index`.
    @inlinable
    func bucket(holding index: Int) -> Int {
        let fragment = CacheTable.fragment(slots[index].hash)
        let word = fragment | UInt64(index + 1)
        let mask = buckets.count - 1
        var bucket = home(fragment)
        while buckets[bucket] != word { bucket = (bucket + 1) & mask }
        return bucket
    }

    /// Empties `bucket`, shifting later members of its probe run back so every lookup still finds its entry
    /// (no tombstones).
    @inlinable
    mutating func vacate(_ bucket: Int) {
        let mask = buckets.count - 1
        var hole = bucket
        var current = bucket
        buckets[hole] = 0
        while true {
            current = (current + 1) & mask
            let word = buckets[current]
            if word == 0 { return }
            // The entry may move back to the hole unless its home lies cyclically in (hole, current].
            let home = self.home(word & 0xFFFF_FFFF_0000_0000)
            let staysPut = hole <= current ? (hole < home && home <= current) : (hole < home || home <= current)
            if !staysPut {
                buckets[hole] = word
                buckets[current] = 0
                hole = current
            }
        }
    }

    @inlinable
    mutating func resize(to bucketCount: Int) {
        buckets = CacheBuffer(repeating: 0, count: bucketCount)
        shift = UInt64(64 - bucketCount.trailingZeroBitCount)
        for index in slots.indices { place(index) }
    }
}
