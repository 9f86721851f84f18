#if Dashboard
    /// The viewers of a dashboard and its one snapshot producer, as a pure state machine: every event returns what
    /// the caller must do after releasing the lock that guards the state. `Waiter` is what a viewer parks while it
    /// waits for the next update (a continuation in ``Dashboard``; a plain value in tests).
    ///
    /// Viewers pull: each asks for the first update newer than the last one it took, and gets the latest at once
    /// if there is one, or parks until the next is published. So a viewer that falls behind skips updates and never
    /// holds more than the one it is delivering: memory does not grow with a slow client.
    ///
    /// Contract: at most one producer runs at a time; it runs while at least one viewer is registered (it stops at
    /// the first tick that finds none, and a viewer that arrives after that starts a new one). Every event is O(1)
    /// (publishing hands the whole set of parked waiters over at once).
    struct DashboardHubState<Waiter, Update> {
        /// Registered viewers.
        private(set) var viewerCount = 0
        /// Whether a producer task is running (or has been asked to start).
        private(set) var isProducing = false
        /// The latest update of the running producer, and its generation (counting from 1 per hub).
        private(set) var latest: (generation: UInt64, update: Update)?
        private var generation: UInt64 = 0
        private var waiters: [UInt64: Waiter] = [:]
        /// Waits cancelled before they parked (their cancellation handler ran first).
        private var cancelledEarly: Set<UInt64> = []
        private var nextWaiter: UInt64 = 0

        /// Registers a viewer; returns whether the caller must start a producer task.
        mutating func addViewer() -> Bool {
            viewerCount += 1
            guard !isProducing else { return false }
            isProducing = true
            return true
        }

        /// Unregisters a viewer (after its waits have ended).
        mutating func removeViewer() {
            precondition(viewerCount > 0, "DashboardHubState: more viewers removed than added")
            viewerCount -= 1
        }

        /// A new waiter's identifier, for ``wait(after:identifier:_:)`` and ``cancelWait(_:)``.
        mutating func makeWaiterIdentifier() -> UInt64 {
            nextWaiter += 1
            return nextWaiter
        }

        /// What ``wait(after:identifier:_:)`` asks of the caller.
        enum WaitAction {
            /// Resume the waiter with this update at once.
            case deliver(generation: UInt64, update: Update)
            /// The waiter is parked until the next update (or its cancellation).
            case parked
            /// The wait was cancelled before it parked: resume the waiter empty-handed.
            case cancelled
        }

        /// A viewer that has taken generation `taken` (0: none) asks for the next update.
        mutating func wait(after taken: UInt64, identifier: UInt64, _ waiter: Waiter) -> WaitAction {
            if cancelledEarly.remove(identifier) != nil { return .cancelled }
            if let latest, latest.generation > taken {
                return .deliver(generation: latest.generation, update: latest.update)
            }
            waiters[identifier] = waiter
            return .parked
        }

        /// Ends a parked wait early (its task was cancelled): returns the waiter to resume empty-handed, or nil if it
        /// was already resumed.
        mutating func cancelWait(_ identifier: UInt64) -> Waiter? {
            if let waiter = waiters.removeValue(forKey: identifier) { return waiter }
            cancelledEarly.insert(identifier)
            return nil
        }

        /// Forgets a wait that ended (delivered or cancelled), so a late cancellation leaves no trace.
        mutating func endWait(_ identifier: UInt64) {
            cancelledEarly.remove(identifier)
        }

        /// The producer's question before each snapshot: go on (true), or stop (false: no viewer is left, and the
        /// producer is marked stopped in the same step, so a viewer that arrives next starts a new one).
        mutating func producerShouldContinue() -> Bool {
            precondition(isProducing, "DashboardHubState: a producer ticked while none was running")
            guard viewerCount == 0 else { return true }
            isProducing = false
            latest = nil
            return false
        }

        /// The producer made `update`: returns its generation and the parked waiters to resume with it.
        mutating func published(_ update: Update) -> (generation: UInt64, waiters: [UInt64: Waiter]) {
            generation += 1
            latest = (generation, update)
            let parked = waiters
            waiters = [:]
            return (generation, parked)
        }
    }
#endif

#if Dashboard
    extension DashboardHubState: Sendable where Waiter: Sendable, Update: Sendable {}
#endif
