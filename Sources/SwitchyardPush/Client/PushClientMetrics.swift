#if Push
    import CoreMetrics
    import NIOConcurrencyHelpers
    import NIOCore

    /// The swift-metrics of one ``PushClient`` (the table is in its description), made once, when the client is:
    /// recording one is a call on an object made already, never a lookup by label.
    ///
    /// Thread-safe: the metric objects are the factory's, safe from any thread; the counters of reasons outside
    /// ``PushReason/table`` are made behind a lock of their own, never the client's.
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
        /// Reasons outside the table, made on first use, at most ``unknownReasonLimit``, and the `other` counter
        /// once the limit is reached.
        private let unknownReasons = NIOLockedValueBox<(counters: [PushReason: Counter], other: Counter?)>(([:], nil))
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

        /// The counter of failures for `reason`: the table's, else one made now (under the lock), else `other`.
        /// - Complexity: a dictionary lookup; for a reason outside the table, in one hold of a lock of its own.
        private func counter(for reason: PushReason) -> Counter {
            if let known = knownReasons[reason] { return known }
            return unknownReasons.withLockedValue { made in
                if let counter = made.counters[reason] { return counter }
                // A reason spelt like one of the other results (a server's `delivered`) must not count as it.
                let isReserved = Self.reservedResults.contains(reason.rawValue)
                if !isReserved, made.counters.count < Self.unknownReasonLimit {
                    let counter = Counter(
                        label: Self.resultsLabel, dimensions: [("result", reason.rawValue)], factory: factory)
                    made.counters[reason] = counter
                    return counter
                }
                if let other = made.other { return other }
                let other = Counter(
                    label: Self.resultsLabel, dimensions: [("result", Self.otherResult)], factory: factory)
                made.other = other
                return other
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
