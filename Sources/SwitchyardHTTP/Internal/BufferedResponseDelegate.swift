#if HTTP
    import AsyncHTTPClient
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOHTTP1

    /// Reads a response whole on AsyncHTTPClient's callback API, for a coalesced request's first attempt
    /// (``HTTPSession/startExchange(_:on:_:)``), deciding on its head first as the task's path does: when `decide`
    /// gives a verdict (a redirect, a retry, a status the request does not accept, a body announced over the limit),
    /// the request ends before its body is read and fails with ``Verdict``. A body that grows past `limit` ends it with
    /// ``HTTPError/Reason/responseTooLarge(limit:)``, having held at most `limit` bytes.
    ///
    /// Called on the request's event loop; its state is behind a lock only so that the type is `Sendable`, as the
    /// protocol requires.
    final class BufferedResponseDelegate: HTTPClientResponseDelegate {
        typealias Response = BufferedResponse

        /// The head's verdict, carried out through the request's future as its error, with the head's status.
        struct Verdict: Error {
            let outcome: AttemptOutcome<Never>
            let status: Int
        }

        private let limit: Int
        private let decide: @Sendable (NIOHTTP1.HTTPResponseHead) -> AttemptOutcome<Never>?
        private let state = NIOLockedValueBox(BufferedResponse?.none)
        /// Told when the request waits for the server: from its start (see ``HTTPSession/startExchange(_:on:_:)``),
        /// again at its head and after each part received.
        let idle: IdleWatch

        init(
            limit: Int, idle: IdleWatch,
            decide: @escaping @Sendable (NIOHTTP1.HTTPResponseHead) -> AttemptOutcome<Never>?
        ) {
            self.limit = limit
            self.idle = idle
            self.decide = decide
        }

        /// The status of the response's head, once received (and accepted by `decide`); read after the request ends.
        var status: Int? { state.withLockedValue { $0.map { Int($0.head.status.code) } } }

        func didReceiveHead(task: HTTPClient.Task<Response>, _ head: NIOHTTP1.HTTPResponseHead) -> EventLoopFuture<Void>
        {
            if let outcome = decide(head) {
                return task.eventLoop.makeFailedFuture(Verdict(outcome: outcome, status: Int(head.status.code)))
            }
            state.withLockedValue { $0 = BufferedResponse(head: head, body: ByteBuffer()) }
            idle.waiting()
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            let limit = limit
            // The head's status when the part does not fit, nil when it was added.
            let overflow = state.withLockedValue { response -> Int? in
                guard let size = response?.body.readableBytes, size + buffer.readableBytes <= limit else {
                    return response.map { Int($0.head.status.code) } ?? 0
                }
                var buffer = buffer
                response?.body.writeBuffer(&buffer)
                return nil
            }
            guard let status = overflow else {
                idle.waiting()
                return task.eventLoop.makeSucceededVoidFuture()
            }
            return task.eventLoop.makeFailedFuture(
                Verdict(outcome: .fail(.responseTooLarge(limit: limit)), status: status))
        }

        func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
            guard let response = state.withLockedValue({ $0 }) else { throw HTTPClientError.remoteConnectionClosed }
            return response
        }
    }

    /// A response read whole by ``BufferedResponseDelegate``.
    struct BufferedResponse: Sendable {
        var head: NIOHTTP1.HTTPResponseHead
        var body: ByteBuffer
    }
#endif
