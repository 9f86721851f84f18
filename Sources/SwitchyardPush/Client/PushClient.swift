#if Push
    import CoreMetrics
    import Logging
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix
    import NIOSSL
    import Switchyard
    import SwitchyardNetworking

    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    /// Sends notifications to APNs over HTTP/2: batches of any size as jobs of a `WorkQueue` (``queue``, or
    /// ``resultsQueue`` for ``results(of:total:buffering:)``), over a few connections used to their servers' stream
    /// limits.
    ///
    /// ```swift
    /// let key = try PushSigningKey.load(file: "AuthKey_KEY1234567.p8", keyID: "KEY1234567", teamID: "TEAM123456")
    /// let client = PushClient(key: key, bundleID: "org.example.app", configuration: .init(endpoint: .sandbox))
    /// let summary = try await client.send(notifications) { result in
    ///     if case .failed(let failure) = result.outcome, failure.disposition == .unregistered { forget(result.deviceToken) }
    /// }
    /// await client.shutdown()
    /// ```
    ///
    /// - **Connections**: at most ``Configuration/connections``, opened as senders need them; each takes as many
    ///   streams as its server allows (`SETTINGS_MAX_CONCURRENT_STREAMS`; one until a request succeeded, as APNs
    ///   wants), up to ``Configuration/streamsPerConnection``. When every stream is busy, senders wait in order: a
    ///   batch never has more requests in flight than the connections allow. A connection that receives `GOAWAY`
    ///   takes no new streams and closes when its streams are done; a lost one is replaced. The streams begun in one
    ///   turn of a connection's event loop leave in one write.
    /// - **Provider tokens**: signed when needed and replaced every 50 minutes (``ProviderTokenSchedule``); after
    ///   `ExpiredProviderToken`, replaced if at least 20 minutes old, else the notification waits until it may be.
    /// - **Retries**: an answer whose ``PushReason/Disposition`` is `retry` (429, 500, 503, an expired token, an idle
    ///   connection), a stream left unanswered by a closing connection, or a timeout, is sent again after a backoff
    ///   (exponential, with jitter), up to ``Configuration/attempts`` requests, with the same `apns-id`. A
    ///   notification APNs answered 200 is never sent again.
    /// - **Checks first**: a notification ``PushNotification/problem`` finds wrong fails without a request.
    /// - **Cancellation**: cancelling the task that awaits ``send(_:total:onResult:)`` stops the batch: no new
    ///   request starts, requests in flight are reset, and their notifications end, unless their answer arrived
    ///   first, as ``PushResult/Outcome/unconfirmed`` when a request was written (APNs may have delivered it), or as
    ///   ``PushResult/Outcome/notSent`` when none was, like those never begun.
    /// - **Connection failures**: opening a connection fails the senders waiting for it when nothing else is open
    ///   (``PushReason/unreachable``, or ``PushReason/untrustedCertificate``, permanent, when the server's certificate
    ///   is refused); the next opening waits a backoff that doubles with each failure in a row
    ///   (``Configuration/backoff`` up to ``Configuration/maximumBackoff``). One TLS context, made once on
    ///   `BlockingExecutor`, serves every connection.
    /// - **Results**: `onResult` runs once per notification, on the batch's job, one call at a time, in completion
    ///   order (not submission order); it must be quick and must not block. ``results(of:total:buffering:)`` gives the
    ///   same results as an asynchronous sequence, with back-pressure.
    ///
    /// Thread-safe. Call ``shutdown()`` when done: it closes the connections. Or run the client as a
    /// swift-service-lifecycle `Service` (``run()``): it shuts down when its `ServiceGroup` does, after its batches.
    ///
    /// ## Metrics
    ///
    /// Reported to the `metricsFactory` given at init (by default the one `MetricsSystem.bootstrap` installed); the
    /// metric objects are made once, with the client:
    ///
    /// | label | kind | what |
    /// |---|---|---|
    /// | `switchyard_push_results_total` | counter, dimension `result` | notifications ended, each once: `delivered`; the reason's raw value for a failure (APNs's, such as `BadDeviceToken`, `Unregistered`, `TooManyRequests`, or the client's own: `PayloadNotJSON`, `Unreachable`, `UntrustedCertificate`, `NoAnswer`); `not_sent`; `unconfirmed` |
    /// | `switchyard_push_requests_total` | counter | HTTP/2 requests begun (a stream asked for, with a signed token), retries included |
    /// | `switchyard_push_request_duration_seconds` | timer | an answered request's time, from its write completing to the answer's end |
    /// | `switchyard_push_connections` | gauge (a `Meter`, moved by ±1: clients sharing a factory add up) | connections open (usable, or finishing their streams after `GOAWAY`) |
    ///
    /// A failure's `result` is its reason as the server wrote it: reasons outside ``PushReason/table`` get a series
    /// of their own for the first 32 of them per client, then count as `other` (as does a reason spelt like one of
    /// the other results). A notification that ended without a
    /// request (refused by ``PushNotification/problem``, no connection, cancelled) counts in the results, not in the
    /// requests.
    ///
    /// ## Logs
    ///
    /// To the `logger` given at init (nil: no lines, and nothing is built for them). Every line carries
    /// `apns_host` (`host:port`); never the signing key, a provider token or a payload.
    ///
    /// | event | level | metadata |
    /// |---|---|---|
    /// | `connection opened`, `connection closed` | debug | `connection` |
    /// | `connection failed to open` | error for ``PushReason/untrustedCertificate`` (permanent), else warning | `connection`, `reason`, `error` |
    /// | `connection opening backs off` | debug | `failures` (in a row), `delay` |
    /// | `GOAWAY received` | notice | `connection`, `last_stream_id`, `error_code`, `reason` (the frame's debug data) |
    /// | `provider token signed` | debug | `key_id`, `issued_at` |
    /// | `provider token could not be signed` | error | `key_id`, `error` |
    /// | `provider token refused as expired; replaced` | notice | `key_id`, `issued_at` |
    /// | `notification delivered` | trace | `apns_id`, `device_token`, `attempts` |
    /// | `request failed; retrying` | trace | `apns_id`, `device_token`, `reason`, `attempts` |
    /// | `notification failed` | debug | `apns_id`, `device_token`, `reason`, `status`, `attempts`, `error` (the failure's detail, if any) |
    /// | `device token unregistered` | debug | as `notification failed`, and `timestamp` (when APNs learned it) |
    /// | `notification unconfirmed` | debug | `apns_id`, `device_token`, `attempts` |
    /// | `push batch finished` | warning when a notification failed for a reason other than an unregistered device, or is unconfirmed; else debug | `batch`, `delivered`, `failed`, `not_sent`, `unconfirmed`, `requests`, `failures` (count by reason, most first) |
    ///
    /// `device_token` is the token's first 8 hexadecimal digits: enough to find a device in the app's own records,
    /// not enough to send to it. Per-notification lines are `debug` or `trace` (a batch may hold millions); the
    /// batch's `warning` sums them up.
    public final class PushClient: Sendable {
        /// Where and how to connect, and the retry and timeout policies.
        public struct Configuration: Sendable {
            /// APNs's servers, or another (a mock, a proxy).
            public enum Endpoint: Sendable, Hashable {
                /// `api.push.apple.com:443`.
                case production
                /// `api.sandbox.push.apple.com:443`: development builds of the app.
                case sandbox
                case custom(host: String, port: Int)

                var host: String {
                    switch self {
                    case .production: "api.push.apple.com"
                    case .sandbox: "api.sandbox.push.apple.com"
                    case .custom(let host, _): host
                    }
                }

                var port: Int {
                    if case .custom(_, let port) = self { return port }
                    return 443
                }
            }

            public var endpoint: Endpoint
            /// The most connections open at once.
            public var connections: Int
            /// The most requests in flight on one connection, below the server's own limit (APNs allows 1,000).
            /// Requests beyond what a connection's flow-control window lets through at once wait inside the HTTP/2
            /// layer, at a cost that grows with their number; 500 keeps a 64 KiB window (HTTP/2's default) busy
            /// without that queue. Raise it for a far server: throughput per connection is about this many requests
            /// per round trip.
            public var streamsPerConnection: Int
            /// TLS for the connections (the system's trust store by default; a test passes its mock's authority).
            /// Made into one context, at the first connection's opening, shared by every connection.
            public var tls: TLSConfiguration
            /// Requests per notification at most, retries included.
            public var attempts: Int
            /// The first retry's delay; each later one doubles it, up to ``maximumBackoff``, with ±50% jitter. Also
            /// the delay before a connection is opened again after an opening failed, doubled per failure in a row.
            public var backoff: Duration
            public var maximumBackoff: Duration
            /// How long a request may wait for its answer.
            public var requestTimeout: Duration
            /// How long opening a connection may take: TCP's connection, then again the TLS handshake and the
            /// server's HTTP/2 settings.
            public var connectTimeout: Duration
            /// The clock backoffs sleep on.
            public var clock: any Clock<Duration>
            /// The time a provider token is issued at, in seconds since 1970 (a test drives it from its clock).
            public var wallTime: @Sendable () -> Int
            public var eventLoopGroup: any EventLoopGroup

            public init(
                endpoint: Endpoint = .production, connections: Int = 2, streamsPerConnection: Int = 500,
                tls: TLSConfiguration = .makeClientConfiguration(), attempts: Int = 5,
                backoff: Duration = .milliseconds(250),
                maximumBackoff: Duration = .seconds(30), requestTimeout: Duration = .seconds(30),
                connectTimeout: Duration = .seconds(10), clock: any Clock<Duration> = ContinuousClock(),
                wallTime: @escaping @Sendable () -> Int = { Int(Date().timeIntervalSince1970) },
                eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
            ) {
                precondition(
                    connections >= 1 && streamsPerConnection >= 1 && attempts >= 1,
                    "PushClient: at least one connection, one stream and one attempt")
                self.endpoint = endpoint
                self.connections = connections
                self.streamsPerConnection = streamsPerConnection
                self.tls = tls
                self.attempts = attempts
                self.backoff = backoff
                self.maximumBackoff = maximumBackoff
                self.requestTimeout = requestTimeout
                self.connectTimeout = connectTimeout
                self.clock = clock
                self.wallTime = wallTime
                self.eventLoopGroup = eventLoopGroup
            }
        }

        public let bundleID: String
        public let configuration: Configuration
        let key: PushSigningKey
        /// The batches of ``send(_:total:onResult:)`` run as its jobs: at most its `width` at once (by default the
        /// number of processors), the others waiting their turn. Such a batch never waits for a reader, so it always
        /// ends, and its slot goes to the next.
        public let queue: WorkQueue
        /// The batches of ``results(of:total:buffering:)`` run as its jobs, every one at once: its width is
        /// unlimited, since a batch paused until its reader takes a result keeps its job running for as long as the
        /// reader waits. A width would let that many unread sequences hold every slot, and the batches after them
        /// (whose results the same readers may wait for) would never start.
        public let resultsQueue: WorkQueue
        let state: NIOLockedValueBox<PushClientState>
        /// Where the client logs (with `apns_host` set), or nil.
        let logger: Logger?
        let metrics: PushClientMetrics
        /// `host:port` of ``Configuration/endpoint``.
        let server: String

        /// A client for the app `bundleID` (topics are it plus each push type's suffix), signing with `key`.
        ///
        /// - Parameters:
        ///   - key: the signing key of the provider tokens.
        ///   - bundleID: the app's bundle ID, the topic of its notifications.
        ///   - configuration: the server, connections, attempts, backoff and timeouts.
        ///   - logger: where the client logs (see the type's table), or nil for no log lines.
        ///   - metricsFactory: where the client's metrics go (see the type's table); by default the factory
        ///     `MetricsSystem.bootstrap` installed. The metrics are made here, once.
        public init(
            key: PushSigningKey, bundleID: String, configuration: Configuration = Configuration(),
            logger: Logger? = nil, metricsFactory: any MetricsFactory = MetricsSystem.factory
        ) {
            self.key = key
            self.bundleID = bundleID
            self.configuration = configuration
            self.queue = WorkQueue(name: "push \(bundleID)")
            self.resultsQueue = WorkQueue(name: "push results \(bundleID)", width: .max)
            self.state = NIOLockedValueBox(PushClientState(maximumConnections: configuration.connections))
            let server = ConnectionFailure.place(host: configuration.endpoint.host, port: configuration.endpoint.port)
            self.server = server
            self.logger = logger.map { given in
                var logger = given
                logger[metadataKey: "apns_host"] = "\(server)"
                return logger
            }
            self.metrics = PushClientMetrics(factory: metricsFactory)
        }

        /// Closes every connection, and opens none after it (not even one being opened when it is called: that one
        /// closes as it opens). Sends after it fail with ``PushReason/unreachable``, as do the senders waiting for a
        /// stream. Batches still running are not waited for (``run()`` waits for them on a graceful shutdown): their
        /// requests in flight end unanswered, and their notifications fail as ``PushReason/unreachable``
        /// (``PushReason/noAnswer`` when it was their last attempt), though APNs may have delivered those whose
        /// request was written. Calling it again does nothing more.
        public func shutdown() async {
            let (connections, waiting) = state.withLockedValue { state in
                state.isShutDown = true
                state.pool.shutDown()
                let waiting = Array(state.waiting.values)
                state.waiting = [:]
                let connections = Array(state.connections.values)
                state.connections = [:]
                state.earlyLimits = [:]
                return (connections, waiting)
            }
            for connection in connections { connection.close() }
            for continuation in waiting {
                continuation.resume(
                    throwing: PushFailure(reason: .unreachable, status: 0, detail: "the client was shut down"))
            }
        }
    }

    /// The client's mutable state, behind its lock.
    struct PushClientState: Sendable {
        var pool: PushPoolState
        var connections: [Int: PushConnection] = [:]
        /// A limit a connection reported before its opening finished.
        var earlyLimits: [Int: Int] = [:]
        /// The senders waiting for a stream, from their registration until they are granted one, fail, or are
        /// cancelled.
        var waiting: [Int: CheckedContinuation<PushConnection, any Error>] = [:]
        var nextSender = 1
        var lastOpenError: (any Error)?
        /// The connections' TLS context, once made (``PushClient/tlsContext()``), and how many were made.
        var tlsContext: NIOSSLContext?
        var tlsContextsMade = 0
        /// Senders to fail at the end of the current decision (the client is shut down).
        var failing: [CheckedContinuation<PushConnection, any Error>] = []
        var tokens = ProviderTokenSchedule()
        /// Senders waiting for the token being signed (``ProviderTokenSchedule/Decision/wait``), resumed when the
        /// signer reports.
        var tokenWaiters: [CheckedContinuation<Void, Never>] = []
        var isShutDown = false

        init(maximumConnections: Int) {
            pool = PushPoolState(maximumConnections: maximumConnections)
        }
    }
#endif
