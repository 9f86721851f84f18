/// One stripe's index: an open-addressing hash table (linear probing, at most half full) from a key's hash to the
/// index of its entry in the cache's ``CacheEntryStore``.
///
/// A bucket is one 64-bit word: the top 32 bits of the entry's hash beside its entry index + 1 (0 is empty). So a
/// probe compares keys only on a likely match, a miss never touches an entry, and removing an entry whose index
/// and hash are known touches nothing but buckets. Growing rehomes the words from their hash bits alone.
///
/// Guarded by its stripe's lock (see ``CacheStripe``). - Complexity: O(1) expected per lookup, insertion and
/// removal (probe runs stay short at load ≤ ½, and removal shifts back the rest of its run, leaving no
/// tombstones); growing is O(count), amortized O(1).
@usableFromInline
struct CacheIndex: ~Copyable {
    @usableFromInline
    var buckets: CacheBuffer<UInt64>
    /// 64 − log2(bucket count): a word's home is the top bits of the Fibonacci product of its hash bits.
    @usableFromInline
    var shift: UInt64
    @usableFromInline
    private(set) var count = 0

    @inlinable
    init() {
        buckets = CacheBuffer(repeating: 0, count: 8)
        shift = 64 - 3
    }

    /// The high half of a bucket word for `hash`.
    @inlinable @inline(__always)
    static func fragment(_ hash: Int) -> UInt64 { UInt64(bitPattern: Int64(hash)) & 0xFFFF_FFFF_0000_0000 }

    /// The bucket word of entry `entry` with hash `hash`.
    @inlinable @inline(__always)
    static func word(entry: Int, hash: Int) -> UInt64 { fragment(hash) | UInt64(truncatingIfNeeded: entry + 1) }

    /// The home bucket of a word whose high half is `fragment`.
    @inlinable @inline(__always)
    func home(_ fragment: UInt64) -> Int {
        Int(truncatingIfNeeded: ((fragment &>> 32) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    /// The first entry with `hash`'s fragment that `matches`, probing from its home; nil at the first empty bucket.
    @inlinable @inline(__always)
    func find(hash: Int, where matches: (Int) -> Bool) -> Int? {
        let fragment = CacheIndex.fragment(hash)
        let mask = buckets.count &- 1
        var bucket = home(fragment)
        while true {
            let word = buckets[bucket]
            if word == 0 { return nil }
            if word & 0xFFFF_FFFF_0000_0000 == fragment {
                let entry = Int(truncatingIfNeeded: word & 0xFFFF_FFFF) &- 1
                if matches(entry) { return entry }
            }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// Adds entry `entry`, with hash `hash`, which is not in the index.
    @inlinable
    mutating func insert(entry: Int, hash: Int) {
        if (count + 1) * 2 > buckets.count { resize(to: buckets.count * 2) }
        place(CacheIndex.word(entry: entry, hash: hash))
        count += 1
    }

    /// Removes entry `entry`, with hash `hash`, which is in the index.
    @inlinable
    mutating func remove(entry: Int, hash: Int) {
        let word = CacheIndex.word(entry: entry, hash: hash)
        let mask = buckets.count &- 1
        var bucket = home(word & 0xFFFF_FFFF_0000_0000)
        while buckets[bucket] != word {
            precondition(buckets[bucket] != 0, "Cache: an entry is missing from its stripe's index")
            bucket = (bucket &+ 1) & mask
        }
        vacate(bucket)
        count -= 1
    }

    /// Empties the index and gives back its memory.
    @inlinable
    mutating func removeAll() {
        self = CacheIndex()
    }

    /// Puts `word` in the first empty bucket from its home.
    @inlinable
    mutating func place(_ word: UInt64) {
        let mask = buckets.count &- 1
        var bucket = home(word & 0xFFFF_FFFF_0000_0000)
        while buckets[bucket] != 0 { bucket = (bucket &+ 1) & mask }
        buckets[bucket] = word
    }

    /// Empties `bucket`, shifting later members of its probe run back so every lookup still finds its entry.
    @inlinable
    mutating func vacate(_ bucket: Int) {
        let mask = buckets.count &- 1
        var hole = bucket
        var current = bucket
        buckets[hole] = 0
        while true {
            current = (current &+ 1) & mask
            let word = buckets[current]
            if word == 0 { return }
            // The word may move back to the hole unless its home lies cyclically in (hole, current].
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
        precondition(bucketCount <= 1 << 33, "Cache: more than 2^32 entries in one stripe")
        var old = CacheBuffer<UInt64>(repeating: 0, count: bucketCount)
        swap(&old, &buckets)
        shift = UInt64(64 - bucketCount.trailingZeroBitCount)
        for bucket in old.indices where old[bucket] != 0 { place(old[bucket]) }
    }
}
