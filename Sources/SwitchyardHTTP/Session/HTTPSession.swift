#if HTTP
    import AsyncHTTPClient
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOHTTP1
    import NIOSSL
    import Switchyard
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
    /// A request holds its slot from its first attempt to its last byte, retry waits included.
    ///
    /// ## Coalescing
    /// `GET` and `HEAD` requests without a body read by ``data(for:)`` are coalesced: while one is in flight, an
    /// identical one (same method, URL, header fields, status requirement and size limit) waits for the same exchange
    /// instead of starting another; the shared job is named `<name> shared <METHOD> <URL>`. A
    /// caller that leaves (its task cancelled, its total timeout) leaves alone; the exchange is cancelled when the last
    /// caller leaves. Streams and downloads are never coalesced (each has its own consumer).
    ///
    /// ## Cancellation
    /// Cancelling the calling task (or a ``HTTPTask``) cancels the request at once: a waiting one never starts, a
    /// running one's connection (HTTP/1.1) or stream (HTTP/2) is closed and its slot freed (a download's slot once its
    /// last buffered bytes are written). A cancelled call throws ``HTTPError`` with ``HTTPError/Reason/cancelled``,
    /// even if its exchange finished as it was cancelled: never a late value.
    ///
    /// Thread-safe. Call ``shutdown()`` before the last reference goes (it ends the client's connections).
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
            /// The clock retry waits and total timeouts run on; tests pass a `ManualClock`.
            public var clock: any Clock<Duration>
            /// Where the random part of retry waits comes from (a fraction in 0..<1); tests pass a fixed one.
            public var randomFraction: @Sendable () -> Double

            public init(
                name: String = "http", maximumConcurrentRequests: Int = 64, maximumRequestsPerHost: Int = 6,
                hostLimits: [String: Int] = [:], timeouts: HTTPTimeouts = HTTPTimeouts(),
                retry: HTTPRetryPolicy = HTTPRetryPolicy(), maximumResponseSize: Int = 64 << 20,
                clock: any Clock<Duration> = ContinuousClock(),
                randomFraction: @escaping @Sendable () -> Double = {
                    Double.random(in: 0..<1)
                }
            ) {
                precondition(maximumConcurrentRequests >= 1, "HTTPSession: maximumConcurrentRequests must be ≥ 1")
                precondition(maximumRequestsPerHost >= 1, "HTTPSession: maximumRequestsPerHost must be ≥ 1")
                self.name = name
                self.maximumConcurrentRequests = maximumConcurrentRequests
                self.maximumRequestsPerHost = maximumRequestsPerHost
                self.hostLimits = hostLimits
                self.timeouts = timeouts
                self.retry = retry
                self.maximumResponseSize = maximumResponseSize
                self.clock = clock
                self.randomFraction = randomFraction
            }
        }

        /// The session's settings.
        public let configuration: Configuration
        /// The domain every host queue's width counts against.
        public let limit: LimitDomain
        let client: HTTPClient
        private let lanes = NIOLockedValueBox<[HostKey: HostLane]>([:])

        /// A session with its own AsyncHTTPClient, configured from `configuration` (and, for TLS, from
        /// `tlsConfiguration`, by default the system's trust store). Requests are traced as AsyncHTTPClient traces
        /// them, with the tracer bootstrapped (swift-distributed-tracing's `InstrumentationSystem`) when the session is
        /// made, if any.
        ///
        /// Connections run on `eventLoopGroup`'s threads, by default NIO's process-wide group (one thread per core).
        /// A group of the caller's must outlive the session: shut it down after ``shutdown()``.
        public init(
            configuration: Configuration = Configuration(), tlsConfiguration: TLSConfiguration? = nil,
            eventLoopGroup: (any EventLoopGroup)? = nil
        ) {
            self.configuration = configuration
            limit = LimitDomain(name: configuration.name, width: configuration.maximumConcurrentRequests)
            var clientConfiguration = HTTPClient.Configuration(
                tlsConfiguration: tlsConfiguration,
                redirectConfiguration: .follow(max: 10, allowCycles: false),
                timeout: .init(
                    connect: TimeAmount(configuration.timeouts.connect), read: TimeAmount(configuration.timeouts.idle)),
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
        }

        /// Cancels every request and ends the client's connections; returns once every request has ended (a
        /// download's partial file written), so a caller's event loop group can be shut down next. Further requests
        /// fail.
        public func shutdown() async throws {
            let queues = lanes.withLockedValue { $0.values.map(\.queue) }
            for queue in queues { queue.cancelAll() }
            try await client.shutdown()
            for queue in queues { await queue.waitUntilIdle() }
        }

        /// The queue of `host`'s requests (created on first use): for snapshots and counts.
        public func queue(forHost host: String, port: Int? = nil, scheme: String = "https") -> WorkQueue {
            let scheme = scheme.lowercased()
            let key = HostKey(scheme: scheme, host: host.lowercased(), port: port ?? (scheme == "https" ? 443 : 80))
            return lane(for: key).queue
        }

        func lane(for key: HostKey) -> HostLane {
            if let lane = lanes.withLockedValue({ $0[key] }) { return lane }
            let width =
                configuration.hostLimits.first { $0.key.lowercased() == key.host }?.value
                ?? configuration.maximumRequestsPerHost
            let queue = WorkQueue(name: "\(configuration.name) \(key)", width: width, limit: limit)
            let fresh = HostLane(queue: queue, coalescer: Coalescer(queue: queue, name: "\(configuration.name) shared"))
            return lanes.withLockedValue { lanes in
                if let existing = lanes[key] { return existing }
                lanes[key] = fresh
                return fresh
            }
        }
    }

    /// One host's queue and the coalescer of its identical requests.
    final class HostLane: Sendable {
        let queue: WorkQueue
        let coalescer: Coalescer<ExchangeKey, HTTPResponse>

        init(queue: WorkQueue, coalescer: Coalescer<ExchangeKey, HTTPResponse>) {
            self.queue = queue
            self.coalescer = coalescer
        }
    }
#endif
