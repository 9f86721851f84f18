import SwitchyardTesting
import Testing

@testable import Switchyard

/// Randomized operations checked after every step against a reference model.
@Suite("Cache: limits and contents against a reference model")
struct CacheModelTests {
    /// An exact LRU model with count and cost limits (O(n) per operation: small and obviously right).
    struct LRUModel {
        var entries: [(key: Int, value: Int, cost: Int)] = []  // least recent first
        let countLimit: Int?
        let costLimit: Int?
        var totalCost: Int { entries.reduce(0) { $0 + $1.cost } }

        mutating func get(_ key: Int) -> Int? {
            guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return entry.value
        }

        /// Returns the removals it causes, in order.
        mutating func set(_ key: Int, _ value: Int, cost: Int) -> [(Int, Int, CacheRemovalReason)] {
            var removed: [(Int, Int, CacheRemovalReason)] = []
            if let index = entries.firstIndex(where: { $0.key == key }) {
                removed.append((key, entries[index].value, .replaced))
                entries.remove(at: index)
            }
            if let costLimit, cost > costLimit { return removed + [(key, value, .evicted)] }
            entries.append((key, value, cost))
            while (countLimit.map { entries.count > $0 } ?? false) || (costLimit.map { totalCost > $0 } ?? false) {
                let victim = entries.removeFirst()
                removed.append((victim.key, victim.value, .evicted))
            }
            return removed
        }

        mutating func remove(_ key: Int) -> Int? {
            guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
            return entries.remove(at: index).value
        }
    }

    @Test(
        "LRU mode matches an exact LRU model after every operation, removals included",
        arguments: [
            (Optional(8), Optional<Int>.none), (nil, 40), (6, 30),
        ])
    func lruMatchesModel(countLimit: Int?, costLimit: Int?) {
        var random = SeededRandomNumberGenerator.forTest(
            "CacheModelTests.lru \(String(describing: countLimit)) \(String(describing: costLimit))")
        let removals = Log<(Int, Int, CacheRemovalReason)>()
        let cache = Cache<Int, Int>(
            countLimit: countLimit, costLimit: costLimit, policy: .leastRecentlyUsed, memoryPressure: nil
        ) { removals.append(($0.key, $0.value, $0.reason)) }
        var model = LRUModel(countLimit: countLimit, costLimit: costLimit)
        var expectedRemovals: [(Int, Int, CacheRemovalReason)] = []
        for step in 0..<3_000 {
            let key = Int.random(in: 0..<20, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                #expect(cache.value(forKey: key) == model.get(key), "step \(step): get \(key)")
            case 5..<9:
                let value = step
                let cost = Int.random(in: 0...12, using: &random)
                let stored = cache.setValue(value, forKey: key, cost: cost)
                let removed = model.set(key, value, cost: cost)
                expectedRemovals += removed
                #expect(stored == !removed.contains { $0.0 == key && $0.1 == value }, "step \(step)")
            default:
                let removed = cache.removeValue(forKey: key)
                let expected = model.remove(key)
                #expect(removed == expected, "step \(step): remove \(key)")
                if let expected { expectedRemovals.append((key, expected, .removed)) }
            }
            #expect(cache.count == model.entries.count, "step \(step)")
            #expect(cache.totalCost == model.totalCost, "step \(step)")
            if let countLimit { #expect(cache.count <= countLimit) }
            if let costLimit { #expect(cache.totalCost <= costLimit) }
        }
        let actual = removals.all
        #expect(actual.count == expectedRemovals.count)
        for (index, (a, e)) in zip(actual, expectedRemovals).enumerated() {
            #expect(a.0 == e.0 && a.1 == e.1 && a.2 == e.2, "removal \(index): \(a) vs \(e)")
        }
    }

    @Test(
        "frequency-aware mode: limits exact, values never stale, every entry accounted for",
        arguments: [
            (Optional(50), Optional<Int>.none), (nil, 300), (40, 250),
        ])
    func frequencyAwareKeepsLimitsAndAccounts(countLimit: Int?, costLimit: Int?) {
        var random = SeededRandomNumberGenerator.forTest(
            "CacheModelTests.tinylfu \(String(describing: countLimit)) \(String(describing: costLimit))")
        let removals = Log<CacheRemoval<Int, Int>>()
        let cache = Cache<Int, Int>(countLimit: countLimit, costLimit: costLimit, memoryPressure: nil) {
            removals.append($0)
        }
        // What the cache may hold: the last value written for each key, with its cost, unless it was removed.
        var written: [Int: (value: Int, cost: Int)] = [:]
        var resident: [Int: (value: Int, cost: Int)] = [:]
        var seenRemovals = 0
        for step in 0..<20_000 {
            let key = Int(Double(200) * pow(random.nextUnit(), 2))  // skewed: low keys are popular
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6:
                let value = cache.value(forKey: key)
                #expect(value == resident[key]?.value, "step \(step): get \(key)")
            case 6..<9:
                let cost = Int.random(in: 0...15, using: &random)
                written[key] = (step, cost)
                resident[key] = (step, cost)
                cache.setValue(step, forKey: key, cost: cost)
            default:
                #expect(cache.removeValue(forKey: key) == resident[key]?.value)
            }
            // Apply the notifications: each names a value that was resident (or the value just written).
            let all = removals.all
            for removal in all[seenRemovals...] {
                if let current = resident[removal.key], current.value == removal.value {
                    resident[removal.key] = nil
                } else {
                    #expect(
                        removal.reason == .replaced || written[removal.key]?.value == removal.value,
                        "step \(step): unexpected removal \(removal.key)=\(removal.value) \(removal.reason)")
                }
            }
            seenRemovals = all.count
            #expect(cache.count == resident.count, "step \(step): count")
            #expect(cache.totalCost == resident.values.reduce(0) { $0 + $1.cost }, "step \(step): cost")
            if let countLimit { #expect(cache.count <= countLimit) }
            if let costLimit { #expect(cache.totalCost <= costLimit) }
        }
        for (key, entry) in resident { #expect(cache.value(forKey: key) == entry.value) }
    }
}

extension SeededRandomNumberGenerator {
    /// A uniform Double in 0..<1.
    mutating func nextUnit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
