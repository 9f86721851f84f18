#if Dashboard
    /// The snapshots of a ``Dashboard`` while someone watches: see ``Dashboard/updates()``.
    ///
    /// Each iterator is one viewer: registered when it is made, unregistered when it is destroyed. It yields the
    /// latest snapshot at once (or the first read, if the producer is just starting), then each newer one as it is
    /// published; a consumer slower than the interval gets the newest snapshot each time it asks, skipping those
    /// published meanwhile. The sequence ends when the iterating task is cancelled.
    public struct DashboardUpdates: AsyncSequence, Sendable {
        public typealias Element = DashboardSnapshot
        let dashboard: Dashboard

        public func makeAsyncIterator() -> Iterator { Iterator(viewer: DashboardViewer(dashboard)) }

        public struct Iterator: AsyncIteratorProtocol {
            let viewer: DashboardViewer

            public mutating func next() async -> DashboardSnapshot? { await viewer.next()?.snapshot }
        }
    }

    /// One viewer's registration and the generation it last took. Unregisters when destroyed. Used by one task at a
    /// time (an iterator's, or an events stream's).
    final class DashboardViewer: @unchecked Sendable {
        // @unchecked: `taken` is read and written only by the one task that iterates this viewer (the contract of
        // an AsyncIteratorProtocol value, and of the events route's handler); `dashboard` is immutable.
        // DashboardEventsTests.oneProducerForAllViewersOnlyWhileSomeoneWatches runs 20 viewers in as many tasks,
        // under Thread Sanitizer in CI.
        private let dashboard: Dashboard
        private var taken: UInt64 = 0

        init(_ dashboard: Dashboard) {
            self.dashboard = dashboard
            dashboard.addViewer()
        }

        deinit { dashboard.removeViewer() }

        /// The next update newer than the last one taken, or nil when the task is cancelled.
        func next() async -> DashboardUpdate? {
            guard let (generation, update) = await dashboard.next(after: taken) else { return nil }
            taken = generation
            return update
        }
    }
#endif
