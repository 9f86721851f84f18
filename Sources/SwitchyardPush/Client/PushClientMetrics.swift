#if Push
    import CoreMetrics
    import NIOConcurrencyHelpers
    import NIOCore

    /// The swift-metrics of one ``PushClient`` (the table is in its description), made once, when the client is:
    /// recording one is a call on an object made already, never a lookup by label.
    ///
    /// Thread-safe: the metric objects are the factory's, safe from any thread; the counters of reasons outside
    /// ``PushReason/table`` are kept behind a lock of their own, never the client's, and made by the factory outside
    /// it (the factory is the application's code).
    final class PushClientMetrics: Sendable {
        static let resultsLabel = "switchyard_push_results_total"
        static let requestsLabel = "switchyard_push_requests_total"
        static let durationLabel = "switchyard_push_request_duration_seconds"
        static let connectionsLabel = "switchyard_push_connections"
        /// How many reasons outside ``PushReason/table`` get a `result` of their own; later ones count as
        /// ``otherResult``. A server's reasons are its text: the cap bounds the series one misbehaving server makes.
        static let unknownReasonLimit = 32
        /// The `result` of a failure whose reason came after ``unknownReasonLimit`` unknown ones, or is spelt like
        /// one of ``reservedResults``.
        static let otherResult = "other"
        /// The results that are not a reason.
        static let reservedResults: Set<String> = ["delivered", "not_sent", "unconfirmed", otherResult]

        private let factory: any MetricsFactory
        private let delivered: Counter
        private let notSent: Counter
        private let unconfirmed: Counter
        /// One per reason of ``PushReason/table``: APNs's documented reasons and the client's own.
        private let knownReasons: [PushReason: Counter]
        /// The failures counted as ``otherResult``.
        private let other: Counter
        /// Reasons outside the table, at most ``unknownReasonLimit``, by the first use of each: nil while the counter
        /// of a reason is being made (its place among the limit is taken already), then the counter.
        private let unknownReasons = NIOLockedValueBox<[PushReason: Counter?]>([:])
        /// HTTP/2 requests begun, retries included.
        let requests: Counter
        /// From a request's write to its answer (``PushConnection/Answer/latency``).
        let requestDuration: CoreMetrics.Timer
        /// Connections open: a meter (swift-metrics' gauge that goes up and down), moved by one per opening and
        /// closing, so that the clients sharing a factory add up instead of overwriting one another's count.
        private let connections: Meter

        init(factory: any MetricsFactory) {
            self.factory = factory
            func result(_ value: String) -> Counter {
                Counter(label: PushClientMetrics.resultsLabel, dimensions: [("result", value)], factory: factory)
            }
            delivered = result("delivered")
            notSent = result("not_sent")
            unconfirmed = result("unconfirmed")
            other = result(PushClientMetrics.otherResult)
            var known: [PushReason: Counter] = [:]
            for reason in PushReason.table.keys { known[PushReason(rawValue: reason)] = result(reason) }
            knownReasons = known
            requests = Counter(label: PushClientMetrics.requestsLabel, factory: factory)
            requestDuration = CoreMetrics.Timer(
                label: PushClientMetrics.durationLabel, preferredDisplayUnit: .seconds, factory: factory)
            connections = Meter(label: PushClientMetrics.connectionsLabel, factory: factory)
        }

        /// Counts how `outcome` ended a notification.
        func record(_ outcome: PushResult.Outcome) {
            switch outcome {
            case .delivered: delivered.increment()
            case .notSent: notSent.increment()
            case .unconfirmed: unconfirmed.increment()
            case .failed(let failure): counter(for: failure.reason).increment()
            }
        }

        /// The counter of failures for `reason`: the table's; else the one made for it at its first use, while
        /// fewer than ``unknownReasonLimit`` reasons have one; else `other` (also for a reason spelt like one of
        /// ``reservedResults``).
        ///
        /// A reason's counter is made by the factory outside the lock: its place among the limit is taken first,
        /// under the lock, then the counter made, then kept under the lock. Threads that meet a new reason at once
        /// may each make a counter for it (the same label and dimensions); the first kept is the one used.
        /// - Complexity: a dictionary lookup; for a reason outside the table, one hold of a lock of its own (two, and
        ///   the factory's call between them, at a reason's first use).
        private func counter(for reason: PushReason) -> Counter {
            if let known = knownReasons[reason] { return known }
            // A reason spelt like one of the other results (a server's `delivered`) must not count as it.
            if Self.reservedResults.contains(reason.rawValue) { return other }
            enum Found {
                case counter(Counter)
                case make
                case full
            }
            let found = unknownReasons.withLockedValue { made -> Found in
                switch made[reason] {
                case .some(.some(let counter)): return .counter(counter)
                case .some(.none): return .make  // being made by another thread: make one too, the first kept wins
                case .none:
                    guard made.count < Self.unknownReasonLimit else { return .full }
                    made[reason] = .some(nil)  // its place, taken
                    return .make
                }
            }
            switch found {
            case .counter(let counter): return counter
            case .full: return other
            case .make:
                let counter = Counter(
                    label: Self.resultsLabel, dimensions: [("result", reason.rawValue)], factory: factory)
                return unknownReasons.withLockedValue { made in
                    if case .some(.some(let first)) = made[reason] { return first }
                    made[reason] = .some(counter)
                    return counter
                }
            }
        }

        /// Records an answered request's ``PushConnection/Answer/latency``.
        func recordDuration(_ latency: TimeAmount) {
            requestDuration.recordNanoseconds(max(0, latency.nanoseconds))
        }

        /// A connection opened.
        func connectionOpened() {
            connections.increment()
        }

        /// A connection that opened closed.
        func connectionClosed() {
            connections.decrement()
        }
    }
#endif
