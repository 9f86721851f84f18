import SwitchyardTesting
import Testing

@testable import Switchyard

private struct LoadFailed: Error, Equatable {}

@Suite("Cache: extreme limits, lifetimes and costs; expired entries go first")
struct CacheEdgeTests {
    @Test("a time-to-live past the end of the clock's range means never, not at once")
    func hugeTimeToLive() async throws {
        let clock = ManualClock()
        let cache = Cache<Int, Int>(clock: clock, memoryPressure: nil, failureTimeToLive: .seconds(Int64.max))
        clock.advance(by: .seconds(1))
        cache.setValue(1, forKey: 1, timeToLive: .seconds(Int64.max))
        cache.setValue(2, forKey: 2, timeToLive: .seconds(Int64.max / 2))
        clock.advance(by: .seconds(1_000_000))
        #expect(cache.value(forKey: 1) == 1)
        #expect(cache.value(forKey: 2) == 2)
        // The failure time-to-live saturates too (it used to trap).
        await #expect(throws: LoadFailed.self) { try await cache.value(forKey: 3) { _ in throw LoadFailed() } }
        await #expect(throws: LoadFailed.self) { try await cache.value(forKey: 3) { _ in 3 } }
    }

    @Test("setLimits, trim and removeAll take expired entries out first, reported as expired")
    func expiredFirst() {
        let clock = ManualClock()
        let removals = Log<String>()
        let cache = Cache<Int, Int>(countLimit: 10, policy: .leastRecentlyUsed, clock: clock, memoryPressure: nil) {
            removals.append("\($0.key) \($0.reason)")
        }
        // 0...4 expire; 5...9 live. The expired ones are the least recently used too, so make them the most
        // recent to tell the orders apart.
        for key in 5..<10 { cache.setValue(key, forKey: key) }
        for key in 0..<5 { cache.setValue(key, forKey: key, timeToLive: .seconds(1)) }
        clock.advance(by: .seconds(2))
        cache.setLimits(count: 5, cost: nil)
        #expect(Set(removals.all) == Set((0..<5).map { "\($0) expired" }) && removals.all.count == 5)
        #expect(cache.count == 5 && (5..<10).allSatisfy { cache.contains($0) })

        for key in 10..<12 { cache.setValue(key, forKey: key, timeToLive: .seconds(1)) }  // evicts 5, 6
        clock.advance(by: .seconds(2))
        let before = removals.all.count
        cache.trim(toFraction: 0.6)  // 5 entries → 3: the two expired ones are enough
        #expect(Set(removals.all[before...]) == ["10 expired", "11 expired"] && removals.all.count == before + 2)
        #expect(cache.count == 3)

        cache.setValue(12, forKey: 12, timeToLive: .seconds(1))
        clock.advance(by: .seconds(2))
        let beforeAll = removals.all.count
        cache.removeAll()
        let last = Array(removals.all[beforeAll...])
        #expect(last.first == "12 expired")
        #expect(last.dropFirst().allSatisfy { $0.hasSuffix("removed") } && last.count == 4)
    }

    @Test(
        "count limits up to Int.max work in both policies and do not allocate up front",
        arguments: [CachePolicy.frequencyAware, .leastRecentlyUsed])
    func hugeCountLimit(policy: CachePolicy) async throws {
        let cache = Cache<Int, Int>(
            countLimit: .max, policy: policy, memoryPressure: nil, failureTimeToLive: .seconds(1))
        for key in 0..<1_000 { cache.setValue(key, forKey: key) }
        #expect(cache.count == 1_000)
        #expect(cache.policy.sketch.table.count <= FrequencySketch.initialCapacityLimit)
        cache.setLimits(count: .max - 1, cost: nil)
        cache.setLimits(count: 10, cost: nil)
        #expect(cache.count == 10)
        await #expect(throws: LoadFailed.self) { try await cache.value(forKey: -1) { _ in throw LoadFailed() } }
    }

    @Test("the frequency sketch grows with the entries of a cache with a large count limit")
    func sketchGrows() {
        let cache = Cache<Int, Int>(countLimit: 1 << 40, memoryPressure: nil)
        let initial = cache.policy.sketch.table.count
        for key in 0..<(initial + 1) { cache.setValue(key, forKey: key) }
        #expect(cache.policy.sketch.table.count > initial)
        #expect(cache.count == initial + 1)
    }

    @Test("costs near Int.max: a cost limit of .max is enforced as Int.max / 2 and never overflows")
    func hugeCosts() {
        let cache = Cache<Int, Int>(costLimit: .max, memoryPressure: nil)
        #expect(cache.costLimit == Int.max / 2)
        #expect(cache.setValue(1, forKey: 1, cost: Int.max / 2))
        cache.setValue(2, forKey: 2, cost: Int.max / 2)  // evicts 1 or is turned away; never overflows
        #expect(cache.totalCost <= Int.max / 2)
        #expect(!cache.setValue(3, forKey: 3, cost: .max))  // more than the enforced limit: never stored
        #expect(cache.totalCost <= Int.max / 2)

        let unlimited = Cache<Int, Int>(memoryPressure: nil)
        unlimited.setValue(1, forKey: 1, cost: Int.max / 2)
        unlimited.setValue(2, forKey: 2, cost: Int.max / 2)
        unlimited.trim(toFraction: 1)  // Double(total) rounds up to 2^63: converting it back used to trap
        #expect(unlimited.count == 2)
        unlimited.setValue(2, forKey: 2, cost: 1)  // a replacement's cost change
        #expect(unlimited.totalCost == Int.max / 2 + 1)
    }
}
