import DequeModule

/// Suspended waiters, first come first served, any of which may leave early: the two sides of a channel, and the
/// submitters waiting for room in a bounded queue.
///
/// The order lives in a deque of identifiers and the waiters in a dictionary keyed by identifier. A waiter that
/// leaves is taken out of the dictionary only; its identifier stays in the deque as a stale entry that
/// ``popFirst()`` skips. When stale entries outnumber the waiters by more than 16, the deque is rebuilt without
/// them, so it never holds more than twice the waiters plus 16 identifiers, and each rebuild's cost is paid for by
/// the leaves that made it necessary.
///
/// - Complexity: ``append(_:identifier:)`` and ``remove(_:)`` O(1) amortized; ``popFirst()`` O(1) amortized
///   (stale entries are skipped once each); ``removeAll()`` O(n).
///
/// Not thread-safe: the owner guards it with its lock.
struct WaiterQueue<Waiter> {
    private var order = Deque<UInt64>()
    private var waiters: [UInt64: Waiter] = [:]
    /// Identifiers in `order` whose waiter has left.
    private var stale = 0

    /// Whether no waiter waits.
    var isEmpty: Bool { waiters.isEmpty }

    /// The number of waiters.
    var count: Int { waiters.count }

    /// The number of identifiers held in order, stale ones included: at most `2 * count + 16`.
    var storedCount: Int { order.count }

    /// Adds a waiter behind all others. `identifier` must not be waiting already.
    mutating func append(_ waiter: Waiter, identifier: UInt64) {
        let previous = waiters.updateValue(waiter, forKey: identifier)
        precondition(previous == nil, "WaiterQueue: waiter \(identifier) registered twice")
        order.append(identifier)
    }

    /// Removes and returns the waiter that has waited longest, or nil if none waits.
    mutating func popFirst() -> Waiter? {
        while let identifier = order.popFirst() {
            if let waiter = waiters.removeValue(forKey: identifier) {
                compactIfMostlyStale()
                return waiter
            }
            stale -= 1
        }
        return nil
    }

    /// Removes and returns the waiter `identifier`, or nil if it no longer waits.
    mutating func remove(_ identifier: UInt64) -> Waiter? {
        guard let waiter = waiters.removeValue(forKey: identifier) else { return nil }
        stale += 1
        compactIfMostlyStale()
        return waiter
    }

    /// Removes and returns every waiter, longest waiting first.
    mutating func removeAll() -> [Waiter] {
        var all: [Waiter] = []
        all.reserveCapacity(waiters.count)
        while let waiter = popFirst() { all.append(waiter) }
        return all
    }

    /// Drops the stale identifiers once they outnumber the waiters by more than 16. O(n) when it does.
    private mutating func compactIfMostlyStale() {
        guard stale > waiters.count + 16 else { return }
        order = waiters.isEmpty ? Deque() : Deque(order.filter { waiters[$0] != nil })
        stale = 0
    }
}
