import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL

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
    private let multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<Void>

    private init(
        number: Int, host: String, channel: any Channel, multiplexer: NIOHTTP2Handler.AsyncStreamMultiplexer<Void>
    ) {
        self.number = number
        self.host = host
        self.channel = channel
        self.multiplexer = multiplexer
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
        let (channel, multiplexer) = try await ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connectTimeout(.nanoseconds(Int64(timeout.components.seconds * 1_000_000_000)))
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    try sync.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                    let multiplexer = try sync.configureAsyncHTTP2Pipeline(mode: .client) { stream in
                        stream.close()  // APNs opens no streams of its own
                    }
                    try sync.addHandler(PushConnectionEvents(events: events))
                    return (channel, multiplexer)
                }
            }
        return PushConnection(number: number, host: host, channel: channel, multiplexer: multiplexer)
    }

    /// Sends one request on a new stream and returns the answer. After `timeout` without one, the stream is
    /// reset.
    /// - Throws: ``StreamError/unanswered`` when the stream or connection closed first (a timeout included);
    ///   `CancellationError` (the stream is reset).
    func send(_ request: HTTPRequestHead, body: ByteBuffer, timeout: Duration) async throws -> Answer {
        let stream: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            stream = try await multiplexer.openStream { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: .https))
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        } catch {
            throw StreamError.unanswered
        }
        let streamChannel = stream.channel
        let deadline = streamChannel.eventLoop.scheduleTask(in: .nanoseconds(Int64(timeout.nanoseconds))) {
            streamChannel.close(promise: nil)
        }
        defer { deadline.cancel() }
        return try await withTaskCancellationHandler {
            do {
                return try await stream.executeThenClose { inbound, outbound in
                    // The answer is read while the request is written: a write waits for the connection to be
                    // writable, and the answer may come (and the stream end) before that wait does.
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            try await outbound.write(contentsOf: [.head(request), .body(.byteBuffer(body)), .end(nil)])
                        }
                        var answer = Answer(status: 0, id: nil, body: [])
                        for try await part in inbound {
                            switch part {
                            case .head(let head):
                                answer.status = Int(head.status.code)
                                answer.id = head.headers.first(name: "apns-id")
                            case .body(var buffer):
                                answer.body += buffer.readBytes(length: buffer.readableBytes) ?? []
                            case .end:
                                group.cancelAll()
                                return answer
                            }
                        }
                        throw StreamError.unanswered
                    }
                }
            } catch {
                if Task.isCancelled { throw CancellationError() }
                throw error is StreamError ? error : StreamError.unanswered
            }
        } onCancel: {
            streamChannel.close(promise: nil)
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

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}

/// Reports the connection's `SETTINGS` limit, `GOAWAY` and closing (the frames of stream 0, which the HTTP/2
/// handler passes on).
private final class PushConnectionEvents: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame

    private let events: @Sendable (PushConnection.Event) -> Void
    private var closed = false

    init(events: @escaping @Sendable (PushConnection.Event) -> Void) {
        self.events = events
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .settings(.settings(let settings)):
            if let limit = settings.last(where: { $0.parameter == .maxConcurrentStreams }) {
                events(.limit(limit.value))
            }
        case .goAway(let lastStreamID, _, _):
            events(.goAway(lastStreamID: Int(lastStreamID)))
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
