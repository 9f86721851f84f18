#if Push
    import Foundation
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOHTTP2
    import NIOPosix
    import NIOSSL
    import SwitchyardHTTPTesting
    import SwitchyardPush

    /// A local APNs for tests and benchmarks: HTTP/2 over TLS on `127.0.0.1`, answering `POST /3/device/<token>` as
    /// APNs does by ``MockAPNsRules`` (provider tokens, headers, topics, payload sizes, with APNs's statuses and
    /// reasons), and injecting the faults of its script (``MockAPNsFault``).
    ///
    /// ```swift
    /// let key = try PushSigningKey.load(file: "AuthKey_KEY1234567.p8", keyID: "KEY1234567", teamID: "TEAM123456")
    /// let certificates = try StubCertificates.generate()
    /// let apns = try await MockAPNs.start(
    ///     certificates: certificates,
    ///     rules: MockAPNsRules(
    ///         teamID: "TEAM123456", keys: [key.keyID: key.publicKey], bundleIDs: ["org.example.app"]))
    /// apns.script([.goAway(afterStreams: 100), .answer(status: 503, reason: .serviceUnavailable, times: 5)])
    /// // … send to apns.url …
    /// #expect(apns.duplicates == 0)
    /// ```
    ///
    /// - A new connection may have one stream open (`SETTINGS_MAX_CONCURRENT_STREAMS` 1) until a request with a valid
    ///   token succeeds; then the mock raises the limit to `maximumStreams` with a new `SETTINGS` frame, as APNs does.
    /// - It records every accepted notification (``deliveries``) and counts an `apns-id` accepted twice as a
    ///   duplicate (``duplicates``), every answer by reason (``answers``), connections, and the most streams open at
    ///   once on one connection (``maximumOpenStreams``).
    /// - Time for token ages is `now()` (seconds since 1970; a test passes one driven by its `ManualClock`), and
    ///   ``MockAPNsFault/delay(_:times:)`` sleeps on `clock`.
    ///
    /// Thread-safe. Answers are decided under the mock's lock, without I/O.
    public final class MockAPNs: Sendable {
        /// The port it listens on.
        public let port: Int
        private let channel: any Channel
        let state: NIOLockedValueBox<MockAPNsState>
        let now: @Sendable () -> Int
        let clock: any Clock<Duration>
        let maximumStreams: Int

        /// `https://127.0.0.1:PORT`.
        public var url: String { "https://127.0.0.1:\(port)" }

        private init(
            port: Int, channel: any Channel, rules: MockAPNsRules, maximumStreams: Int,
            now: @escaping @Sendable () -> Int,
            clock: any Clock<Duration>
        ) {
            self.port = port
            self.channel = channel
            self.state = NIOLockedValueBox(MockAPNsState(rules: rules))
            self.maximumStreams = maximumStreams
            self.now = now
            self.clock = clock
        }

        /// Starts the mock on `127.0.0.1` and `port` (0: a free one), serving HTTP/2 (ALPN `h2`) with `certificates`' server
        /// certificate.
        public static func start(
            certificates: StubCertificates, rules: MockAPNsRules, maximumStreams: Int = 1_000,
            connectionWindow: Int = 65_535, port: Int = 0,
            now: @escaping @Sendable () -> Int = { Int(Date().timeIntervalSince1970) },
            clock: any Clock<Duration> = ContinuousClock(),
            eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
        ) async throws -> MockAPNs {
            let box = MockAPNsBox()
            let context = try NIOSSLContext(configuration: certificates.serverConfiguration(protocols: ["h2"]))
            let channel = try await ServerBootstrap(group: eventLoopGroup)
                .serverChannelOption(.backlog, value: 256)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                    }.flatMap {
                        let connection = box.mock?.connected() ?? 0
                        var configuration = NIOHTTP2Handler.ConnectionConfiguration()
                        configuration.initialSettings = [
                            HTTP2Setting(parameter: .maxConcurrentStreams, value: 1),
                            HTTP2Setting(parameter: .maxHeaderListSize, value: 16_384),
                        ]
                        configuration.targetWindowSize = connectionWindow
                        return channel.configureHTTP2Pipeline(
                            mode: .server, connectionConfiguration: configuration, streamConfiguration: .init()
                        ) { stream in
                            stream.eventLoop.makeCompletedFuture {
                                try stream.pipeline.syncOperations.addHandler(
                                    MockAPNsHandler(box: box, connection: connection))
                            }
                        }.map { _ in }
                    }
                }
                .bind(host: "127.0.0.1", port: port).get()
            let mock = MockAPNs(
                port: channel.localAddress?.port ?? 0, channel: channel, rules: rules, maximumStreams: maximumStreams,
                now: now, clock: clock)
            box.mock = mock
            return mock
        }

        /// Replaces the fault script.
        public func script(_ faults: [MockAPNsFault]) {
            update { $0.faults = faults }
        }

        /// Replaces the fault script with `script`'s faults and answers its unregistered devices `410 Unregistered`
        /// (as unregistered since now).
        public func run(_ script: MockAPNsScript) {
            let since = now() * 1_000
            update { state in
                state.faults = script.faults
                for token in script.unregistered { state.rules.unregistered[token.lowercased()] = since }
            }
        }

        /// Changes the rules (a device token unregistered, a key added).
        public func updateRules(_ change: @Sendable (inout MockAPNsRules) -> Void) {
            update { change(&$0.rules) }
        }

        /// One accepted notification.
        public struct Delivery: Sendable, Equatable {
            public var id: String
            public var deviceToken: String
            public var topic: String
            public var pushType: String?
            public var payload: [UInt8]
            /// The connection it came on (numbered from 1 in order of acceptance).
            public var connection: Int
        }

        /// Every accepted notification, in the order accepted.
        public var deliveries: [Delivery] { state.withLockedValue { $0.deliveries } }
        /// How many notifications were accepted (``deliveries``' count, without copying them).
        public var deliveryCount: Int { state.withLockedValue { $0.deliveries.count } }
        /// Notifications accepted a second time under an `apns-id` already accepted.
        public var duplicates: Int { state.withLockedValue { $0.duplicates } }
        /// Answers given, by reason (`"accepted"` for 200; `"HTTP<status>"` for an error answer without a reason).
        public var answers: [String: Int] { state.withLockedValue { $0.answers } }
        /// Requests received (answered or not).
        public var requests: Int { state.withLockedValue { $0.requests } }
        /// Connections accepted.
        public var connections: Int { state.withLockedValue { $0.connectionCount } }
        /// The most streams open at once on one connection.
        public var maximumOpenStreams: Int { state.withLockedValue { $0.maximumOpen } }

        /// Suspends until at least `count` requests have been received, or the calling task is cancelled (then it
        /// returns early: compare ``requests`` with `count` to tell). A test bounded by `.timeLimit` thus ends at its
        /// limit instead of waiting for requests that never come.
        public func waitForRequests(count: Int) async {
            let id = state.withLockedValue { state -> Int in
                state.nextWaiterID += 1
                state.waiters[state.nextWaiterID] = .starting
                return state.nextWaiterID
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let now = state.withLockedValue { state -> Bool in
                        guard state.requests < count, case .starting? = state.waiters[id] else {
                            state.waiters[id] = nil  // enough requests, or cancelled before this
                            return true
                        }
                        state.waiters[id] = .waiting(count: count, continuation)
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                let waiting = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
                    switch state.waiters[id] {
                    case .starting?:
                        state.waiters[id] = .cancelled
                        return nil
                    case .waiting(_, let continuation)?:
                        state.waiters[id] = nil
                        return continuation
                    case .cancelled?, nil:
                        return nil
                    }
                }
                waiting?.resume()
            }
        }

        /// Stops listening. Open connections end when their clients close them.
        public func shutdown() async throws {
            try await channel.close()
        }

        func connected() -> Int {
            update { state in
                state.connectionCount += 1
                state.connections[state.connectionCount] = MockAPNsState.ConnectionState()
                return state.connectionCount
            }
        }

        /// Changes the state, then resumes the waiters it satisfies (after the lock).
        func update<Value>(_ change: (inout MockAPNsState) -> Value) -> Value {
            let (value, ready) = state.withLockedValue { state -> (Value, [CheckedContinuation<Void, Never>]) in
                let value = change(&state)
                var ready: [CheckedContinuation<Void, Never>] = []
                for (id, waiter) in state.waiters {
                    guard case .waiting(let count, let continuation) = waiter, state.requests >= count else { continue }
                    state.waiters[id] = nil
                    ready.append(continuation)
                }
                return (value, ready)
            }
            for continuation in ready { continuation.resume() }
            return value
        }
    }

    /// Lets the channel initializer reach the mock, which exists only once the listening channel is bound.
    ///
    /// Unchecked-Sendable invariant: `mock` is written once, before `start` returns, which is before any client can
    /// connect (a client needs the port); handlers only read it after a connection arrives.
    final class MockAPNsBox: @unchecked Sendable {
        var mock: MockAPNs?
    }
#endif
