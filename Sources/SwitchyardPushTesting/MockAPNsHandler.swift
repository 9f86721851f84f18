#if Push
    import NIOCore
    import NIOHPACK
    import NIOHTTP2
    import SwitchyardPush

    /// One stream of the mock: gathers the request's HTTP/2 frames, asks the mock for the action (under its lock), and
    /// carries it out on the stream's event loop. Frames are handled as they are, without an HTTP/1 translation, so
    /// that answers look as APNs's do on the wire: a 200 is one HEADERS frame that ends the stream, an error a HEADERS
    /// frame and one DATA frame with the JSON; a request without `:authority` (APNs accepts `host` instead) is
    /// answered like any other.
    final class MockAPNsHandler: ChannelInboundHandler {
        typealias InboundIn = HTTP2Frame.FramePayload
        typealias OutboundOut = HTTP2Frame.FramePayload

        private let box: MockAPNsBox
        private let connection: Int
        private var headers: HPACKHeaders?
        private var body: [UInt8] = []
        private var isOpen = false

        init(box: MockAPNsBox, connection: Int) {
            self.box = box
            self.connection = connection
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .headers(let frame):
                if headers == nil {
                    headers = frame.headers
                    isOpen = true
                    box.mock?.update { $0.opened(connection) }
                }
                if frame.endStream { received(context: context) }
            case .data(let frame):
                if case .byteBuffer(var buffer) = frame.data {
                    body += buffer.readBytes(length: buffer.readableBytes) ?? []
                }
                if frame.endStream { received(context: context) }
            default:
                break
            }
        }

        /// The request is complete: decide and act.
        private func received(context: ChannelHandlerContext) {
            guard let mock = box.mock, let headers else { return }
            let streamID =
                (try? context.channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)).map { Int($0) } ?? 0
            let request = MockAPNsRules.Request(
                method: headers.first(name: ":method") ?? "", path: headers.first(name: ":path") ?? "",
                headers: headers.filter { !$0.name.hasPrefix(":") }.map {
                    (name: $0.name.lowercased(), value: $0.value)
                },
                body: body)
            let now = mock.now()
            let action = mock.update { state in
                state.decide(
                    request, streamID: streamID, connection: connection, now: now, maximumStreams: mock.maximumStreams)
            }
            perform(action, context: context, mock: mock)
        }

        /// A malformed stream (a protocol error) is reset, as APNs would.
        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
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
                // On the next tick, not inside this read: closing a stream hands the reads pending on the other
                // streams to their handlers, so refusing many streams of one read nested each close in the one before,
                // thousands deep (a stack overflow with 2,000 streams in flight).
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.eventLoop.execute { bound.value.close(promise: nil) }
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
            var headers = HPACKHeaders([(":status", "\(answer.status)")])
            headers.add(name: "apns-id", value: id, indexing: .nonIndexable)  // new with every answer: not indexed
            var payload: ByteBuffer?
            if let body = answer.body {
                headers.add(name: "content-length", value: "\(body.count)")
                payload = ByteBuffer(bytes: body)
            } else if let reason = answer.reason {
                var json = #"{"reason":"\#(reason.rawValue)""#
                if let timestamp = answer.timestamp { json += #","timestamp":\#(timestamp)"# }
                json += "}"
                headers.add(name: "content-type", value: "application/json")
                headers.add(name: "content-length", value: "\(json.utf8.count)")
                payload = ByteBuffer(string: json)
            }
            if let raiseTo, let parent = context.channel.parent {
                // Before the answer: the client sees the new limit while its stream is still open (a client that
                // treats "idle" and "limit raised" as two events then meets them one at a time).
                let settings = HTTP2Frame.FramePayload.settings(
                    .settings([HTTP2Setting(parameter: .maxConcurrentStreams, value: raiseTo)]))
                parent.writeAndFlush(HTTP2Frame(streamID: .rootStream, payload: settings), promise: nil)
            }
            if let payload {
                context.write(wrapOutboundOut(.headers(.init(headers: headers))), promise: nil)
                context.writeAndFlush(
                    wrapOutboundOut(.data(.init(data: .byteBuffer(payload), endStream: true))), promise: nil)
            } else {
                context.writeAndFlush(wrapOutboundOut(.headers(.init(headers: headers, endStream: true))), promise: nil)
            }
            if let parent = context.channel.parent {
                // The answers' frames reach the connection when its current read ends (or at once outside a read),
                // many answers in one write; the GOAWAY follows them.
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
#endif
