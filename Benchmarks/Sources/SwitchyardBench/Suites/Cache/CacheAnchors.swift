import Foundation
import Synchronization

/// The operations every cache in the `cache` suite is driven through, so each runs the very same workload.
protocol BenchCache: Sendable {
    func get(_ key: Int) -> Int?
    func set(_ key: Int, _ value: Int)
}

/// `Mutex<Dictionary>` with no eviction: the floor a cache is compared to.
final class MutexDictionaryCache: BenchCache {
    private let storage = Mutex<[Int: Int]>([:])
    func get(_ key: Int) -> Int? { storage.withLock { $0[key] } }
    func set(_ key: Int, _ value: Int) { storage.withLock { $0[key] = value } }
}

/// A plain LRU cache: a dictionary and a doubly linked list of slots in arrays, behind one `Mutex`. The usual
/// hand-written cache, and the hit-rate baseline.
final class PlainLRUCache: BenchCache {
    private struct State {
        var index: [Int: Int] = [:]
        var keys: [Int] = []
        var values: [Int] = []
        var previous: [Int] = []
        var next: [Int] = []
        var head = -1  // least recent
        var tail = -1  // most recent

        mutating func unlink(_ slot: Int) {
            if previous[slot] >= 0 { next[previous[slot]] = next[slot] } else { head = next[slot] }
            if next[slot] >= 0 { previous[next[slot]] = previous[slot] } else { tail = previous[slot] }
        }

        mutating func append(_ slot: Int) {
            previous[slot] = tail
            next[slot] = -1
            if tail >= 0 { next[tail] = slot } else { head = slot }
            tail = slot
        }
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) { self.capacity = capacity }

    func get(_ key: Int) -> Int? {
        state.withLock { state in
            guard let slot = state.index[key] else { return nil }
            if state.tail != slot {
                state.unlink(slot)
                state.append(slot)
            }
            return state.values[slot]
        }
    }

    func set(_ key: Int, _ value: Int) {
        state.withLock { state in
            if let slot = state.index[key] {
                state.values[slot] = value
                if state.tail != slot {
                    state.unlink(slot)
                    state.append(slot)
                }
                return
            }
            let slot: Int
            if state.keys.count < capacity {
                slot = state.keys.count
                state.keys.append(key)
                state.values.append(value)
                state.previous.append(-1)
                state.next.append(-1)
            } else {
                slot = state.head
                state.unlink(slot)
                state.index.removeValue(forKey: state.keys[slot])
                state.keys[slot] = key
                state.values[slot] = value
            }
            state.index[key] = slot
            state.append(slot)
        }
    }
}

/// swift-corelibs-foundation's `NSCache` with a count limit.
///
/// Unchecked-Sendable invariant: `NSCache` is documented thread-safe; the wrapper adds no state.
final class FoundationCache: BenchCache, @unchecked Sendable {
    private final class Box {
        let value: Int
        init(_ value: Int) { self.value = value }
    }

    private let cache = NSCache<NSNumber, Box>()

    init(capacity: Int) { cache.countLimit = capacity }

    func get(_ key: Int) -> Int? { cache.object(forKey: NSNumber(value: key))?.value }
    func set(_ key: Int, _ value: Int) { cache.setObject(Box(value), forKey: NSNumber(value: key)) }
}
