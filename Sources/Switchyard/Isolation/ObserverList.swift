import Synchronization

/// The observers of an isolation type's value: each gets the value after every write, in write order.
///
/// Values reach observers with no lock held. Handing a value to an `AsyncStream` takes the receiving task's status
/// lock, and cancelling that task runs its cancellation handlers under the same status lock: the stream's
/// `onTermination` (which calls `remove`, taking this list's lock), and any handler of the user's, which may well
/// access the observed value and so wait for the owner's lock. So the owner ``enqueue(_:)``s each written value
/// while it still holds its lock exclusively (which puts values in write order) and calls ``drainQueued()`` after
/// releasing it; the work engine drains its own ``OrderedOutbox`` and calls ``emit(_:)``. The observers are kept
/// in an array replaced on every change, so a delivery only retains it.
@usableFromInline
final class ObserverList<Value>: Sendable {
    struct Observer: Sendable {
        let yield: @Sendable (Value) -> Void
        let finish: @Sendable () -> Void
    }

    private struct Entries {
        var nextIdentifier: UInt64 = 0
        /// Replaced, never mutated in place, while `emit` may iterate a copy.
        var observers: [(identifier: UInt64, observer: Observer)] = []
    }

    /// Written values not yet handed to observers, each with the observers registered when it was written.
    private struct Queue {
        var items: [(observers: [(identifier: UInt64, observer: Observer)], value: Value)] = []
        var isDraining = false
    }

    private let entries = PlatformLock(Entries())
    // Values queue only while someone observes, which `values()` allows only for `Sendable` values; the queue's
    // lock hands them from the writer to the draining thread.
    private let queue = PlatformLock(Queue())
    @usableFromInline let count = Atomic<Int>(0)

    @usableFromInline
    init() {}

    /// Whether anyone observes. Read by the lock holder before building a value to emit.
    @inlinable @inline(__always)
    var isActive: Bool { count.load(ordering: .relaxed) > 0 }

    /// Registers an observer. Call while holding the owner's lock exclusively, so no write is missed or duplicated.
    /// - Complexity: O(observers).
    func add(_ observer: Observer) -> UInt64 {
        entries.withLock { entries in
            let identifier = entries.nextIdentifier
            entries.nextIdentifier += 1
            entries.observers = entries.observers + [(identifier, observer)]
            count.wrappingAdd(1, ordering: .relaxed)
            return identifier
        }
    }

    /// Removes an observer (its stream ended). Safe from any thread, with or without the owner's lock.
    /// - Complexity: O(observers).
    func remove(_ identifier: UInt64) {
        entries.withLock { entries in
            let remaining = entries.observers.filter { $0.identifier != identifier }
            if remaining.count < entries.observers.count {
                entries.observers = remaining
                count.wrappingSubtract(1, ordering: .relaxed)
            }
        }
    }

    /// Yields `value` to every observer, holding no lock. - Complexity: O(observers).
    @usableFromInline
    func emit(_ value: Value) {
        let observers = entries.withLock { $0.observers }
        for entry in observers { entry.observer.yield(value) }
    }

    /// Queues `value` for the current observers. Call while holding the owner's lock exclusively, then, if this
    /// returned true, call ``drainQueued()`` once that lock is released (this caller is the drainer; otherwise the
    /// thread already draining delivers the value). - Complexity: O(1) amortized.
    @usableFromInline
    func enqueue(_ value: Value) -> Bool {
        let observers = entries.withLock { $0.observers }
        return queue.withLock { queue in
            queue.items.append((observers, value))
            if queue.isDraining { return false }
            queue.isDraining = true
            return true
        }
    }

    /// The most batches one caller of ``drainQueued()`` delivers before handing the rest to a task.
    static var drainRounds: Int { 4 }

    /// Hands every queued value to its observers, in write order, holding no lock. Call only after ``enqueue(_:)``
    /// returned true. Returns when the queue is empty, or after ``drainRounds`` batches if other writers keep
    /// queueing values: then a new task goes on draining (with the same bound, in order), so a writer is never
    /// held delivering other threads' values for long. - Complexity: O(values × observers).
    @usableFromInline
    func drainQueued() {
        for _ in 0..<Self.drainRounds {
            let batch = queue.withLock { queue in
                if queue.items.isEmpty { queue.isDraining = false }
                defer { queue.items = [] }
                return queue.items
            }
            if batch.isEmpty { return }
            for item in batch {
                for entry in item.observers { entry.observer.yield(item.value) }
            }
        }
        // Still draining (`isDraining` stays set, so nobody else starts): a task takes over.
        Task.detached { self.drainQueued() }
    }

    /// Ends every observer's stream (the owner is going away).
    @usableFromInline
    func finishAll() {
        let observers = entries.withLock { entries in
            defer { entries.observers = [] }
            return entries.observers
        }
        for entry in observers { entry.observer.finish() }
    }
}
