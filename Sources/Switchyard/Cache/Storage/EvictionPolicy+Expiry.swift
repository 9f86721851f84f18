/// The entries that expire, in a binary min-heap of nodes ordered by expiry time; each node knows its heap
/// index, so it can be removed or re-timed in place.
///
/// Guarded by the cache's policy lock. - Complexity: O(log n) per insert, removal and update; O(1) to peek at
/// the next expiry.
extension EvictionPolicy {
    /// The node that expires first.
    @inlinable
    var firstToExpire: Int? { expiry.isEmpty ? nil : Int(expiry[0]) }

    /// Puts a resident node whose expiry changed in its place in the heap (or takes it out: `Int64.max`).
    @inlinable
    mutating func reschedule(_ node: Int) {
        if nodes[node].expiresAt == .max {
            removeFromExpiry(node)
        } else if nodes[node].heapIndex >= 0 {
            siftDown(Int(nodes[node].heapIndex))
            siftUp(Int(nodes[node].heapIndex))
        } else {
            nodes[node].heapIndex = Int32(truncatingIfNeeded: expiry.count)
            expiry.append(Int32(truncatingIfNeeded: node))
            siftUp(expiry.count - 1)
        }
    }

    /// Takes `node` out of the heap if it is in it.
    @inlinable @inline(__always)
    mutating func removeFromExpiry(_ node: Int) {
        let index = Int(nodes[node].heapIndex)
        if index >= 0 { removeFromExpiry(node, at: index) }
    }

    @inlinable
    mutating func removeFromExpiry(_ node: Int, at index: Int) {
        let lastIndex = expiry.count - 1
        if index != lastIndex {
            expiry.swapAt(index, lastIndex)
            nodes[Int(expiry[index])].heapIndex = Int32(truncatingIfNeeded: index)
        }
        expiry.removeLast()
        nodes[node].heapIndex = -1
        if index < expiry.count {
            siftDown(index)
            siftUp(index)
        }
    }

    @inlinable
    func expiresEarlier(_ a: Int, than b: Int) -> Bool {
        nodes[Int(expiry[a])].expiresAt < nodes[Int(expiry[b])].expiresAt
    }

    @inlinable
    mutating func siftUp(_ start: Int) {
        var index = start
        while index > 0 {
            let parent = (index - 1) / 2
            guard expiresEarlier(index, than: parent) else { return }
            swapInHeap(index, parent)
            index = parent
        }
    }

    @inlinable
    mutating func siftDown(_ start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1
            guard left < expiry.count else { return }
            var smallest = left
            if left + 1 < expiry.count && expiresEarlier(left + 1, than: left) { smallest = left + 1 }
            guard expiresEarlier(smallest, than: index) else { return }
            swapInHeap(index, smallest)
            index = smallest
        }
    }

    @inlinable
    mutating func swapInHeap(_ a: Int, _ b: Int) {
        expiry.swapAt(a, b)
        nodes[Int(expiry[a])].heapIndex = Int32(truncatingIfNeeded: a)
        nodes[Int(expiry[b])].heapIndex = Int32(truncatingIfNeeded: b)
    }
}
