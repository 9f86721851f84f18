#if HTTP || Push
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOHTTP1
    import NIOHTTP2
    import NIOPosix
    import NIOSSL

    /// A scripted HTTP server on `127.0.0.1` for tests: networking code is tested against it, never the internet.
    ///
    /// ```swift
    /// let server = try await StubServer.start()
    /// defer { Task { try await server.shutdown() } }
    /// server.route("/feed.zip", StubResponse(body: bytes).header("etag", "\"v1\"").chunked(by: 16_384))
    /// let data = try await session.data(for: HTTPRequest(url: server.url("/feed.zip")))
    /// #expect(server.requests(to: "/feed.zip").count == 1)
    /// ```
    ///
    /// - Routes match the request's path exactly (query ignored); an unknown path gets `404`. A route is a fixed
    ///   ``StubResponse`` or a closure that builds one from the ``StubRequest`` (called on the server's event loop;
    ///   it must not block).
    /// - Faults are scripted on the response: held until a ``StubGate`` opens, a connection dropped mid-body, a slow
    ///   drip; `Range`, `If-Range`, `If-None-Match` and `If-Modified-Since` are honoured unless turned off.
    /// - Every request is recorded in arrival order (``requests``); the server counts requests open at once
    ///   (``maximumOpenRequests``: from the request's end to its response's end, a held one included), connections
    ///   accepted, responses cut short because the client closed the connection (``abandonedResponses``), and body
    ///   bytes sent (``bodyBytesSent``).
    ///
    /// - Plain HTTP/1.1 by default; with ``StubCertificates``, HTTPS offering HTTP/2 and HTTP/1.1 by ALPN (the client
    ///   picks; ``StubRequest/version`` records which). Over HTTP/2 every stream is a request: the open count is the
    ///   number of streams being answered, and a stream the client resets is an abandoned response.
    ///
    /// Binds to `127.0.0.1` on a port the system picks. Thread-safe.
    public final class StubServer: Sendable {
        /// The port the server listens on.
        public let port: Int
        /// Whether the server speaks HTTPS.
        public let usesTLS: Bool
        private let channel: any Channel
        let state: NIOLockedValueBox<StubServerState>

        private init(port: Int, usesTLS: Bool, channel: any Channel) {
            self.port = port
            self.usesTLS = usesTLS
            self.channel = channel
            self.state = NIOLockedValueBox(StubServerState())
        }

        /// Starts a server on `127.0.0.1` and a free port: plain HTTP/1.1, or with `tls`, HTTPS with its server
        /// certificate, offering HTTP/2 (unless `http2` is false) and HTTP/1.1.
        /// - Throws: when the port cannot be bound, or the certificate and key do not make a TLS context.
        public static func start(
            tls: StubCertificates? = nil, http2: Bool = true,
            eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
        ) async throws -> StubServer {
            let box = StateBox()
            let context = try tls.map {
                try NIOSSLContext(
                    configuration: $0.serverConfiguration(protocols: http2 ? ["h2", "http/1.1"] : ["http/1.1"]))
            }
            let channel = try await ServerBootstrap(group: eventLoopGroup)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in
                    let connection =
                        box.server?.update { state -> Int in
                            state.connections += 1
                            return state.connections
                        } ?? 0
                    guard let context else { return Self.configureHTTP1(channel, box: box, connection: connection) }
                    do {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    } catch {
                        return channel.eventLoop.makeFailedFuture(error)
                    }
                    return channel.configureHTTP2SecureUpgrade(
                        h2ChannelConfigurator: { channel in
                            channel.configureHTTP2Pipeline(mode: .server) { stream in
                                stream.eventLoop.makeCompletedFuture {
                                    try stream.pipeline.syncOperations.addHandlers(
                                        HTTP2FramePayloadToHTTP1ServerCodec(),
                                        StubHandler(server: box, connection: connection))
                                }
                            }.map { _ in }
                        },
                        http1ChannelConfigurator: { channel in
                            Self.configureHTTP1(channel, box: box, connection: connection)
                        })
                }
                .bind(host: "127.0.0.1", port: 0).get()
            let server = StubServer(port: channel.localAddress?.port ?? 0, usesTLS: tls != nil, channel: channel)
            box.server = server
            return server
        }

        private static func configureHTTP1(
            _ channel: any Channel, box: StateBox, connection: Int
        ) -> EventLoopFuture<Void> {
            channel.pipeline.configureHTTPServerPipeline().flatMapThrowing {
                try channel.pipeline.syncOperations.addHandler(StubHandler(server: box, connection: connection))
            }
        }

        /// `http://127.0.0.1:PORT`, or `https://…` with TLS.
        public var baseURL: String { "\(usesTLS ? "https" : "http")://127.0.0.1:\(port)" }

        /// The URL of `path` on this server (`path` starts with `/`).
        public func url(_ path: String) -> String { baseURL + path }

        /// Answers requests for `path` with `response`, replacing any earlier route for it.
        public func route(_ path: String, _ response: StubResponse) {
            state.withLockedValue { $0.routes[path] = { _ in response } }
        }

        /// Answers requests for `path` with what `respond` builds (on the server's event loop; it must not block).
        public func route(_ path: String, _ respond: @escaping @Sendable (StubRequest) -> StubResponse) {
            state.withLockedValue { $0.routes[path] = respond }
        }

        /// Every request received, in arrival order.
        public var requests: [StubRequest] { state.withLockedValue { $0.requests } }

        /// The requests received for `path` (query ignored), in arrival order.
        public func requests(to path: String) -> [StubRequest] { requests.filter { $0.path == path } }

        /// Requests received and not yet fully answered.
        public var openRequests: Int { state.withLockedValue { $0.open } }

        /// The most requests open at once since the server started (or since ``resetCounters()``).
        public var maximumOpenRequests: Int { state.withLockedValue { $0.maximumOpen } }

        /// Connections accepted.
        public var connections: Int { state.withLockedValue { $0.connections } }

        /// Responses cut short because the client closed the connection before the last byte was sent.
        public var abandonedResponses: Int { state.withLockedValue { $0.abandoned } }

        /// Response body bytes written to clients so far, counted as each chunk's write completes (the server sends a
        /// response's next chunk only then, so a client that stops reading stops this count from growing, short of
        /// what the sockets' buffers hold). For tests of memory bounds: what a client never received, it never held.
        public var bodyBytesSent: Int { state.withLockedValue { $0.bodyBytesSent } }

        /// Forgets the recorded requests and resets ``maximumOpenRequests`` and ``abandonedResponses``.
        public func resetCounters() {
            update { state in
                state.requests = []
                state.maximumOpen = state.open
                state.abandoned = 0
            }
        }

        /// Suspends until the server has received at least `count` requests (since it started or was reset).
        public func waitForRequests(count: Int) async {
            await waitUntil { $0.requests.count >= count }
        }

        /// Suspends until at least `count` requests are open at once (received, not yet answered in full).
        public func waitForOpenRequests(count: Int) async {
            await waitUntil { $0.open >= count }
        }

        /// Suspends until at least `count` responses were cut short by the client closing the connection.
        public func waitForAbandonedResponses(count: Int) async {
            await waitUntil { $0.abandoned >= count }
        }

        /// Suspends until `condition` holds for the server's state; it is checked after every change, under the
        /// server's lock (it must be quick and must not call the server).
        private func waitUntil(_ condition: @escaping @Sendable (StubServerState) -> Bool) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLockedValue { state -> Bool in
                    if condition(state) { return true }
                    state.waiters.append((condition, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        }

        /// Changes the state, then resumes the waiters whose condition now holds (after the lock).
        func update<Value>(_ change: (inout StubServerState) -> Value) -> Value {
            let (value, ready) = state.withLockedValue { state -> (Value, [CheckedContinuation<Void, Never>]) in
                let value = change(&state)
                var ready: [CheckedContinuation<Void, Never>] = []
                let waiters = state.waiters
                state.waiters = []
                for waiter in waiters {
                    if waiter.condition(state) {
                        ready.append(waiter.continuation)
                    } else {
                        state.waiters.append(waiter)
                    }
                }
                return (value, ready)
            }
            for continuation in ready { continuation.resume() }
            return value
        }

        /// Stops listening and closes the listening socket. Connections still open end when their clients close them.
        public func shutdown() async throws {
            try await channel.close()
        }
    }

    /// The server's mutable state, behind its mutex.
    struct StubServerState: Sendable {
        var routes: [String: @Sendable (StubRequest) -> StubResponse] = [:]
        var requests: [StubRequest] = []
        var open = 0
        var maximumOpen = 0
        var connections = 0
        var abandoned = 0
        var bodyBytesSent = 0
        var waiters:
            [(condition: @Sendable (StubServerState) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// Lets the channel initializer reach the server, which exists only once the listening channel is bound.
    ///
    /// Unchecked-Sendable invariant: `server` is written once, before `start` returns, which is before any client can
    /// connect (a client needs the port); the handlers only read it after a connection arrives.
    final class StateBox: @unchecked Sendable {
        var server: StubServer?
    }
#endif
