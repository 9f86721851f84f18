import Synchronization

/// The observers of an isolation type's value: each gets the value after every write, in write order.
///
/// Emissions are serialized by the owner (an isolation type emits while it still holds its lock exclusively; the
/// work engine drains an ``OrderedOutbox``), so every observer sees values in the order they happened.
///
/// `emit` yields with no lock of the list held: yielding takes the receiving task's status lock, and cancelling
/// that task runs the stream's `onTermination` (which calls `remove`, taking the list's lock) under the same
/// status lock. The observers are kept in an array replaced on every change, so `emit` only retains it.
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

    private let entries = PlatformLock(Entries())
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
