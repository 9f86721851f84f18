/// Values produced while holding a lock, handed over after that lock is released, in the order they were produced.
///
/// Why: handing a value to an `AsyncStream` (or resuming any continuation) takes the receiving task's status lock,
/// and cancelling a task runs its cancellation handlers (a stream's `onTermination` among them) while holding that
/// same status lock. A handler that takes the producer's lock (the engine lock, to unregister an observer) and a
/// producer that yields while holding it would deadlock each other. So producers only `append` under their lock,
/// and `drain` runs after it with no lock held.
///
/// Order: items are appended under the producer's lock, so in production order; at most one thread drains at a
/// time (the first appender that found no drainer), taking items in FIFO order until none is left. An item
/// appended while another thread drains is delivered by that thread.
///
/// - Complexity: `append` O(1) amortized; `drain` O(items), delivering with no lock held.
final class OrderedOutbox<Item: Sendable>: Sendable {
    private struct State {
        var items: [Item] = []
        var isDraining = false
    }

    private let state = PlatformLock(State())

    init() {}

    /// Adds `item`. Returns true when the caller must call ``drain(_:)`` once its own lock is released (no drainer
    /// was active; the caller is now it).
    func append(_ item: Item) -> Bool {
        state.withLock { state in
            state.items.append(item)
            if state.isDraining { return false }
            state.isDraining = true
            return true
        }
    }

    /// Hands every item to `deliver`, in order, until none is left. Call only after ``append(_:)`` returned true,
    /// holding no lock that a task's cancellation handler might take.
    func drain(_ deliver: (Item) -> Void) {
        while true {
            let batch = state.withLock { state -> [Item] in
                if state.items.isEmpty {
                    state.isDraining = false
                    return []
                }
                defer { state.items = [] }
                return state.items
            }
            if batch.isEmpty { return }
            for item in batch { deliver(item) }
        }
    }
}
