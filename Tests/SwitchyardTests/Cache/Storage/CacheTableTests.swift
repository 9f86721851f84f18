@testable import Switchyard
import SwitchyardTesting
import Testing

/// `CacheTable` (one stripe's open-addressing table) against a `Dictionary`, with hashes chosen to collide so
/// that probe runs, wrap-around at the end of the buckets and backward-shift removal are all exercised.
@Suite("CacheTable: open addressing with dense slots")
struct CacheTableTests {
    @Test("random inserts and removals agree with a dictionary after every step")
    func againstDictionary() {
        var random = SeededRandomNumberGenerator.forTest("CacheTableTests.againstDictionary")
        for hashBits in [2, 5, 64] {  // few distinct hashes (long collision runs) up to full hashes
            var table = CacheTable<Int, String>()
            var model: [Int: String] = [:]
            for step in 0..<4_000 {
                let key = Int(random.next() % 300)
                let hash = CacheTableTests.hash(key, bits: hashBits)
                if random.next() % 3 == 0, let slot = table.find(key, hash: hash) {
                    // Both ways in: by slot (a removal by key) and by tag (an eviction), one probe each.
                    let removed = step % 2 == 0 ? table.remove(at: slot) : table.remove(tag: UInt64(key), hash: hash)!
                    #expect(removed.key == key && removed.value == model[key])
                    model[key] = nil
                } else if table.find(key, hash: hash) == nil {
                    table.insert(key: key, hash: hash, value: "\(key)@\(step)", expiresAt: .max, tag: UInt64(key))
                    model[key] = "\(key)@\(step)"
                }
                #expect(table.count == model.count)
                if step % 97 == 0 || (hashBits == 2 && step % 13 == 0) {
                    for probe in 0..<300 {
                        let slot = table.find(probe, hash: CacheTableTests.hash(probe, bits: hashBits))
                        #expect(slot.map { table.slots[$0].value } == model[probe], "key \(probe), step \(step)")
                        if let slot {
                            let byTag = table.firstSlot(hash: table.slots[slot].hash) { table.slots[$0].tag == UInt64(probe) }
                            #expect(byTag == slot)
                        }
                    }
                }
            }
        }
    }

    /// A hash of `key` with only `bits` bits of entropy, spread over the whole word (the table's home bucket
    /// uses the top half, stripes the bottom).
    static func hash(_ key: Int, bits: Int) -> Int {
        let reduced = bits >= 64 ? UInt64(truncatingIfNeeded: key) : UInt64(truncatingIfNeeded: key) & ((1 << bits) - 1)
        return Int(truncatingIfNeeded: FrequencySketch.mix(Int(truncatingIfNeeded: reduced)))
    }
}
