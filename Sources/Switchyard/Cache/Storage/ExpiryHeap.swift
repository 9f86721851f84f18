/// The entries that expire, in a binary min-heap ordered by expiry time; each entry knows its index, so it can
/// be removed or re-timed in place.
///
/// Guarded by the cache's policy lock. - Complexity: O(log n) per insert, removal and update; O(1) to peek at
/// the next expiry.
@usableFromInline
struct ExpiryHeap<Key: Hashable & Sendable, Value: Sendable> {
    @usableFromInline
    typealias Entry = CacheEntry<Key, Value>

    @usableFromInline
    var entries: [Entry] = []

    @inlinable
    var isEmpty: Bool { entries.isEmpty }
    @inlinable
    var count: Int { entries.count }

    /// The entry that expires first.
    @inlinable
    var first: Entry? { entries.first }

    @inlinable
    mutating func insert(_ entry: Entry) {
        entry.heapIndex = entries.count
        entries.append(entry)
        siftUp(entries.count - 1)
    }

    @inlinable
    mutating func remove(_ entry: Entry) {
        let index = entry.heapIndex
        guard index >= 0 else { return }
        let lastIndex = entries.count - 1
        if index != lastIndex {
            entries.swapAt(index, lastIndex)
            entries[index].heapIndex = index
        }
        entries.removeLast()
        entry.heapIndex = -1
        if index < entries.count {
            siftDown(index)
            siftUp(index)
        }
    }

    /// Restores the order after `entry.expiresAt` changed.
    @inlinable
    mutating func update(_ entry: Entry) {
        siftDown(entry.heapIndex)
        siftUp(entry.heapIndex)
    }

    @inlinable
    mutating func removeAll() {
        for entry in entries { entry.heapIndex = -1 }
        entries = []
    }

    @inlinable
    mutating func siftUp(_ start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard entries[index].expiresAt < entries[parent].expiresAt else { return }
            swap(index, parent)
            index = parent
        }
    }

    @inlinable
    mutating func siftDown(_ start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1
            guard left < entries.count else { return }
            var smallest = left
            if left + 1 < entries.count && entries[left + 1].expiresAt < entries[left].expiresAt { smallest = left + 1 }
            guard entries[smallest].expiresAt < entries[index].expiresAt else { return }
            swap(index, smallest)
            index = smallest
        }
    }

    @inlinable
    mutating func swap(_ a: Int, _ b: Int) {
        entries.swapAt(a, b)
        entries[a].heapIndex = a
        entries[b].heapIndex = b
    }
}
