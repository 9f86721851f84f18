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
        /// What the connection tells the pool. A connection that becomes usable reports ``opened`` exactly once,
        /// before anything but ``limit(_:)``, and ``closed`` exactly once, last; one that never becomes usable reports
        /// neither.
        enum Event: Sendable, Equatable {
            /// The server's `SETTINGS_MAX_CONCURRENT_STREAMS`.
            case limit(Int)
            /// The TLS handshake is done and the server's first `SETTINGS` came: the connection is usable.
            case opened
            /// `GOAWAY`: streams after `lastStreamID` were not processed; no new ones may start. `errorCode` is the
            /// frame's; `debugData` its debug data as UTF-8 text (APNs puts a JSON reason there), at most
            /// ``goAwayDebugDataLimit`` bytes of it, or nil when it has none.
            case goAway(lastStreamID: Int, errorCode: HTTP2ErrorCode, debugData: String?)
            case closed
        }

        /// The most bytes of a `GOAWAY`'s debug data kept (``Event/goAway(lastStreamID:errorCode:debugData:)``).
        static let goAwayDebugDataLimit = 256

        /// A request's answer: the HTTP status, the `apns-id` header and the body (APNs's JSON for errors).
        ///
        /// The body is kept up to ``bodyLimit`` bytes: APNs's error body is a JSON object of a reason and a timestamp,
        /// well under 200 bytes, so a longer one is not APNs's. A body past ``bodyLimit`` bytes is cut: its first
        /// ``bodyLimit`` bytes are kept and parsed as far as they go (APNs's reason if its JSON is whole in them, else
        /// the failure is named by its status), ``isCut`` is set, and the stream is reset without reading the rest. A
        /// server's answer thus costs at most ``bodyLimit`` bytes of memory, whatever it sends.
        struct Answer: Sendable {
            /// The most bytes of a body kept.
            static let bodyLimit = 4_096

            var status: Int
            var id: String?
            /// At most ``bodyLimit`` bytes.
            var body: [UInt8]
            /// Whether the server sent more than ``bodyLimit`` bytes of body (the rest was not read).
            var isCut = false
            /// From the request's write completing (its frames handed to the socket) to the answer's end of stream
            /// (or its cut): the server's time plus a round trip, without the wait for a stream or for flow control.
            /// An answer that came before its write was reported complete is measured from the write's beginning.
            var latency: TimeAmount = .zero
        }

        /// Why a stream ended without an answer.
        enum StreamError: Error, Sendable, Equatable, CustomStringConvertible {
            /// The connection closed, the server refused the stream (after `GOAWAY`), the request timeout closed it,
            /// or the sender's task was cancelled (the stream is reset), before an answer. `sent`: the request was
            /// written, or was being written, to the connection, so the server may have received and acted on it;
            /// false when it provably never left (the stream never began, or its write failed).
            case unanswered(sent: Bool)

            var description: String {
                switch self {
                case .unanswered(sent: true):
                    "the request was sent, but no answer came before its stream or connection closed, or its timeout"
                case .unanswered(sent: false): "the stream closed before the request was sent"
                }
            }
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

        /// Why a connection did not open, besides the errors of TCP and TLS (NIOSSL's own).
        enum OpenError: Error, Sendable, Equatable, CustomStringConvertible {
            /// The server closed the connection before its HTTP/2 `SETTINGS`.
            case closed
            /// No `SETTINGS` from the server within the timeout after TCP connected.
            case timedOut(Duration)

            var description: String {
                switch self {
                case .closed: "the server closed the connection before it began HTTP/2"
                case .timedOut(let timeout): "no TLS handshake and HTTP/2 settings from the server within \(timeout)"
                }
            }
        }

        /// Connects to `host:port` with `context` (the client's, made with ALPN `h2`) and returns once the connection
        /// is usable: TCP connected within `timeout`, then the TLS handshake done and the server's first HTTP/2
        /// `SETTINGS` received within `timeout` again.
        /// - Throws: what failed: SwiftNIO's connection errors, NIOSSL's handshake errors (`NIOSSLError`,
        ///   `NIOSSLExtraError`: a certificate that is not trusted, or not issued to `host`), ``OpenError``. The
        ///   connection is closed; `events` reports nothing of it.
        static func open(
            number: Int, host: String, port: Int, context: NIOSSLContext, timeout: Duration,
            group: any EventLoopGroup, events: @escaping @Sendable (Event) -> Void
        ) async throws -> PushConnection {
            let serverName = Self.isAddress(host) ? nil : host
            let mark = GoAwayMark()
            let (channel, multiplexer, ready) = try await ClientBootstrap(group: group)
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
                        let ready = channel.eventLoop.makePromise(of: Void.self)
                        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
                            ready.fail(OpenError.timedOut(timeout))
                        }
                        ready.futureResult.whenComplete { _ in timer.cancel() }
                        try sync.addHandler(PushConnectionEvents(events: events, goAwayLast: mark, ready: ready))
                        return (channel, multiplexer, ready.futureResult)
                    }
                }
            do {
                try await ready.get()
            } catch {
                channel.close(promise: nil)
                throw error
            }
            return PushConnection(
                number: number, host: host, channel: channel, multiplexer: multiplexer, goAwayLast: mark)
        }

        /// Sends one request (`headers`, pseudo-headers included, and `body`) on a new stream and returns the answer.
        /// After `timeout` without one, the stream is reset; so it is when the task is cancelled.
        /// - Throws: ``StreamError/unanswered(sent:)`` when the stream or connection closed first (a timeout and a
        ///   cancellation included), saying whether the request may have reached the server.
        func send(_ headers: HPACKHeaders, body: ByteBuffer, timeout: Duration) async throws(StreamError) -> Answer {
            let slot = PushAnswerSlot(promise: channel.eventLoop.makePromise(of: Answer.self))
            let created = channel.eventLoop.makePromise(of: (any Channel).self)
            let (timeout, mark) = (TimeAmount(timeout), goAwayLast)
            multiplexer.createStreamChannel(promise: created) { stream in
                stream.eventLoop.makeCompletedFuture {
                    try stream.pipeline.syncOperations.addHandler(
                        PushStreamHandler(headers: headers, body: body, slot: slot, timeout: timeout, goAwayLast: mark))
                }
            }
            created.futureResult.whenFailure { _ in slot.fail(StreamError.unanswered(sent: false)) }
            let answer = await withTaskCancellationHandler {
                try? await slot.promise.futureResult.get()
            } onCancel: {
                created.futureResult.whenSuccess { $0.close(promise: nil) }
            }
            // The slot failed after the write's outcome was recorded: both happen on the event loop, in that order.
            guard let answer else { throw StreamError.unanswered(sent: slot.requestMayHaveLeft) }
            return answer
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

    /// Reports the connection's `SETTINGS` limit, its opening, `GOAWAY` and closing (the frames of stream 0, which the
    /// HTTP/2 handler passes on), and completes `ready`: with the server's first `SETTINGS` (the TLS handshake is done
    /// and the server speaks HTTP/2; `.opened` is reported first), or with the first error (a failed handshake) or
    /// the close that came before it. A connection that never became ready reports neither `.opened` nor `.closed`:
    /// its opening fails instead.
    private final class PushConnectionEvents: ChannelInboundHandler {
        typealias InboundIn = HTTP2Frame

        private let events: @Sendable (PushConnection.Event) -> Void
        private let goAwayLast: GoAwayMark
        private let ready: EventLoopPromise<Void>
        private var isReady = false
        /// `ready` failed (an error, the close, or the opening's timeout from outside): a late `SETTINGS` opens
        /// nothing.
        private var openFailed = false
        private var closed = false

        init(
            events: @escaping @Sendable (PushConnection.Event) -> Void, goAwayLast: GoAwayMark,
            ready: EventLoopPromise<Void>
        ) {
            self.events = events
            self.goAwayLast = goAwayLast
            self.ready = ready
        }

        func handlerAdded(context: ChannelHandlerContext) {
            let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
            ready.futureResult.whenFailure { _ in
                let handler = bound.value
                handler.openFailed = true
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let frame = unwrapInboundIn(data)
            switch frame.payload {
            case .settings(.settings(let settings)):
                if let limit = settings.last(where: { $0.parameter == .maxConcurrentStreams }) {
                    events(.limit(limit.value))
                }
                if !isReady, !openFailed {
                    isReady = true
                    events(.opened)
                    ready.succeed(())
                }
            case .goAway(let lastStreamID, let errorCode, let opaqueData):
                // A later GOAWAY may only lower the last stream (RFC 9113, 6.8).
                let last = Int(lastStreamID)
                let previous = goAwayLast.value.load(ordering: .relaxed)
                if previous < 0 || last < previous { goAwayLast.value.store(last, ordering: .releasing) }
                let debugData = opaqueData.flatMap { data -> String? in
                    let length = min(data.readableBytes, PushConnection.goAwayDebugDataLimit)
                    return length == 0 ? nil : data.getString(at: data.readerIndex, length: length)
                }
                events(.goAway(lastStreamID: last, errorCode: errorCode, debugData: debugData))
            default:
                break
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if !isReady {
                ready.fail(PushConnection.OpenError.closed)  // a no-op after an error failed it
            } else if !closed {
                closed = true
                events(.closed)
            }
            context.fireChannelInactive()
        }

        /// Before the connection is ready, the first error (NIOSSL's handshake failure) fails its opening. After,
        /// errors of single streams (one created after `GOAWAY`, say) reach here too: they fail their stream, not
        /// the connection, whose answered streams must still be read. Errors that end the connection close it anyway.
        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if !isReady { ready.fail(error) }
        }
    }
#endif
