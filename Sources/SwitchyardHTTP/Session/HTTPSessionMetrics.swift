#if HTTP
    import CoreMetrics

    /// The swift-metrics of one ``HTTPSession`` (the table is in its description), made once, with the session:
    /// recording one is a call on an object made already, never a lookup by label, and allocates nothing (with no
    /// metrics backend bootstrapped, each call does nothing).
    ///
    /// Every metric has the dimension `session` (``HTTPSession/Configuration/name``) and no other but a request's
    /// status class: never a host, a URL or a status code, whose values a session cannot bound (a crawler talks to a
    /// million hosts).
    ///
    /// Thread-safe: the metric objects are the factory's, safe from any thread; this type holds no state of its own.
    final class HTTPSessionMetrics: Sendable {
        static let requestsLabel = "switchyard_http_requests_total"
        static let durationLabel = "switchyard_http_request_duration_seconds"
        static let retriesLabel = "switchyard_http_retries_total"
        static let bytesLabel = "switchyard_http_bytes_received_total"
        static let inFlightLabel = "switchyard_http_requests_in_flight"
        /// The values of ``requestsLabel``'s `status` dimension, indexed by ``statusClassIndex(of:)``.
        static let statusClasses = ["1xx", "2xx", "3xx", "4xx", "5xx", "error"]

        /// One counter per entry of ``statusClasses``, in its order: all six made with the session.
        private let requests: [Counter]
        /// An attempt's time, from its start to its end.
        let requestDuration: CoreMetrics.Timer
        /// Retries scheduled.
        let retries: Counter
        /// Response body bytes received.
        let bytesReceived: Counter
        /// Calls between their start and their end.
        let inFlight: Meter

        /// The metrics of the session named `session`, made with `factory`.
        init(session: String, factory: any MetricsFactory) {
            let name = ("session", session)
            requests = HTTPSessionMetrics.statusClasses.map {
                Counter(label: HTTPSessionMetrics.requestsLabel, dimensions: [name, ("status", $0)], factory: factory)
            }
            requestDuration = CoreMetrics.Timer(
                label: HTTPSessionMetrics.durationLabel, dimensions: [name], preferredDisplayUnit: .seconds,
                factory: factory)
            retries = Counter(label: HTTPSessionMetrics.retriesLabel, dimensions: [name], factory: factory)
            bytesReceived = Counter(label: HTTPSessionMetrics.bytesLabel, dimensions: [name], factory: factory)
            inFlight = Meter(label: HTTPSessionMetrics.inFlightLabel, dimensions: [name], factory: factory)
            inFlight.set(0)
        }

        /// Counts an attempt that ended after `elapsed`: with a response of `status`, or, when `status` is nil, with
        /// none. - Complexity: O(1).
        func recordAttempt(status: Int?, _ elapsed: Duration) {
            requests[Self.statusClassIndex(of: status)].increment()
            requestDuration.recordNanoseconds(Self.nanoseconds(elapsed))
        }

        /// Counts `count` bytes of a response body received (nothing for none).
        func recordBytes(_ count: Int) {
            if count > 0 { bytesReceived.increment(by: count) }
        }

        /// The index in ``statusClasses`` of `status`: its class for 100–599, `error` for no response (nil) or a
        /// status outside HTTP's range.
        static func statusClassIndex(of status: Int?) -> Int {
            guard let status, (100..<600).contains(status) else { return statusClasses.count - 1 }
            return status / 100 - 1
        }

        /// `duration` in whole nanoseconds (a timer's unit).
        static func nanoseconds(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
        }
    }
#endif
