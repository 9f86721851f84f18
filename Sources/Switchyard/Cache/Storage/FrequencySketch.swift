/// A count-min sketch of 4-bit counters that estimates how often each key was seen recently: the "TinyLFU"
/// admission filter of the frequency-aware policy.
///
/// Each key maps to four counters (double hashing over one table of 64-bit words, 16 counters per word); its
/// estimate is the smallest of them, so collisions can only overestimate. Counters saturate at 15. After
/// `sampleSize` increments every counter is halved ("aging"), so the sketch follows popularity that shifts over
/// time instead of remembering the distant past forever.
///
/// Guarded by the cache's policy lock. - Complexity: O(1) per `increment` and `frequency`; an aging pass is
/// O(table size) once every `sampleSize` increments, so O(1) amortized.
@usableFromInline
struct FrequencySketch {
    @usableFromInline
    var table: [UInt64]
    @usableFromInline
    var mask: Int
    @usableFromInline
    var sampleSize: Int
    @usableFromInline
    var additions = 0

    /// A sketch sized for about `capacity` distinct keys.
    @inlinable
    init(capacity: Int) {
        let words = FrequencySketch.tableSize(for: capacity)
        table = Array(repeating: 0, count: words)
        mask = words - 1
        sampleSize = 10 * max(capacity, 16)
    }

    /// Whether the sketch is sized for at least `capacity` keys.
    @inlinable
    func fits(_ capacity: Int) -> Bool { FrequencySketch.tableSize(for: capacity) <= table.count }

    @inlinable
    static func tableSize(for capacity: Int) -> Int {
        let wanted = max(16, min(capacity, 1 << 26))
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
        let (first, step) = FrequencySketch.hashes(hash)
        var added = false
        for row in 0..<4 {
            let combined = first &+ UInt64(row) &* step
            let index = Int(truncatingIfNeeded: combined >> 32) & mask
            let shift = (combined >> 60) << 2  // one of 16 counters in the word
            if (table[index] >> shift) & 0xF < 0xF {
                table[index] &+= 1 << shift
                added = true
            }
        }
        guard added else { return }
        additions += 1
        if additions >= sampleSize { age() }
    }

    /// The estimated recent count of the key with this hash, 0...15.
    @inlinable
    func frequency(_ hash: Int) -> Int {
        let (first, step) = FrequencySketch.hashes(hash)
        var result: UInt64 = 0xF
        for row in 0..<4 {
            let combined = first &+ UInt64(row) &* step
            let index = Int(truncatingIfNeeded: combined >> 32) & mask
            let shift = (combined >> 60) << 2
            result = min(result, (table[index] >> shift) & 0xF)
        }
        return Int(result)
    }

    /// Halves every counter.
    @inlinable
    mutating func age() {
        for index in table.indices { table[index] = (table[index] >> 1) & 0x7777_7777_7777_7777 }
        additions /= 2
    }

    /// Two independent 64-bit hashes of `hash` (SplitMix64 finalizers), the second odd.
    @inlinable
    static func hashes(_ hash: Int) -> (UInt64, UInt64) {
        var x = UInt64(bitPattern: Int64(hash))
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        x ^= x >> 31
        var y = x &+ 0x9E37_79B9_7F4A_7C15
        y = (y ^ (y >> 30)) &* 0xBF58_476D_1CE4_E5B9
        y = (y ^ (y >> 27)) &* 0x94D0_49BB_1331_11EB
        y ^= y >> 31
        return (x, y | 1)
    }
}
