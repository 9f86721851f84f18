/// The hand-shake between `BlockingExecutor.run`, the worker that starts it, and a cancellation: exactly one of
/// "start the body" and "cancel" wins, and the continuation is resumed exactly once. The body's result travels
/// through the lock, not through the continuation, so the ordering is visible to ThreadSanitizer too.
final class PendingRun<Result: Sendable>: Sendable {
    private enum State {
        case initial
        case waiting(CheckedContinuation<Void, Never>)
        case running(CheckedContinuation<Void, Never>)
        case finished(Swift.Result<Result, any Error>)
        /// The caller took the result: nothing here keeps it alive any more (the worker's thread may still hold
        /// this object for a moment after resuming the caller).
        case taken
        case cancelled
    }

    private let state = PlatformLock(State.initial)

    /// Stores the continuation; returns false (having resumed it) if already cancelled.
    func wait(with continuation: CheckedContinuation<Void, Never>) -> Bool {
        let cancelled = state.withLock { state in
            if case .cancelled = state { return true }
            state = .waiting(continuation)
            return false
        }
        if cancelled { continuation.resume() }
        return !cancelled
    }

    /// Runs `body`, unless cancellation won, and returns the caller's wake-up for the worker to perform.
    func start(_ body: @Sendable () throws -> Result) -> (@Sendable () -> Void)? {
        let claimed = state.withLock { state -> Bool in
            guard case .waiting(let continuation) = state else { return false }
            state = .running(continuation)
            return true
        }
        guard claimed else { return nil }
        let result = Swift.Result { try body() }
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never> in
            guard case .running(let continuation) = state else {
                preconditionFailure("Switchyard internal error: a running blocking job changed state")
            }
            state = .finished(result)
            return continuation
        }
        return { continuation.resume() }
    }

    /// Resumes the caller (who then throws `CancellationError`) unless the body already started.
    func cancel() {
        let continuation: CheckedContinuation<Void, Never>? = state.withLock { state in
            switch state {
            case .initial:
                state = .cancelled
                return nil
            case .waiting(let continuation):
                state = .cancelled
                return continuation
            case .running, .finished, .taken, .cancelled:
                return nil
            }
        }
        continuation?.resume()
    }

    /// The outcome, taken by the resumed caller (once): the body's result or error, or `CancellationError`.
    func outcome() throws -> Result {
        try state.withLock { state -> Swift.Result<Result, any Error> in
            guard case .finished(let result) = state else { return .failure(CancellationError()) }
            state = .taken
            return result
        }.get()
    }
}
