/// A one-shot, thread-safe wake-up for a single waiting task.
///
/// ``fire(_:)`` may be called any number of times from any thread, before or after ``wait()``
/// started; the first call decides the value that ``wait()`` returns, later calls are ignored.
/// Cancelling the waiting task fires ``Event/cancelled``. ``wait()`` must be called at most once.
final class WaitSignal: Sendable {
    /// Why the waiting task was woken.
    enum Event: Sendable {
        /// The condition the waiter watches became decisive.
        case conditionMet
        /// The waiting task was cancelled.
        case cancelled
    }

    private enum State {
        /// Neither fired nor waited on.
        case idle
        /// A task is suspended in ``wait()``.
        case waiting(CheckedContinuation<Event, Never>)
        /// Fired before anybody waited; ``wait()`` returns the value immediately.
        case fired(Event)
        /// The value has been delivered.
        case finished
    }

    private let state = LockedState(State.idle)

    /// Whether ``fire(_:)`` has been called (or the waiter was cancelled).
    var hasFired: Bool {
        state.withLock { state in
            if case .idle = state { return false }
            if case .waiting = state { return false }
            return true
        }
    }

    /// Wakes the waiter with `event` if nothing woke it before. Never blocks beyond the lock.
    func fire(_ event: Event) {
        let continuation = state.withLock { state -> CheckedContinuation<Event, Never>? in
            switch state {
            case .idle:
                state = .fired(event)
                return nil
            case .waiting(let continuation):
                state = .finished
                return continuation
            case .fired, .finished:
                return nil
            }
        }
        continuation?.resume(returning: event)
    }

    /// Suspends until ``fire(_:)`` is called or the current task is cancelled, and returns the first
    /// event fired.
    func wait() async -> Event {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Event, Never>) in
                let ready = state.withLock { state -> Event? in
                    switch state {
                    case .idle:
                        state = .waiting(continuation)
                        return nil
                    case .fired(let event):
                        state = .finished
                        return event
                    case .waiting, .finished:
                        preconditionFailure("WaitSignal.wait() called more than once")
                    }
                }
                if let ready {
                    continuation.resume(returning: ready)
                }
            }
        } onCancel: {
            fire(.cancelled)
        }
    }
}
