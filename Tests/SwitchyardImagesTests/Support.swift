#if Images
    import NIOConcurrencyHelpers
    import Testing

    /// A gate tasks wait at until the test opens it (no sleeps).
    final class Gate: Sendable {
        private let state = NIOLockedValueBox<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLockedValue { state -> Bool in
                    if state.isOpen { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLockedValue { state in
                state.isOpen = true
                defer { state.waiters = [] }
                return state.waiters
            }
            waiters.forEach { $0.resume() }
        }
    }

    /// Yields until `condition` holds; fails the test if it does not within `rounds` yields (for conditions the
    /// code under test reaches without a timer).
    func yieldUntil(
        _ what: String, rounds: Int = 1_000_000, sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: () -> Bool
    ) async {
        for _ in 0..<rounds {
            if condition() { return }
            await Task.yield()
        }
        Issue.record("never happened: \(what)", sourceLocation: sourceLocation)
    }
#endif
