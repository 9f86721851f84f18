/// The sleepers registered on a ``ManualClock``: an indexed binary min-heap ordered by deadline,
/// then by registration order (FIFO among equal deadlines).
///
/// Complexity, for `n` registered sleepers: ``insert(id:deadline:continuation:)``,
/// ``remove(id:)`` and each sleeper taken by ``popDue(upTo:)`` are O(log n) (amortized, because of
/// the position dictionary); ``count`` and ``first`` are O(1).
///
/// Not thread-safe by itself: ``ManualClock`` only touches it under its mutex.
struct SleeperHeap {
    /// One suspended `sleep(until:)` call.
    struct Sleeper {
        /// The clock-wide id of the sleep call, used to remove it on cancellation.
        let id: UInt64
        /// When the sleeper is due.
        let deadline: ManualClock.Instant
        /// Registration order, to keep equal deadlines FIFO.
        let sequence: UInt64
        /// Resumed (outside the clock's lock) when the sleeper is due or cancelled.
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// The heap, in array form: `storage[i]` precedes its children `2i + 1` and `2i + 2`.
    private var storage: [Sleeper] = []
    /// Where each sleeper id currently sits in `storage`.
    private var positions: [UInt64: Int] = [:]
    /// The next registration sequence number.
    private var nextSequence: UInt64 = 0

    /// The number of registered sleepers. O(1).
    var count: Int { storage.count }

    /// The sleeper due first, or `nil` if there is none. O(1).
    var first: Sleeper? { storage.first }

    /// Registers a sleeper. O(log n).
    mutating func insert(id: UInt64, deadline: ManualClock.Instant, continuation: CheckedContinuation<Void, any Error>)
    {
        storage.append(Sleeper(id: id, deadline: deadline, sequence: nextSequence, continuation: continuation))
        nextSequence &+= 1
        positions[id] = storage.count - 1
        siftUp(storage.count - 1)
    }

    /// Unregisters and returns the sleeper with `id`, or returns `nil` if it is not registered.
    /// O(log n).
    mutating func remove(id: UInt64) -> Sleeper? {
        guard let index = positions[id] else { return nil }
        return remove(at: index)
    }

    /// Unregisters and returns every sleeper whose deadline is at or before `instant`, in deadline
    /// order (FIFO among equal deadlines). O(k log n) for k sleepers returned.
    mutating func popDue(upTo instant: ManualClock.Instant) -> [Sleeper] {
        var due: [Sleeper] = []
        while let first = storage.first, first.deadline <= instant {
            due.append(remove(at: 0))
        }
        return due
    }

    // MARK: - Heap maintenance

    /// Whether `a` must be resumed before `b`.
    private func precedes(_ a: Sleeper, _ b: Sleeper) -> Bool {
        a.deadline != b.deadline ? a.deadline < b.deadline : a.sequence < b.sequence
    }

    private mutating func remove(at index: Int) -> Sleeper {
        let last = storage.count - 1
        if index != last {
            swapAt(index, last)
        }
        let removed = storage.removeLast()
        positions[removed.id] = nil
        if index < storage.count {
            siftDown(index)
            siftUp(index)
        }
        return removed
    }

    private mutating func swapAt(_ i: Int, _ j: Int) {
        storage.swapAt(i, j)
        positions[storage[i].id] = i
        positions[storage[j].id] = j
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(storage[child], storage[parent]) else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < storage.count, precedes(storage[left], storage[first]) { first = left }
            if right < storage.count, precedes(storage[right], storage[first]) { first = right }
            guard first != parent else { return }
            swapAt(parent, first)
            parent = first
        }
    }
}
