import Switchyard
import Synchronization
import Testing

/// Lets a removal handler reach the cache it is installed on (set once the cache exists). Weak: the cache holds
/// the handler, which holds this; a strong reference back would keep every test's cache alive.
private final class CacheReference: Sendable {
    private struct Weak { weak var cache: Cache<Int, Int>? }
    private let storage = Mutex(Weak())
    var cache: Cache<Int, Int>? {
        get { storage.withLock { $0.cache } }
        set { storage.withLock { $0.cache = newValue } }
    }
}

/// What a removal handler saw: for each removal, the reason, the key and the cache's count at that moment (a bulk
/// removal notifies each chunk's removals between its holds of the policy lock).
private final class Observations: Sendable {
    private let storage = Mutex<[(reason: CacheRemovalReason, key: Int, count: Int)]>([])
    func record(_ reason: CacheRemovalReason, _ key: Int, _ count: Int) {
        storage.withLock { $0.append((reason, key, count)) }
    }
    var all: [(reason: CacheRemovalReason, key: Int, count: Int)] { storage.withLock { $0 } }
}

/// A cache whose removal handler records into the returned observations.
private func observedCache(
    countLimit: Int? = nil, policy: CachePolicy = .frequencyAware
) -> (Cache<Int, Int>, Observations) {
    let reference = CacheReference()
    let seen = Observations()
    let cache = Cache<Int, Int>(countLimit: countLimit, policy: policy, memoryPressure: nil) { removal in
        seen.record(removal.reason, removal.key, reference.cache?.count ?? -1)
    }
    reference.cache = cache
    return (cache, seen)
}

@Suite("Cache: bulk removals release the policy lock between chunks")
struct CacheBulkRemovalTests {
    private let chunk = Cache<Int, Int>.removalsPerHold

    @Test("removeAll removes in chunks, notifying each chunk before the next, and ends empty")
    func removeAllInChunks() {
        let (cache, seen) = observedCache()
        let total = 3 * chunk + 10
        for key in 0..<total { cache.setValue(key, forKey: key) }
        cache.removeAll()
        let removals = seen.all
        #expect(removals.count == total)
        #expect(removals.allSatisfy { $0.reason == .removed })
        // The first chunk's removals are notified while the rest are still in the cache.
        #expect(removals.first?.count == total - chunk)
        #expect(removals.last?.count == 0)
        #expect(cache.count == 0)
        #expect(cache.statistics.removals[.removed] == UInt64(total))
    }

    @Test("removeAll and trim end even when the removal handler writes back every entry it is told about")
    func bulkRemovalsEndUnderRefills() {
        let reference = CacheReference()
        let refilled = Mutex(0)
        let cache = Cache<Int, Int>(policy: .leastRecentlyUsed, memoryPressure: nil) { removal in
            refilled.withLock { $0 += 1 }
            reference.cache?.setValue(removal.value, forKey: removal.key)  // no lock is held while notifying
        }
        reference.cache = cache
        let total = 3 * chunk
        for key in 0..<total { cache.setValue(key, forKey: key) }
        cache.removeAll()  // removes what was there; the entries written back meanwhile stay
        #expect(refilled.withLock { $0 } == total)
        #expect(cache.count == total)
        cache.trim(toFraction: 0.5)  // removes at most as many entries as there were
        #expect(refilled.withLock { $0 } <= 2 * total)
    }

    @Test("a write between two chunks of a lower limit evicts only its own overflow, not the rest of the reduction")
    func writesBetweenLimitChunks() {
        let reference = CacheReference()
        let state = Mutex((wrote: false, writing: false, removedWhileWriting: 0))
        let cache = Cache<Int, Int>(countLimit: 3 * chunk, policy: .leastRecentlyUsed, memoryPressure: nil) { _ in
            let write = state.withLock { state in
                if state.writing { state.removedWhileWriting += 1 }
                defer { state.wrote = true }
                return !state.wrote
            }
            guard write else { return }
            state.withLock { $0.writing = true }
            reference.cache?.setValue(-1, forKey: -1)
            state.withLock { $0.writing = false }
        }
        reference.cache = cache
        for key in 0..<(3 * chunk) { cache.setValue(key, forKey: key) }
        cache.setLimits(count: 10, cost: nil)
        #expect(state.withLock { $0.removedWhileWriting } == 0)
        #expect(cache.count == 10)
    }

    @Test("trim takes discardable entries first, then the coldest, in chunks, down to the target")
    func trimInChunks() {
        let (cache, seen) = observedCache(policy: .leastRecentlyUsed)
        let total = 4 * chunk
        let discardable = Set((total - 100)..<total)  // the most recently used: plain LRU would keep them
        for key in 0..<total { cache.setValue(key, forKey: key, isDiscardable: discardable.contains(key)) }
        cache.trim(toFraction: 0.25)
        let removals = seen.all
        #expect(removals.count == total - total / 4)
        #expect(removals.allSatisfy { $0.reason == .pressure })
        #expect(Set(removals.prefix(100).map(\.key)) == discardable)
        #expect(Array(removals.dropFirst(100).prefix(5).map(\.key)) == [0, 1, 2, 3, 4])  // then least recent first
        #expect(removals.first?.count == total - chunk)  // notified between chunks
        #expect(cache.count == total / 4)
    }

    @Test("a lower count limit evicts in chunks, and the evictions are counted in the statistics")
    func lowerLimitInChunks() {
        let (cache, seen) = observedCache(countLimit: 3 * chunk, policy: .leastRecentlyUsed)
        for key in 0..<(3 * chunk) { cache.setValue(key, forKey: key) }
        cache.setLimits(count: 10, cost: nil)
        let removals = seen.all
        #expect(removals.count == 3 * chunk - 10)
        #expect(removals.first?.count == 2 * chunk)
        #expect(cache.count == 10)
        #expect(cache.statistics.removals[.evicted] == UInt64(3 * chunk - 10))
    }
}
