import Synchronization

/// The observers of an isolation type's value: each gets the value after every write, in write order.
///
/// The owner calls `emit(_:)` while it still holds its lock exclusively, so every observer sees writes in the
/// order they happened. Emission only yields into `AsyncStream` continuations (non-blocking, never re-entrant),
/// so holding `entries` while yielding cannot deadlock.
@usableFromInline
final class ObserverList<Value>: Sendable {
    struct Observer: Sendable {
        let yield: @Sendable (Value) -> Void
        let finish: @Sendable () -> Void
    }

    private struct Entries {
        var nextIdentifier: UInt64 = 0
        var observers: [UInt64: Observer] = [:]
    }

    private let entries = PlatformLock(Entries())
    @usableFromInline let count = Atomic<Int>(0)

    @usableFromInline
    init() {}

    /// Whether anyone observes. Read by the lock holder before building a value to emit.
    @inlinable @inline(__always)
    var isActive: Bool { count.load(ordering: .relaxed) > 0 }

    /// Registers an observer. Call while holding the owner's lock exclusively, so no write is missed or duplicated.
    func add(_ observer: Observer) -> UInt64 {
        entries.withLock { entries in
            let identifier = entries.nextIdentifier
            entries.nextIdentifier += 1
            entries.observers[identifier] = observer
            count.wrappingAdd(1, ordering: .relaxed)
            return identifier
        }
    }

    /// Removes an observer (its stream ended). Safe from any thread, with or without the owner's lock.
    func remove(_ identifier: UInt64) {
        entries.withLock { entries in
            if entries.observers.removeValue(forKey: identifier) != nil {
                count.wrappingSubtract(1, ordering: .relaxed)
            }
        }
    }

    /// - Complexity: O(observers).
    @usableFromInline
    func emit(_ value: Value) {
        entries.withLock { entries in
            for observer in entries.observers.values { observer.yield(value) }
        }
    }

    /// Ends every observer's stream (the owner is going away).
    @usableFromInline
    func finishAll() {
        let observers = entries.withLock { entries in
            defer { entries.observers.removeAll() }
            return Array(entries.observers.values)
        }
        for observer in observers { observer.finish() }
    }
}
