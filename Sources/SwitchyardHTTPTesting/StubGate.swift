#if HTTP || Push
    import NIOConcurrencyHelpers

    /// A gate a held ``StubResponse`` waits behind: the response is sent when the test calls ``open()``, not before.
    ///
    /// Tests use it instead of sleeps: hold a response, assert on what the client does meanwhile (requests recorded,
    /// slots taken, cancellation), then open the gate. Opening is permanent; responses that reach an open gate go on
    /// at once. Thread-safe.
    public final class StubGate: Sendable {
        private let state = NIOLockedValueBox<(isOpen: Bool, waiters: [@Sendable () -> Void], arrived: Int)>(
            (false, [], 0))

        public init() {}

        /// Opens the gate: every held response goes on, and later ones are not held.
        public func open() {
            let waiters = state.withLockedValue { state -> [@Sendable () -> Void] in
                state.isOpen = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter() }
        }

        /// How many responses have reached the gate (held now, or passed since it opened).
        public var arrivals: Int { state.withLockedValue { $0.arrived } }

        /// Runs `proceed` once the gate is open (at once if it is). Called by the server; `proceed` runs outside the lock.
        func pass(_ proceed: @escaping @Sendable () -> Void) {
            let now = state.withLockedValue { state -> Bool in
                state.arrived += 1
                if state.isOpen { return true }
                state.waiters.append(proceed)
                return false
            }
            if now { proceed() }
        }
    }
#endif
