#if HTTP
    import AsyncHTTPClient
    import CoreMetrics
    import Logging
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOHTTP1
    import NIOSSL
    import Switchyard
    import Synchronization
    import Tracing

    /// HTTP requests as jobs of the work engine: per-host limits under a global width, priorities with escalation,
    /// coalescing of identical requests, cancellation, timeouts, retries with backoff, bodies in fixed memory and
    /// resumable downloads. Built on AsyncHTTPClient (TLS with the system's trust store, HTTP/1.1 and HTTP/2).
    ///
    /// ```swift
    /// let session = HTTPSession(configuration: .init(name: "feeds"))
    /// let response = try await session.data(for: HTTPRequest(url: "https://example.org/stops.txt"))
    /// let file = try await session.download(HTTPRequest(url: feedURL), to: "/tmp/feed.zip")
    /// try await session.shutdown()
    /// ```
    ///
    /// ## Scheduling
    /// Each host (scheme, name and port) has a `WorkQueue` named `http <host>` of width
    /// ``Configuration/maximumRequestsPerHost`` (or the host's entry in ``Configuration/hostLimits``), all under one
    /// `LimitDomain` of width ``Configuration/maximumConcurrentRequests``. A request is a job of its host's queue: it
    /// waits for a slot there and in the domain (a snapshot says which), higher priorities first, FIFO within one.
    /// A request holds its slot from its first attempt to its last byte, retry waits included. A job is named by its
    /// request's ``HTTPRequest/name``, or `<METHOD> <URL>`, the URL without its user information, query and
    /// fragment (as a log line shows it): snapshots and events show job names, and so may the log lines of a
    /// service that watches the queue.
    ///
    /// A host's queue and coalescer exist while the host is in use (a call waits for or runs a request to it, or a
    /// shared exchange finishes after its callers left) and are dropped when its last request ends, in O(1): a
    /// session that has talked to a million hosts keeps the queues of the hosts it talks to now.
    /// ``queue(forHost:port:scheme:)`` returns a host's queue while the host is in use, and nil otherwise.
    ///
    /// ## Redirects
    /// A `301`, `302`, `303`, `307` or `308` with a `location` is followed, up to ``Configuration/maximumRedirects``
    /// times, each hop a job of the queue of the host it goes to: a hop's job ends (freeing its host's slot) before
    /// the next one waits for a slot of its own host, so each host counts the hops it serves against its own limit. A
    /// `303` turns the request into a `GET` without a body, and so do a `301` and a `302` a `POST`; a hop to another
    /// origin leaves out `authorization`, `proxy-authorization`, `cookie` and `origin`. Each hop has its own
    /// attempts (retries); the total timeout bounds them all. A redirect back to a URL the call visited, or past
    /// the limit, fails with ``HTTPError/Reason/failed(_:)``. Responses and errors name the URL the caller asked for
    /// (errors without its user information, query and fragment, as they name every URL).
    /// Identical coalesced callers share each hop: the redirect reaches all of them, and they join one exchange of
    /// the next hop.
    ///
    /// ## Coalescing
    /// `GET` and `HEAD` requests without a body read by ``data(for:)`` are coalesced: while one is in flight, an
    /// identical one (same method, URL, header fields, status requirement and size limit) waits for the same exchange
    /// instead of starting another; the shared job is named `<name> shared <METHOD> <URL>`, the URL without its
    /// user information, query and fragment. A caller that leaves (its task cancelled, its total timeout) leaves
    /// alone; the exchange is cancelled when the last caller leaves. Streams and downloads are never coalesced (each
    /// has its own consumer).
    ///
    /// ## Cancellation
    /// Cancelling the calling task (or a ``HTTPTask``) cancels the request at once: a waiting one never starts, a
    /// running one's connection (HTTP/1.1) or stream (HTTP/2) is closed and its slot freed (a download's slot once its
    /// last buffered bytes are written). A cancelled call throws ``HTTPError`` with ``HTTPError/Reason/cancelled``,
    /// even if its exchange finished as it was cancelled: never a late value.
    ///
    /// Thread-safe. Call ``shutdown()`` before the last reference goes (it ends the client's connections); the calls
    /// it ends, and every call after it, throw ``HTTPError`` with ``HTTPError/Reason/sessionShutDown``: a call made
    /// as it runs is either one it ends (and waits for) or one refused before its request is queued. Or run the
    /// session as a swift-service-lifecycle `Service` (``run()``): it shuts down when its `ServiceGroup` does.
    ///
    /// ## Metrics
    ///
    /// Reported to the `metricsFactory` given at init (by default the one `MetricsSystem.bootstrap` installed); the
    /// metric objects are made once, with the session, so a request records into objects that exist already. Every
    /// metric has the dimension `session` (``Configuration/name``); none has a host or a URL, whose values no session
    /// can bound.
    ///
    /// | label | kind | what |
    /// |---|---|---|
    /// | `switchyard_http_requests_total` | counter, dimension `status` | attempts that ended, each once: by the class of its response's status (`1xx`, `2xx`, `3xx`, `4xx`, `5xx`) once the response's head arrived (even if the body then broke off), else `error` (a connection refused, or broken before the head; a timeout; a TLS failure); a status outside 100–599 counts as `error`. Every attempt counts: a `503` retried to a `200` is one `5xx` and one `2xx`, a redirect's hop one `3xx`. An attempt ended by a cancellation (its caller's, a total timeout's, the shutdown's) is not counted |
    /// | `switchyard_http_request_duration_seconds` | timer | each counted attempt's time, from its request to its end: the body read whole, a stream's consumer returned, a download's file in place |
    /// | `switchyard_http_retries_total` | counter | retries scheduled (each wait before another attempt) |
    /// | `switchyard_http_bytes_received_total` | counter | response body bytes: a buffered body once read whole, a streamed body's buffers as the consumer reads them, a download's as they arrive (a resumed download counts what it fetched, not what was on disk) |
    /// | `switchyard_http_requests_in_flight` | gauge (a `Meter`) | calls of ``data(for:)``, ``stream(_:_:)`` and ``download(_:to:ifChanged:checksum:progress:resumesPartialFile:syncsToDisk:)`` between their start and their end, waiting for a slot or a retry included; coalesced callers count one each |
    ///
    /// The six `switchyard_http_requests_total` series exist from the session's start (at zero). An attempt is recorded
    /// (and logged) before the call it belongs to returns or throws.
    ///
    /// ## Logs
    ///
    /// To the `logger` given at init (nil, the default: no lines, and nothing is built for them). Every line carries
    /// `http_session` (``Configuration/name``); `http_url` is the URL without its user information, query and
    /// fragment, and a `reason` the session words names a URL the same way. No line carries a header field's value
    /// or a body. AsyncHTTPClient gets no logger: its trace lines would show whole response heads.
    ///
    /// | event | level | metadata |
    /// |---|---|---|
    /// | `request finished`: an attempt received a response (each attempt, each redirect hop) | debug | `http_method`, `http_url` (the hop's), `http_status`, `attempt` (of its hop), `duration` (the attempt's) |
    /// | `retry scheduled` | notice | `http_method`, `http_url`, `attempt` (the one that failed), `reason`, `delay`, `http_status` (when a status is the reason) |
    /// | `request failed`: a call failed for good | warning | `http_method`, `http_url` (the call's), `reason` (the ``HTTPError/Reason``), `attempt` (failed attempts of the last hop), `duration` (the call's), `http_status` (when a status is the reason) |
    /// | `request cancelled`: a call ended as ``HTTPError/Reason/cancelled`` or ``HTTPError/Reason/sessionShutDown`` | debug | as `request failed` |
    /// | `download resumed` | info | `http_method`, `http_url`, `resumed_from` (bytes), `size`, `duration` (the call's) |
    /// | `download unchanged` (a `304`) | info | `http_method`, `http_url`, `http_status`, `size`, `duration` |
    /// | `download checksum mismatch; downloading it again in full` (a resumed file) | warning | `http_method`, `http_url`, `resumed_from`, `reason` |
    /// | `HTTP session shut down` | info | |
    ///
    /// A complete download whose checksum does not match fails for good: its `request failed` line says so. A call
    /// whose URL cannot be requested throws before anything is logged or counted.
    public final class HTTPSession: Sendable {
        /// A session's settings.
        public struct Configuration: Sendable {
            /// The name of the limit domain and the prefix of the host queues' names.
            public var name: String
            /// The most requests running at once, over all hosts.
            public var maximumConcurrentRequests: Int
            /// The most requests running at once to one host (6, as browsers do).
            public var maximumRequestsPerHost: Int
            /// Per-host widths that replace ``maximumRequestsPerHost``, keyed by host name (`example.org`, any case).
            public var hostLimits: [String: Int]
            /// Connect and idle timeouts, and the default total bound.
            public var timeouts: HTTPTimeouts
            /// When failed attempts are repeated.
            public var retry: HTTPRetryPolicy
            /// The largest body read into memory or accepted by a stream, unless a request says otherwise (64 MiB).
            /// Downloads to a file have no limit unless the request sets one.
            public var maximumResponseSize: Int
            /// The most redirects a call follows (10 by default; see "Redirects"); 0 follows none: a redirect's
            /// response is then the call's response.
            public var maximumRedirects: Int
            /// The clock retry waits and total timeouts run on; tests pass a `ManualClock`.
            public var clock: any Clock<Duration>
            /// Where the random part of retry waits comes from (a fraction in 0..<1); tests pass a fixed one.
            public var randomFraction: @Sendable () -> Double

            public init(
                name: String = "http", maximumConcurrentRequests: Int = 64, maximumRequestsPerHost: Int = 6,
                hostLimits: [String: Int] = [:], timeouts: HTTPTimeouts = HTTPTimeouts(),
                retry: HTTPRetryPolicy = HTTPRetryPolicy(), maximumResponseSize: Int = 64 << 20,
                maximumRedirects: Int = 10, clock: any Clock<Duration> = ContinuousClock(),
                randomFraction: @escaping @Sendable () -> Double = {
                    Double.random(in: 0..<1)
                }
            ) {
                precondition(maximumConcurrentRequests >= 1, "HTTPSession: maximumConcurrentRequests must be ≥ 1")
                precondition(maximumRequestsPerHost >= 1, "HTTPSession: maximumRequestsPerHost must be ≥ 1")
                precondition(maximumRedirects >= 0, "HTTPSession: maximumRedirects must be ≥ 0")
                self.name = name
                self.maximumConcurrentRequests = maximumConcurrentRequests
                self.maximumRequestsPerHost = maximumRequestsPerHost
                self.hostLimits = hostLimits
                self.timeouts = timeouts
                self.retry = retry
                self.maximumResponseSize = maximumResponseSize
                self.maximumRedirects = maximumRedirects
                self.clock = clock
                self.randomFraction = randomFraction
            }
        }

        /// The session's settings.
        public let configuration: Configuration
        /// The domain every host queue's width counts against.
        public let limit: LimitDomain
        let client: HTTPClient
        /// Set once, by ``shutdown()``, before it cancels anything, under the lock of ``lanes`` as it shuts them down:
        /// read without a lock for a call's fast refusal; the lanes' refusal is the one that counts.
        let shutDown = Atomic<Bool>(false)
        /// The lanes of the hosts in use (see ``HostLanes``).
        let lanes = NIOLockedValueBox(HostLanes<HostLane>())
        /// ``Configuration/hostLimits`` by lower-cased host name (the narrower of two spellings of one name).
        let hostWidths: [String: Int]
        /// Where the session logs (with `http_session` set), or nil.
        let logger: Logger?
        let metrics: HTTPSessionMetrics
        /// The idle timeout of every request (see ``IdleSweeper``): the client's own read timer is off.
        let idleSweeper: IdleSweeper

        /// A session with its own AsyncHTTPClient, configured from `configuration` (and, for TLS, from
        /// `tlsConfiguration`, by default the system's trust store). Requests are traced as AsyncHTTPClient traces
        /// them, with the tracer bootstrapped (swift-distributed-tracing's `InstrumentationSystem`) when the session is
        /// made, if any.
        ///
        /// Connections run on `eventLoopGroup`'s threads, by default NIO's process-wide group (one thread per core).
        /// A group of the caller's must outlive the session: shut it down after ``shutdown()``.
        ///
        /// - Parameters:
        ///   - configuration: the session's name, limits, timeouts, retries and redirects.
        ///   - tlsConfiguration: the TLS settings of its connections, or nil for AsyncHTTPClient's defaults.
        ///   - eventLoopGroup: where its connections run, or nil for SwiftNIO's process-wide group.
        ///   - logger: where the session logs (see "Logs"), or nil for no log lines.
        ///   - metricsFactory: where the session's metrics go (see "Metrics"); by default the factory
        ///     `MetricsSystem.bootstrap` installed. The metrics are made here, once.
        public init(
            configuration: Configuration = Configuration(), tlsConfiguration: TLSConfiguration? = nil,
            eventLoopGroup: (any EventLoopGroup)? = nil, logger: Logger? = nil,
            metricsFactory: any MetricsFactory = MetricsSystem.factory
        ) {
            self.configuration = configuration
            self.logger = logger.map { logger in
                var logger = logger
                logger[metadataKey: "http_session"] = "\(configuration.name)"
                return logger
            }
            metrics = HTTPSessionMetrics(session: configuration.name, factory: metricsFactory)
            hostWidths = Dictionary(
                configuration.hostLimits.map { ($0.key.lowercased(), $0.value) },
                uniquingKeysWith: { Swift.min($0, $1) })
            limit = LimitDomain(name: configuration.name, width: configuration.maximumConcurrentRequests)
            var clientConfiguration = HTTPClient.Configuration(
                tlsConfiguration: tlsConfiguration,
                redirectConfiguration: .disallow,  // the session follows redirects itself, hop by hop
                // No read timeout: the session's idle sweep (`idleSweeper`) times out silent requests, without a timer
                // per read.
                timeout: .init(connect: TimeAmount(configuration.timeouts.connect), read: nil),
                decompression: .disabled)  // bodies as sent: a download's sizes and ranges are the server's bytes
            let widest = max(configuration.maximumRequestsPerHost, configuration.hostLimits.values.max() ?? 0)
            clientConfiguration.connectionPool = HTTPClient.Configuration.ConnectionPool(
                idleTimeout: TimeAmount.seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: widest)
            // A connection that cannot be made fails its request at once (a refused connection is retried by the
            // session's policy, on its clock; a TLS failure is not retried) instead of being tried again by the pool
            // until the connect timeout. The pool then fails every request waiting for a connection to that host:
            // each counts a failed attempt and is retried per the policy like the first.
            clientConfiguration.connectionPool.retryConnectionEstablishment = false
            // AsyncHTTPClient opens a span per request with the tracer bootstrapped when the session is made; when none
            // is (its default discards every span), it opens none instead of building spans nobody records.
            if clientConfiguration.tracing.tracer is NoOpTracer { clientConfiguration.tracing.tracer = nil }
            client = HTTPClient(
                eventLoopGroupProvider: eventLoopGroup.map { .shared($0) } ?? .singleton,
                configuration: clientConfiguration
            )
            idleSweeper = IdleSweeper(idle: configuration.timeouts.idle, on: client.eventLoopGroup.next())
            idleSweeper.start()
        }
    }
#endif
