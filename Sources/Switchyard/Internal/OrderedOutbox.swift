/// Values produced while holding a lock, handed over after that lock is released, in the order they were produced.
///
/// Why: handing a value to an `AsyncStream` (or resuming any continuation) takes the receiving task's status lock,
/// and cancelling a task runs its cancellation handlers (a stream's `onTermination` among them) while holding that
/// same status lock. A handler that takes the producer's lock (the engine lock, to unregister an observer) and a
/// producer that yields while holding it would deadlock each other. So producers only `append` under their lock,
/// and `drain` runs after it with no lock held.
///
/// Order: items are appended under the producer's lock, so in production order; at most one thread drains at a
/// time (the first appender that found no drainer, or the task it hands over to), taking items in FIFO order until
/// none is left. An item appended while another thread drains is delivered by that drainer.
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

    /// The most batches one caller of ``drain(_:)`` delivers before handing the rest to a task.
    static var drainRounds: Int { 4 }

    /// Hands every item to `deliver`, in order, until none is left. Call only after ``append(_:)`` returned true,
    /// holding no lock that a task's cancellation handler might take. If producers keep appending, the caller
    /// delivers at most ``drainRounds`` batches and a new task goes on (with the same bound, in order): the engine
    /// thread that became the drainer is never held delivering other threads' items for long.
    func drain(_ deliver: @escaping @Sendable (Item) -> Void) {
        for _ in 0..<Self.drainRounds {
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
        // Still draining (`isDraining` stays set, so nobody else starts): a task takes over.
        Task.detached { self.drain(deliver) }
    }
}
