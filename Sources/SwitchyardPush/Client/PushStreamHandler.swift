#if Push
    import NIOCore
    import NIOHPACK
    import NIOHTTP2
    import Synchronization

    /// One request's stream: writes the request when the stream becomes active, gathers the answer's `:status`,
    /// `apns-id` and body, and completes ``PushAnswerSlot`` once: with the answer at the server's end of stream (or
    /// once its body passes ``PushConnection/Answer/bodyLimit`` bytes: then cut there, and the stream reset), or as
    /// unanswered when the stream closes first (a reset, the connection lost, the timeout, a cancellation).
    ///
    /// Runs on the connection's event loop, where every method of a channel handler is called.
    final class PushStreamHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTP2Frame.FramePayload
        typealias OutboundOut = HTTP2Frame.FramePayload

        private let headers: HPACKHeaders
        private let body: ByteBuffer
        private let slot: PushAnswerSlot
        private let timeout: TimeAmount
        private let goAwayLast: GoAwayMark
        private var answer = PushConnection.Answer(status: 0, id: nil, body: [])
        private var sent = false
        /// When the request was handed to the stream.
        private var writeBegan: NIODeadline?
        /// The slot was completed with the answer: later frames are ignored.
        private var answered = false
        private var deadline: Scheduled<Void>?

        init(headers: HPACKHeaders, body: ByteBuffer, slot: PushAnswerSlot, timeout: TimeAmount, goAwayLast: GoAwayMark)
        {
            self.headers = headers
            self.body = body
            self.slot = slot
            self.timeout = timeout
            self.goAwayLast = goAwayLast
        }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { send(context: context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            send(context: context)
            context.fireChannelActive()
        }

        private func send(context: ChannelHandlerContext) {
            guard !sent else { return }
            sent = true
            let channel = context.channel
            deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
            let (goAwayLast, slot) = (goAwayLast, slot)
            let written = context.eventLoop.makePromise(of: Void.self)
            writeBegan = NIODeadline.now()
            slot.recordWrite(.writing)
            context.write(wrapOutboundOut(.headers(.init(headers: headers))), promise: nil)
            context.writeAndFlush(
                wrapOutboundOut(.data(.init(data: .byteBuffer(body), endStream: true))), promise: written)
            written.futureResult.whenComplete { result in
                // Refused before it was sent (a stream begun after GOAWAY, a closed connection), or sent past the
                // last stream of a GOAWAY (held back by the HTTP/2 layer beyond the server's limit, then sent): the
                // server ignores such a stream without resetting it, so end it now rather than at the timeout.
                guard case .success = result else {
                    slot.recordWrite(.failed)
                    channel.close(promise: nil)
                    return
                }
                slot.recordWrite(.written, at: NIODeadline.now())
                let id = try? channel.syncOptions?.getOption(HTTP2StreamChannelOptions.streamID)
                let last = goAwayLast.value.load(ordering: .acquiring)
                if let id, last >= 0, Int(id) > last { channel.close(promise: nil) }
            }
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !answered else { return }
            switch unwrapInboundIn(data) {
            case .headers(let frame):
                // The final answer's headers: not an informational (1xx) block, nor trailers after it.
                if let status = frame.headers.first(name: ":status").flatMap({ Int($0) }), status >= 200,
                    answer.status == 0
                {
                    answer.status = status
                    answer.id = frame.headers.first(name: "apns-id")
                }
                if frame.endStream { finish() }
            case .data(let frame):
                if case .byteBuffer(var buffer) = frame.data {
                    let room = PushConnection.Answer.bodyLimit - answer.body.count
                    if buffer.readableBytes > room {
                        // Not APNs's answer: keep what fits, answer with it, and reset the stream unread.
                        answer.body += buffer.readBytes(length: room) ?? []
                        answer.isCut = true
                        finish()
                        context.close(promise: nil)
                        return
                    }
                    answer.body += buffer.readBytes(length: buffer.readableBytes) ?? []
                }
                if frame.endStream { finish() }
            default:
                break
            }
        }

        private func finish() {
            answered = true
            deadline?.cancel()
            let now = NIODeadline.now()
            if let start = slot.writeCompleted ?? writeBegan { answer.latency = now - start }
            slot.succeed(answer)
        }

        func channelInactive(context: ChannelHandlerContext) {
            deadline?.cancel()
            slot.fail(PushConnection.StreamError.unanswered(sent: slot.requestMayHaveLeft))
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            slot.fail(PushConnection.StreamError.unanswered(sent: slot.requestMayHaveLeft))
        }

        /// A stream error (a reset, a protocol error) ends the stream; its answer, if any came, is already in.
        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }

    /// A request's answer promise, completed at most once by whichever comes first: the answer, the stream's end,
    /// the stream that could not be created; and how far its request's write went, which tells a request that never
    /// left from one the server may have received.
    final class PushAnswerSlot: Sendable {
        /// How far the request's write went; it only moves forward, on the stream's event loop.
        enum Write: UInt8 {
            /// Not begun: the stream was not created, or was closed before it became active.
            case notBegun = 0
            /// Handed to the stream: on its way out, or out.
            case writing = 1
            /// The write completed: the whole request left.
            case written = 2
            /// The write failed: the request's end (its DATA frame with END_STREAM) never left, so the server cannot
            /// act on it.
            case failed = 3
        }

        let promise: EventLoopPromise<PushConnection.Answer>
        private let completed = Atomic<Bool>(false)
        private let write = Atomic<UInt8>(Write.notBegun.rawValue)
        /// When the write completed (`NIODeadline.uptimeNanoseconds`; 0 before).
        private let writtenAt = Atomic<UInt64>(0)

        init(promise: EventLoopPromise<PushConnection.Answer>) {
            self.promise = promise
        }

        /// The write reached `stage` (at `time`, kept for ``Write/written``).
        func recordWrite(_ stage: Write, at time: NIODeadline? = nil) {
            if stage == .written, let time { writtenAt.store(max(1, time.uptimeNanoseconds), ordering: .relaxed) }
            write.store(stage.rawValue, ordering: .releasing)
        }

        /// When the request's write completed, if it did yet.
        var writeCompleted: NIODeadline? {
            let nanoseconds = writtenAt.load(ordering: .relaxed)
            return nanoseconds == 0 ? nil : NIODeadline.uptimeNanoseconds(nanoseconds)
        }

        /// Whether the server may have received the request: its write began and did not fail. A write still under
        /// way counts: its bytes may leave after the stream ended.
        var requestMayHaveLeft: Bool {
            let stage = write.load(ordering: .acquiring)
            return stage == Write.writing.rawValue || stage == Write.written.rawValue
        }

        func succeed(_ answer: PushConnection.Answer) {
            if completed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
                promise.succeed(answer)
            }
        }

        func fail(_ error: any Error) {
            if completed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
                promise.fail(error)
            }
        }
    }

    /// Between the TLS and HTTP/2 handlers of a connection: the flushes of the streams begun in one turn of the event
    /// loop become one flush at its end, so that their frames leave in one TLS record and one write instead of one each.
    /// Delays a flush by at most the rest of the loop's current turn.
    final class PushFlushCoalescer: ChannelOutboundHandler, RemovableChannelHandler {
        typealias OutboundIn = Any

        private var isFlushPending = false

        func flush(context: ChannelHandlerContext) {
            guard !isFlushPending else { return }
            isFlushPending = true
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.execute {
                let (handler, context) = bound.value
                handler.isFlushPending = false
                context.flush()
            }
        }
    }
#endif
