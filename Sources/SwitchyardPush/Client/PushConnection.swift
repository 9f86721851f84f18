#if Push
    import NIOCore
    import NIOHPACK
    import NIOHTTP2
    import NIOPosix
    import NIOSSL
    import Synchronization

    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// One HTTP/2 connection to APNs (TLS, ALPN `h2`): streams for requests, and the connection's own events (the
    /// server's stream limit, `GOAWAY`, closing) reported to the pool through `events`, on the connection's event
    /// loop.
    final class PushConnection: Sendable {
        /// What the connection tells the pool.
        enum Event: Sendable, Equatable {
            /// The server's `SETTINGS_MAX_CONCURRENT_STREAMS`.
            case limit(Int)
            /// `GOAWAY`: streams after `lastStreamID` were not processed; no new ones may start.
            case goAway(lastStreamID: Int)
            case closed
        }

        /// A request's answer: the HTTP status, the `apns-id` header and the body (APNs's JSON for errors).
        struct Answer: Sendable {
            var status: Int
            var id: String?
            var body: [UInt8]
        }

        /// Why a stream ended without an answer.
        enum StreamError: Error, Sendable, Equatable {
            /// The connection closed, the server refused the stream (after `GOAWAY`), or the request timeout closed
            /// it, before an answer: the notification may be sent again on another connection.
            case unanswered
        }

        let number: Int
        let host: String
        private let channel: any Channel
        private let multiplexer: NIOHTTP2Handler.StreamMultiplexer
        /// The last stream the server's `GOAWAY` said it processes (-1 before one came); set on the event loop.
        private let goAwayLast: GoAwayMark

        private init(
            number: Int, host: String, channel: any Channel, multiplexer: NIOHTTP2Handler.StreamMultiplexer,
            goAwayLast: GoAwayMark
        ) {
            self.number = number
            self.host = host
            self.channel = channel
            self.multiplexer = multiplexer
            self.goAwayLast = goAwayLast
        }

        /// Connects to `host:port` with `tls` (ALPN `h2` is added), within `timeout`.
        static func open(
            number: Int, host: String, port: Int, tls: TLSConfiguration, timeout: Duration,
            group: any EventLoopGroup, events: @escaping @Sendable (Event) -> Void
        ) async throws -> PushConnection {
            var tls = tls
            tls.applicationProtocols = ["h2"]
            let context = try NIOSSLContext(configuration: tls)
            let serverName = Self.isAddress(host) ? nil : host
            let mark = GoAwayMark()
            let (channel, multiplexer) = try await ClientBootstrap(group: group)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .connectTimeout(TimeAmount(timeout))
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let sync = channel.pipeline.syncOperations
                        try sync.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                        try sync.addHandler(PushFlushCoalescer())
                        let multiplexer = try sync.configureHTTP2Pipeline(
                            mode: .client, connectionConfiguration: .init(), streamConfiguration: .init()
                        ) { stream in
                            stream.close()  // APNs opens no streams of its own
                        }
                        try sync.addHandler(PushConnectionEvents(events: events, goAwayLast: mark))
                        return (channel, multiplexer)
                    }
                }
            return PushConnection(
                number: number, host: host, channel: channel, multiplexer: multiplexer, goAwayLast: mark)
        }

        /// Sends one request (`headers`, pseudo-headers included, and `body`) on a new stream and returns the answer.
        /// After `timeout` without one, the stream is reset.
        /// - Throws: ``StreamError/unanswered`` when the stream or connection closed first (a timeout included);
        ///   `CancellationError` (the stream is reset).
        func send(_ headers: HPACKHeaders, body: ByteBuffer, timeout: Duration) async throws -> Answer {
            let slot = PushAnswerSlot(promise: channel.eventLoop.makePromise(of: Answer.self))
            let created = channel.eventLoop.makePromise(of: (any Channel).self)
            let (timeout, mark) = (TimeAmount(timeout), goAwayLast)
            multiplexer.createStreamChannel(promise: created) { stream in
                stream.eventLoop.makeCompletedFuture {
                    try stream.pipeline.syncOperations.addHandler(
                        PushStreamHandler(headers: headers, body: body, slot: slot, timeout: timeout, goAwayLast: mark))
                }
            }
            created.futureResult.whenFailure { _ in slot.fail(StreamError.unanswered) }
            return try await withTaskCancellationHandler {
                do {
                    return try await slot.promise.futureResult.get()
                } catch {
                    if Task.isCancelled { throw CancellationError() }
                    throw StreamError.unanswered
                }
            } onCancel: {
                created.futureResult.whenSuccess { $0.close(promise: nil) }
            }
        }

        /// Closes the connection (its open streams end unanswered).
        func close() {
            channel.close(promise: nil)
        }

        private static func isAddress(_ host: String) -> Bool {
            var address = in_addr()
            var address6 = in6_addr()
            return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address6) == 1
        }
    }

    /// The last stream ID of the server's `GOAWAY` (-1 before one came), written by the connection's handler and read
    /// by each stream's handler once its request was written, both on the connection's event loop.
    final class GoAwayMark: Sendable {
        let value = Atomic<Int>(-1)
    }

    /// Reports the connection's `SETTINGS` limit, `GOAWAY` and closing (the frames of stream 0, which the HTTP/2
    /// handler passes on).
    private final class PushConnectionEvents: ChannelInboundHandler {
        typealias InboundIn = HTTP2Frame

        private let events: @Sendable (PushConnection.Event) -> Void
        private let goAwayLast: GoAwayMark
        private var closed = false

        init(events: @escaping @Sendable (PushConnection.Event) -> Void, goAwayLast: GoAwayMark) {
            self.events = events
            self.goAwayLast = goAwayLast
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.payload {
            case .settings(.settings(let settings)):
                if let limit = settings.last(where: { $0.parameter == .maxConcurrentStreams }) {
                    events(.limit(limit.value))
                }
            case .goAway(let lastStreamID, _, _):
                // A later GOAWAY may only lower the last stream (RFC 9113, 6.8).
                let last = Int(lastStreamID)
                let previous = goAwayLast.value.load(ordering: .relaxed)
                if previous < 0 || last < previous { goAwayLast.value.store(last, ordering: .releasing) }
                events(.goAway(lastStreamID: last))
            default:
                break
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if !closed {
                closed = true
                events(.closed)
            }
            context.fireChannelInactive()
        }

        /// Errors of single streams (one created after `GOAWAY`, say) reach here too: they fail their stream, not the
        /// connection, whose answered streams must still be read. Errors that end the connection close it anyway.
        func errorCaught(context: ChannelHandlerContext, error: any Error) {}
    }
#endif
