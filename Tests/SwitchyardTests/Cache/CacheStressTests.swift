import SwitchyardTesting
import Testing

@testable import Switchyard

/// Threads hammer one cache with random operations; checks the invariants that must hold whatever the
/// interleaving. Run under Thread Sanitizer by `.ci/run`: this is the test behind the cache's unchecked-Sendable
/// invariants (stripes, policy lock, indices, entry store, read buffers, `SpinLock`).
@Suite("Cache: concurrency stress")
struct CacheStressTests {
    @Test(
        "random operations from several threads keep the limits and never return another key's value",
        arguments: [CachePolicy.frequencyAware, .leastRecentlyUsed])
    func randomOperations(policy: CachePolicy) async {
        var seeds = SeededRandomNumberGenerator.forTest("CacheStressTests.randomOperations \(policy)")
        let removedCount = SharedCounter()
        let cache = Cache<Int, Int>(
            countLimit: 64, costLimit: 500, policy: policy, timeToLive: nil, memoryPressure: nil
        ) { removal in
            // Runs outside the locks: reading back must not deadlock.
            _ = removal.value
            removedCount.add()
        }
        let threads = 4
        let operations = 20_000
        let violations = SharedCounter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<threads {
                var random = SeededRandomNumberGenerator(seed: seeds.next())
                group.addTask {
                    for step in 0..<operations {
                        let key = Int(random.next() % 200)
                        switch random.next() % 20 {
                        case 0..<12:
                            if let value = cache.value(forKey: key), value % 1_000 != key { violations.add() }
                        case 12..<18:
                            cache.setValue(step * 1_000 + key, forKey: key, cost: Int(random.next() % 20))
                        case 18:
                            if let value = cache.removeValue(forKey: key), value % 1_000 != key { violations.add() }
                        default:
                            if step % 1_000 == 0 { cache.trim(toFraction: 0.5) } else { _ = cache.statistics }
                        }
                        if cache.count > 64 || cache.totalCost > 500 { violations.add() }
                    }
                }
            }
        }
        #expect(violations.value == 0)
        #expect(cache.count <= 64 && cache.totalCost <= 500)
        // Every entry is either still resident or was notified: count = sets admitted - removals.
        let statistics = cache.statistics
        let removals = statistics.removals.values.reduce(0, +)
        #expect(Int(removals) == removedCount.value)
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
    }

    @Test("expiring entries and whole-cache removals racing with reads keep every value with its key")
    func expiryAndRemoveAll() async {
        var seeds = SeededRandomNumberGenerator.forTest("CacheStressTests.expiryAndRemoveAll")
        let removedCount = SharedCounter()
        let cache = Cache<Int, Int>(countLimit: 40, memoryPressure: nil) { _ in removedCount.add() }
        let violations = SharedCounter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                var random = SeededRandomNumberGenerator(seed: seeds.next())
                group.addTask {
                    for step in 0..<20_000 {
                        let key = Int(random.next() % 100)
                        switch random.next() % 40 {
                        case 0..<24:
                            if let value = cache.value(forKey: key), value % 1_000 != key { violations.add() }
                        case 24..<32:
                            // Lifetimes of a few microseconds: entries expire while others read them.
                            cache.setValue(
                                step * 1_000 + key, forKey: key, timeToLive: .microseconds(Int(random.next() % 50) + 1))
                        case 32..<38:
                            cache.setValue(step * 1_000 + key, forKey: key)
                        case 38:
                            cache.removeAll()  // frees the node storage while other threads read and buffer
                        default:
                            cache.removeExpired()
                        }
                        if cache.count > 40 { violations.add() }
                    }
                }
            }
        }
        #expect(violations.value == 0)
        let removals = cache.statistics.removals.values.reduce(0, +)
        #expect(Int(removals) == removedCount.value)
        cache.removeAll()
        #expect(cache.count == 0)
    }

    /// The entry store moves to a larger buffer while readers hold only their stripe's lock: the new address is
    /// published and the old buffer freed after one pass over the stripe locks. Keys and values here are
    /// reference-counted, so a reader that used a freed buffer, or a value moved without its owner, would be
    /// caught by the sanitizers (this runs under Thread and Address Sanitizer in CI).
    @Test("readers keep finding every written entry while the entry store grows and is released")
    func readersDuringGrowth() async {
        final class Box: Sendable {
            let key: String
            init(_ key: String) { self.key = key }
        }
        let cache = Cache<String, Box>(memoryPressure: nil)
        let written = SharedCounter()  // keys "0" ..< written are in the cache
        let violations = SharedCounter()
        let rounds = 4
        let keysPerRound = 3_000
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<rounds {
                    for key in 0..<keysPerRound {
                        cache.setValue(Box("\(key)"), forKey: "\(key)")
                        written.add()
                    }
                    written.reset()
                    cache.removeAll()  // back to the smallest store; the next round grows it again
                }
            }
            for reader in 0..<3 {
                group.addTask {
                    var random = SeededRandomNumberGenerator(seed: UInt64(reader + 1))
                    for _ in 0..<40_000 {
                        let present = written.value
                        guard present > 0 else {
                            await Task.yield()
                            continue
                        }
                        let key = "\(Int(random.next() % UInt64(present)))"
                        // A `removeAll` may start after `present` was read: a miss is fine, a wrong value is not.
                        if let box = cache.value(forKey: key), box.key != key { violations.add() }
                    }
                }
            }
        }
        #expect(violations.value == 0)
    }
}
