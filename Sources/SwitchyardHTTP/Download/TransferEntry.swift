#if HTTP
    import NIOConcurrencyHelpers

    /// One download call's entry in a ``TransferProgress``, shared by the call's hops (see "Redirects" in
    /// ``HTTPSession``): begun when the first hop starts, so that a download waiting for a slot is not active, and
    /// ended once, by the hop that ends the call or by the call itself when it ends between hops.
    ///
    /// Thread-safe; O(1).
    final class TransferEntry: Sendable {
        let progress: TransferProgress
        let name: String
        private let state = NIOLockedValueBox<(identifier: Int?, ended: Bool)>((nil, false))

        init(_ progress: TransferProgress, name: String) {
            self.progress = progress
            self.name = name
        }

        /// The entry's identifier in ``progress``, begun on the first call; nil once the entry has ended.
        func begin() -> Int? {
            // The progress's own lock is taken inside this one, never the reverse.
            state.withLockedValue { state -> Int? in
                if state.ended { return nil }
                if let identifier = state.identifier { return identifier }
                state.identifier = progress.begin(name)
                return state.identifier
            }
        }

        /// Ends the entry, if it began and has not ended; later calls do nothing.
        func end() {
            let identifier = state.withLockedValue { state -> Int? in
                defer { state.ended = true }
                return state.ended ? nil : state.identifier
            }
            if let identifier { progress.end(identifier) }
        }
    }
#endif
