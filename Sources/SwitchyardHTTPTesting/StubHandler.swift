#if HTTP || Push
    import NIOCore
    import NIOHTTP1

    /// One connection's request handling: records the request, resolves its route, and sends the scripted response.
    /// Runs on the connection's event loop only.
    final class StubHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let server: StateBox
        private let connection: Int
        private var head: HTTPRequestHead?
        private var body: [UInt8] = []
        /// The response in progress: `true` from the request's end until the response's last byte (or the channel's end).
        private var responding = false

        init(server: StateBox, connection: Int) {
            self.server = server
            self.connection = connection
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                self.head = head
                body = []
            case .body(var buffer):
                body += buffer.readBytes(length: buffer.readableBytes) ?? []
            case .end:
                guard let head, let server = server.server else { return }
                let request = StubRequest(
                    method: head.method.rawValue, target: head.uri, headers: head.headers.map { ($0.name, $0.value) },
                    body: body, connection: connection,
                    version: head.version.major == 2 ? "HTTP/2" : "HTTP/\(head.version.major).\(head.version.minor)")
                let route = server.update { state -> (@Sendable (StubRequest) -> StubResponse)? in
                    state.requests.append(request)
                    state.open += 1
                    state.maximumOpen = max(state.maximumOpen, state.open)
                    return state.routes[request.path]
                }
                responding = true
                let response = route?(request) ?? .text("no route for \(request.path)\n", status: 404)
                let plan = StubPlan(request: request, response: response)
                let loop = context.eventLoop
                let bound = NIOLoopBound((self, context), eventLoop: loop)
                if let gate = response.gate {
                    gate.pass { loop.execute { bound.value.0.send(plan, context: bound.value.1) } }
                } else {
                    send(plan, context: context)
                }
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if responding { finish(abandoned: true) }
            context.fireChannelInactive()
        }

        private func send(_ plan: StubPlan, context: ChannelHandlerContext) {
            guard context.channel.isActive, responding else { return }
            var headers = HTTPHeaders(plan.headers.map { ($0.name, $0.value) })
            if !headers.contains(name: "content-length"), !headers.contains(name: "transfer-encoding") {
                headers.add(name: "content-length", value: "\(plan.length)")
            }
            let head = HTTPResponseHead(
                version: .http1_1, status: HTTPResponseStatus(statusCode: plan.status), headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            sendChunks(plan, index: 0, sent: 0, context: context)
        }

        private func sendChunks(_ plan: StubPlan, index: Int, sent: Int, context: ChannelHandlerContext) {
            guard context.channel.isActive, responding else { return }
            guard index < plan.chunks.count else {
                // Counted as answered before the last byte leaves, so that a client never sees its response complete
                // while the server still counts the request open (the open count never exceeds the client's own).
                finish(abandoned: false)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
                return
            }
            var chunk = plan.chunks[index]
            let drop = plan.dropAfterBytes.map { sent + chunk.count >= $0 } ?? false
            if drop, let limit = plan.dropAfterBytes { chunk = Array(chunk.prefix(max(0, limit - sent))) }
            let buffer = context.channel.allocator.buffer(bytes: chunk)
            let next = (index: index + 1, sent: sent + chunk.count)
            let chunkBytes = chunk.count
            let written = context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(buffer))))
            let loop = context.eventLoop
            let bound = NIOLoopBound((self, context), eventLoop: loop)
            // The next chunk goes once this one is written: a slow reader slows the server down (no body is queued
            // whole in memory), and a drop closes the connection only after the bytes before it left.
            written.whenComplete { result in
                let (handler, context) = bound.value
                guard case .success = result else { return }
                handler.server.server?.update { $0.bodyBytesSent += chunkBytes }
                if drop {
                    guard let gate = plan.dropGate else {
                        handler.finish(abandoned: false)
                        context.close(promise: nil)
                        return
                    }
                    gate.pass {
                        loop.execute {
                            let (handler, context) = bound.value
                            handler.finish(abandoned: false)
                            context.close(promise: nil)
                        }
                    }
                    return
                }
                if let interval = plan.dripInterval {
                    loop.scheduleTask(in: .nanoseconds(interval.nanoseconds)) {
                        let (handler, context) = bound.value
                        handler.sendChunks(plan, index: next.index, sent: next.sent, context: context)
                    }
                } else {
                    handler.sendChunks(plan, index: next.index, sent: next.sent, context: context)
                }
            }
        }

        private func finish(abandoned: Bool) {
            guard responding else { return }
            responding = false
            server.server?.update { state in
                state.open -= 1
                if abandoned { state.abandoned += 1 }
            }
        }
    }

    extension Duration {
        var nanoseconds: Int64 {
            let (seconds, attoseconds) = components
            return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        }
    }
#endif
