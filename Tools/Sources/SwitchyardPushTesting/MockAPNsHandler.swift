import NIOCore
import NIOHTTP1
import NIOHTTP2
import SwitchyardPush

/// One stream of the mock: gathers the request, asks the mock for the action (under its lock), and carries it out
/// on the stream's event loop.
final class MockAPNsHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let box: MockAPNsBox
    private let connection: Int
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var isOpen = false

    init(box: MockAPNsBox, connection: Int) {
        self.box = box
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            isOpen = true
            box.mock?.update { $0.opened(connection) }
        case .body(var buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let mock = box.mock, let head else { return }
            let streamID =
                (try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID))
                .map { Int($0) } ?? 0
            let request = MockAPNsRules.Request(
                method: head.method.rawValue, path: head.uri,
                headers: head.headers.map { (name: $0.name.lowercased(), value: $0.value) }, body: body)
            let now = mock.now()
            let action = mock.update { state in
                state.decide(
                    request, streamID: streamID, connection: connection, now: now, maximumStreams: mock.maximumStreams)
            }
            perform(action, context: context, mock: mock)
        }
    }

    private func perform(_ action: MockAPNsState.Action, context: ChannelHandlerContext, mock: MockAPNs) {
        switch action {
        case .drop:
            // Answers already written go out first (they were given: dropping them would make their
            // notifications look unanswered); then the connection closes with this request and any other in
            // flight unanswered.
            guard let parent = context.channel.parent else { return }
            parent.flush()
            context.eventLoop.execute { parent.close(promise: nil) }
        case .refuse:
            context.close(promise: nil)
        case .respond(let answer, let id, let delay, let raiseTo, let goAway):
            guard let delay else {
                respond(answer, id: id, raiseTo: raiseTo, goAway: goAway, context: context)
                return
            }
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            let clock = mock.clock
            Task {
                try? await clock.sleep(for: delay)
                loop.execute {
                    let (handler, context) = bound.value
                    handler.respond(answer, id: id, raiseTo: raiseTo, goAway: goAway, context: context)
                }
            }
        }
    }

    private func respond(
        _ answer: MockAPNsRules.Answer, id: String, raiseTo: Int?, goAway: Int?, context: ChannelHandlerContext
    ) {
        var headers = HTTPHeaders([("apns-id", id)])
        var payload: ByteBuffer?
        if let reason = answer.reason {
            var json = #"{"reason":"\#(reason.rawValue)""#
            if let timestamp = answer.timestamp { json += #","timestamp":\#(timestamp)"# }
            json += "}"
            headers.add(name: "content-type", value: "application/json")
            headers.add(name: "content-length", value: "\(json.utf8.count)")
            payload = ByteBuffer(string: json)
        }
        let status = HTTPResponseStatus(statusCode: answer.status)
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http2, status: status, headers: headers))), promise: nil)
        if let payload { context.write(wrapOutboundOut(.body(.byteBuffer(payload))), promise: nil) }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        if let parent = context.channel.parent {
            // A stream's flush reaches the connection only at the end of the connection's current read, and a
            // client waiting for answers after a GOAWAY sends nothing that would end another one: flush the
            // connection now, and once more on the next turn of the loop, when the stream's frames are there.
            parent.flush()
            context.eventLoop.execute { parent.flush() }
            if let raiseTo {
                let settings = HTTP2Frame.FramePayload.settings(
                    .settings([HTTP2Setting(parameter: .maxConcurrentStreams, value: raiseTo)]))
                parent.writeAndFlush(HTTP2Frame(streamID: .rootStream, payload: settings), promise: nil)
            }
            if let goAway {
                let frame = HTTP2Frame.FramePayload.goAway(
                    lastStreamID: HTTP2StreamID(goAway), errorCode: .noError, opaqueData: nil)
                parent.writeAndFlush(HTTP2Frame(streamID: .rootStream, payload: frame), promise: nil)
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if isOpen {
            isOpen = false
            box.mock?.update { $0.closed(connection) }
        }
        context.fireChannelInactive()
    }
}
