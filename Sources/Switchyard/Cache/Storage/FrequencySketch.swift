/// A count-min sketch of 4-bit counters that estimates how often each key was seen recently: the "TinyLFU"
/// admission filter of the frequency-aware policy.
///
/// Each key maps to four counters, all in one 64-byte block of the table of 64-bit words (16 counters per word;
/// each row picks one word of its pair in the block), so an update touches one cache line; its estimate is the
/// smallest of the four, so collisions can only overestimate. Counters saturate at 15. After `sampleSize`
/// increments every counter is halved ("aging"), so the sketch follows popularity that shifts over time instead
/// of remembering the distant past forever.
///
/// Guarded by the cache's policy lock. - Complexity: O(1) per `increment` and `frequency`; an aging pass is
/// O(table size) once every `sampleSize` increments, so O(1) amortized.
@usableFromInline
struct FrequencySketch: ~Copyable {
    @usableFromInline
    var table: CacheBuffer<UInt64>
    @usableFromInline
    var mask: Int
    @usableFromInline
    var sampleSize: Int
    @usableFromInline
    var additions = 0

    /// The most keys a sketch is sized for (a table of 512 MiB); larger caches share counters more.
    @inlinable
    static var maximumCapacity: Int { 1 << 26 }

    /// The most keys a sketch is sized for before the cache holds them (512 KiB of counters): a larger count
    /// limit starts here and the sketch doubles as the entries outgrow it (its counters start over each time).
    @inlinable
    static var initialCapacityLimit: Int { 1 << 16 }

    /// A sketch sized for about `capacity` distinct keys (at most ``maximumCapacity``).
    @inlinable
    init(capacity: Int) {
        let capacity = max(16, min(capacity, FrequencySketch.maximumCapacity))
        let words = FrequencySketch.tableSize(for: capacity)
        table = CacheBuffer(repeating: 0, count: words)
        mask = words - 1
        sampleSize = 10 * capacity
    }

    /// Whether the sketch is sized for at least `capacity` keys (or is as large as it gets). - Complexity: O(1).
    @inlinable
    func fits(_ capacity: Int) -> Bool {
        capacity <= table.count || table.count >= FrequencySketch.maximumCapacity
    }

    @inlinable
    static func tableSize(for capacity: Int) -> Int {
        let wanted = max(16, min(capacity, maximumCapacity))
        var size = 1
        while size < wanted { size <<= 1 }
        return size
    }

    /// Grows the table when the cache holds many more keys than it was sized for (the counters start over).
    @inlinable
    mutating func ensureCapacity(_ capacity: Int) {
        guard !fits(capacity) else { return }
        self = FrequencySketch(capacity: capacity)
    }

    /// Counts one occurrence of the key with this hash.
    @inlinable
    mutating func increment(_ hash: Int) {
        let mixed = FrequencySketch.mix(hash)
        let block = table.base + FrequencySketch.block(mixed, mask)
        // The four rows written out: a loop over them compiled to twice the instructions, with range checks.
        var added = FrequencySketch.bump(block, row: 0, mixed)
        added = FrequencySketch.bump(block, row: 1, mixed) || added
        added = FrequencySketch.bump(block, row: 2, mixed) || added
        added = FrequencySketch.bump(block, row: 3, mixed) || added
        guard added else { return }
        additions &+= 1
        if additions >= sampleSize { age() }
    }

    /// Adds one to row `row`'s counter in `block` unless it is saturated; says whether it did.
    @inlinable @inline(__always)
    static func bump(_ block: UnsafeMutablePointer<UInt64>, row: UInt64, _ mixed: UInt64) -> Bool {
        let (word, shift) = counter(row, of: mixed)
        let value = block[word]
        guard (value &>> shift) & 0xF != 0xF else { return false }
        block[word] = value &+ (1 &<< shift)
        return true
    }

    /// The estimated recent count of the key with this hash, 0...15.
    @inlinable
    func frequency(_ hash: Int) -> Int {
        let mixed = FrequencySketch.mix(hash)
        let block = table.base + FrequencySketch.block(mixed, mask)
        var result = FrequencySketch.read(block, row: 0, mixed)
        result = min(result, FrequencySketch.read(block, row: 1, mixed))
        result = min(result, FrequencySketch.read(block, row: 2, mixed))
        result = min(result, FrequencySketch.read(block, row: 3, mixed))
        return Int(truncatingIfNeeded: result)
    }

    /// Row `row`'s counter in `block`.
    @inlinable @inline(__always)
    static func read(_ block: UnsafeMutablePointer<UInt64>, row: UInt64, _ mixed: UInt64) -> UInt64 {
        let (word, shift) = counter(row, of: mixed)
        return (block[word] &>> shift) & 0xF
    }

    /// The first word of the key's block: eight words (one 64-byte line) that hold all four of its counters, so
    /// an update touches one cache line rather than four.
    @inlinable
    static func block(_ mixed: UInt64, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: mixed &>> 32) & mask & ~7
    }

    /// Row `row`'s counter: one word of the row's pair in the block (an offset from the block's first word), and
    /// one of its 16 counters (a bit shift).
    @inlinable @inline(__always)
    static func counter(_ row: UInt64, of mixed: UInt64) -> (word: Int, shift: UInt64) {
        let word = Int(truncatingIfNeeded: row &* 2 &+ ((mixed &>> row) & 1))
        let shift = ((mixed &>> (8 &+ row &* 4)) & 0xF) &<< 2
        return (word, shift)
    }

    /// Halves every counter.
    @inlinable
    mutating func age() {
        for index in table.indices { table[index] = (table[index] &>> 1) & 0x7777_7777_7777_7777 }
        additions /= 2
    }

    /// `hash` spread over 64 bits (a Fibonacci multiply, then the high half folded into the low one): keys whose
    /// hashes differ in a few bits land in unrelated blocks and counters. `hashValue` is usually the standard
    /// library's seeded SipHash already; this only guards against a type that computes a weak one itself. (A
    /// full SplitMix64 finalizer here cost 5% of a read-through operation, for the same hit rates.)
    @inlinable
    static func mix(_ hash: Int) -> UInt64 {
        let x = UInt64(bitPattern: Int64(hash)) &* 0x9E37_79B9_7F4A_7C15
        return x ^ (x &>> 29)
    }
}
