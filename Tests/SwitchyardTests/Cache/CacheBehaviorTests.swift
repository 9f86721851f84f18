import SwitchyardTesting
import Testing

@testable import Switchyard

@Suite("Cache: eviction order, admission, notifications, expiry, trimming")
struct CacheBehaviorTests {
    @Test("LRU mode evicts the least recently used entry; a read counts as a use")
    func lruOrder() {
        let evicted = Log<Int>()
        let cache = Cache<Int, String>(countLimit: 3, policy: .leastRecentlyUsed, memoryPressure: nil) {
            if $0.reason == .evicted { evicted.append($0.key) }
        }
        for key in 1...3 { cache.setValue("\(key)", forKey: key) }
        #expect(cache.value(forKey: 1) == "1")  // 2 is now the least recent
        cache.setValue("4", forKey: 4)
        cache.setValue("5", forKey: 5)
        #expect(evicted.all == [2, 3])
        #expect(cache.value(forKey: 2) == nil)
        #expect(cache.value(forKey: 1) == "1")
    }

    @Test("frequency-aware mode keeps frequently used entries through scans; LRU mode loses them")
    func scanResistance() {
        func survivors(_ policy: CachePolicy) -> Int {
            let cache = Cache<Int, Int>(countLimit: 100, policy: policy, memoryPressure: nil)
            func use(_ key: Int) { if cache.value(forKey: key) == nil { cache.setValue(key, forKey: key) } }
            for _ in 0..<5 { for key in 0..<50 { use(key) } }
            // A scan of 10,000 one-time keys (100× the capacity) in runs of 100, the hot keys used between runs.
            for run in 0..<100 {
                if run > 0 { for key in 0..<50 { use(key) } }
                for key in 0..<100 { use(1_000 + run * 100 + key) }
            }
            return (0..<50).filter { cache.contains($0) }.count
        }
        #expect(survivors(.frequencyAware) == 50)
        #expect(survivors(.leastRecentlyUsed) == 0)
    }

    @Test("a newcomer leaving the window loses to more frequent entries and is evicted in their place")
    func admissionRejects() {
        // Keys with seed-independent hashes: with `Int` keys, the frequency sketch's collisions (which can make a
        // newcomer look frequent) would change with the process's random hashing seed, and so would the outcome.
        #expect(FixedHashKey(7).hashValue == 7)
        let removals = Log<CacheRemoval<FixedHashKey, Int>>()
        let cache = Cache<FixedHashKey, Int>(countLimit: 100, memoryPressure: nil) { removals.append($0) }
        for _ in 0..<4 {
            for key in 0..<100 where cache.value(forKey: FixedHashKey(key)) == nil {
                cache.setValue(key, forKey: FixedHashKey(key))
            }
        }
        for key in 1_000..<1_010 { #expect(cache.setValue(key, forKey: FixedHashKey(key))) }  // each enters the window
        // Each newcomer pushed out of the one-entry window was seen once; the probation victim several times.
        #expect((1_000..<1_010).filter { cache.contains(FixedHashKey($0)) } == [1_009])
        #expect((0..<100).filter { cache.contains(FixedHashKey($0)) }.count == 99)
        #expect(cache.count == 100)
        #expect(removals.all.count == 10 && removals.all.allSatisfy { $0.reason == .evicted })
    }

    @Test("frequency-aware reads reach the policy in batches: nothing until a stripe has 16, then all of them")
    func bufferedReads() {
        let cache = Cache<FixedHashKey, Int>(countLimit: 100, memoryPressure: nil)
        let key = FixedHashKey(7)
        cache.setValue(7, forKey: key)  // one count in the sketch
        func seen() -> (frequency: Int, referenced: Bool) {
            cache.withPolicy { policy in
                let node = (0..<policy.nodeCount).first { policy.nodes[$0].segment != .none }!
                return (policy.sketch.frequency(key.hashValue), policy.nodes[node].isReferenced)
            }
        }
        for _ in 0..<CacheStripe<FixedHashKey, Int>.drainThreshold - 1 { #expect(cache.value(forKey: key) == 7) }
        #expect(seen() == (1, false))
        #expect(cache.value(forKey: key) == 7)
        #expect(seen() == (min(15, 1 + CacheStripe<FixedHashKey, Int>.drainThreshold), true))  // counters stop at 15
    }

    @Test("a write applies its stripe's buffered reads before it evicts")
    func writeAppliesBufferedReads() {
        let cache = Cache<FixedHashKey, Int>(countLimit: 100, memoryPressure: nil)
        let key = FixedHashKey(7)
        cache.setValue(7, forKey: key)
        for _ in 0..<3 { #expect(cache.value(forKey: key) == 7) }
        func frequency() -> Int { cache.withPolicy { $0.sketch.frequency(key.hashValue) } }
        #expect(frequency() == 1)  // still buffered
        let neighbour = FixedHashKey(7 + cache.stripeMask + 1)  // same stripe
        cache.setValue(0, forKey: neighbour)
        #expect(frequency() == 4)
    }

    @Test("an entry costing more than the cost limit is never stored; the limits hold")
    func oversizedEntry() {
        let cache = Cache<String, Int>(costLimit: 10, memoryPressure: nil)
        #expect(cache.setValue(1, forKey: "small", cost: 4))
        #expect(!cache.setValue(2, forKey: "huge", cost: 11))
        #expect(cache.value(forKey: "huge") == nil)
        #expect(cache.totalCost == 4)
        #expect(!cache.setValue(3, forKey: "small", cost: 11))  // replaced by a value that does not fit: gone
        #expect(cache.count == 0 && cache.totalCost == 0)
    }

    @Test("the cost function prices values stored without a cost")
    func costFunction() {
        let cache = Cache<Int, [UInt8]>(costLimit: 100, cost: { $0.count }, memoryPressure: nil)
        cache.setValue([UInt8](repeating: 0, count: 30), forKey: 1)
        cache.setValue([UInt8](repeating: 0, count: 30), forKey: 2, cost: 5)
        #expect(cache.totalCost == 35)
    }

    @Test("removal handlers run outside the locks: they may read and write the cache")
    func reentrantHandler() {
        let seen = Log<String>()
        let box = TestMutex<Cache<Int, Int>?>(nil)
        let cache = Cache<Int, Int>(countLimit: 2, policy: .leastRecentlyUsed, memoryPressure: nil) { removal in
            guard let cache = box.withLock({ $0 }) else { return }
            seen.append("\(removal.key) \(removal.reason) count=\(cache.count)")
            if removal.key == 1 {
                _ = cache.value(forKey: 2)
                cache.setValue(100, forKey: 100)  // evicts again, from inside the handler
            }
        }
        box.withLock { $0 = cache }
        cache.setValue(1, forKey: 1)
        cache.setValue(2, forKey: 2)
        cache.setValue(3, forKey: 3)  // evicts 1; the handler reads 2 and stores 100, which evicts 3
        #expect(seen.all == ["1 evicted count=2", "3 evicted count=2"])
        #expect(cache.contains(2) && cache.contains(100))
        box.withLock { $0 = nil }
    }

    @Test("with a removal delivery, each operation's removals arrive there as one ordered batch")
    func removalDelivery() async {
        let batches = Log<[Int]>()
        let pending = TestMutex<[@Sendable () -> Void]>([])
        let delivery = Delivery { work in pending.withLock { $0.append(work) } }
        let collected = TestMutex<[Int]>([])
        let cache = Cache<Int, Int>(
            countLimit: 2, policy: .leastRecentlyUsed, memoryPressure: nil, removalDelivery: delivery
        ) { removal in collected.withLock { $0.append(removal.key) } }
        for key in 1...4 { cache.setValue(key, forKey: key) }
        cache.removeAll()
        #expect(collected.withLock { $0 }.isEmpty)  // nothing ran inline
        for work in pending.withLock({ $0 }) {
            work()
            batches.append(
                collected.withLock { keys in
                    let batch = keys
                    keys = []
                    return batch
                })
        }
        #expect(batches.all.map { Set($0) } == [[1], [2], [3, 4]])  // removeAll goes in storage order
    }

    @Test("time-to-live on a manual clock: expired entries are never returned and are notified")
    func timeToLive() {
        let clock = ManualClock()
        let removals = Log<String>()
        let cache = Cache<String, Int>(timeToLive: .seconds(10), clock: clock, memoryPressure: nil) {
            removals.append("\($0.key) \($0.reason)")
        }
        cache.setValue(1, forKey: "a")
        cache.setValue(2, forKey: "b", timeToLive: .seconds(30))
        clock.advance(by: .seconds(9))
        #expect(cache.value(forKey: "a") == 1)
        clock.advance(by: .seconds(1))
        #expect(cache.value(forKey: "a") == nil)  // removed by this read
        #expect(removals.all == ["a expired"])
        clock.advance(by: .seconds(25))
        cache.setValue(3, forKey: "c")  // a write removes what is due
        #expect(removals.all == ["a expired", "b expired"])
        #expect(cache.count == 1)
        #expect(cache.statistics.removals[.expired] == 2)
    }

    @Test("trimming drops discardable entries first, then the coldest; critical pressure empties the cache")
    func pressureTrimming() {
        let removals = Log<CacheRemoval<Int, Int>>()
        let cache = Cache<Int, Int>(policy: .leastRecentlyUsed, memoryPressure: nil) { removals.append($0) }
        for key in 0..<10 { cache.setValue(key, forKey: key, cost: 1, isDiscardable: key >= 7) }
        cache.respond(to: .warning)  // keep half: 7, 8, 9 (discardable), then 0 and 1 (coldest) go
        #expect(removals.all.map(\.key) == [7, 8, 9, 0, 1])
        #expect(removals.all.allSatisfy { $0.reason == .pressure })
        #expect(cache.count == 5)
        cache.respond(to: .critical)
        #expect(cache.count == 0)
        #expect(cache.statistics.removals[.pressure] == 10)
    }

    @Test("a cache registered with a monitor is trimmed when the monitor reports pressure")
    func monitorRegistration() {
        let monitor = MemoryPressureMonitor(source: .procMeminfo(path: "/nonexistent/meminfo"))
        let cache = Cache<Int, Int>(memoryPressure: monitor)
        for key in 0..<100 { cache.setValue(key, forKey: key) }
        monitor.simulate(.warning)
        #expect(cache.count == 50)
        monitor.simulate(.critical)
        #expect(cache.count == 0)
    }

    @Test("lowering the limits evicts at once")
    func setLimits() {
        let cache = Cache<Int, Int>(countLimit: 10, policy: .leastRecentlyUsed, memoryPressure: nil)
        for key in 0..<10 { cache.setValue(key, forKey: key, cost: 2) }
        cache.setLimits(count: 5, cost: 6)
        #expect(cache.count == 3 && cache.totalCost == 6)
        #expect((7..<10).allSatisfy { cache.contains($0) })
        #expect(cache.countLimit == 5 && cache.costLimit == 6)
    }

    @Test("statistics count hits, misses and removals by reason")
    func statistics() {
        let cache = Cache<Int, Int>(countLimit: 2, policy: .leastRecentlyUsed, memoryPressure: nil)
        cache.setValue(1, forKey: 1)
        cache.setValue(2, forKey: 1)
        _ = cache.value(forKey: 1)
        _ = cache.value(forKey: 9)
        cache.setValue(2, forKey: 2)
        cache.setValue(3, forKey: 3)
        cache.removeValue(forKey: 3)
        let statistics = cache.statistics
        #expect(statistics.hits == 1 && statistics.misses == 1)
        #expect(statistics.removals[.replaced] == 1)
        #expect(statistics.removals[.evicted] == 1)
        #expect(statistics.removals[.removed] == 1)
        #expect(statistics.count == 1)
        #expect(cache.description.contains("1/2 entries"))
    }
}

/// A key whose hash value is the same in every process: `Int`'s depends on the random per-process hashing seed.
struct FixedHashKey: Hashable, Sendable {
    let value: Int

    init(_ value: Int) { self.value = value }

    func hash(into hasher: inout Hasher) { hasher.combine(value) }

    /// What `hashValue` (and so the cache) uses: the value itself, whatever the seed. The cache's frequency sketch
    /// mixes it before use, so consecutive values still spread over its counters.
    func _rawHashValue(seed: Int) -> Int { value }
}
