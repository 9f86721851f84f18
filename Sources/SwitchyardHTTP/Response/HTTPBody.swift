#if HTTP
    import AsyncHTTPClient
    import CoreMetrics
    import NIOCore
    import NIOHTTP1
    import Switchyard

    /// A response body read as it arrives, with back-pressure: the next bytes are read from the socket only as the
    /// consumer asks for them, so a body of any size is read in fixed memory.
    ///
    /// An `AsyncSequence` of NIO `ByteBuffer`s, or, through ``input``, any of the core's streams:
    ///
    /// ```swift
    /// let count = try await session.stream(HTTPRequest(url: url)) { head, body in
    ///     var rows = 0
    ///     for try await _ in CSVRecords(body.input) { rows += 1 }
    ///     return rows
    /// }
    /// ```
    ///
    /// Iterate it once, inside the closure it was given to (the exchange ends when the closure returns). Throws
    /// ``HTTPError`` with ``HTTPError/Reason/responseTooLarge(limit:)`` as soon as the bytes read exceed the limit, and
    /// with ``HTTPError/Reason/transport(_:)`` or ``HTTPError/Reason/timedOut(_:)`` if the connection fails.
    public struct HTTPBody: AsyncSequence, Sendable, CustomStringConvertible {
        public typealias Element = ByteBuffer

        let base: HTTPClientResponse.Body
        let limit: Int
        let request: String
        /// The server the body comes from, named by the errors of its connection.
        let host: HostKey
        /// The session's `switchyard_http_bytes_received_total`, counting each buffer as it is read; nil when the
        /// caller counts the body itself (a buffered body, once read whole).
        let bytesReceived: Counter?
        /// The attempt's idle timeout: only the time spent waiting for the next buffer counts, not the time the
        /// consumer takes between two.
        let idle: IdleWatch

        /// What the body is, without reading it: `the body of GET http://127.0.0.1:8080/stops.txt, at most 67108864
        /// bytes`.
        public var description: String { "the body of \(request), at most \(limit) bytes" }

        /// The body as a `ByteInput` for `ByteChunks`, `Lines` or `CSVRecords` (asynchronous reading only).
        public var input: ByteInput { ByteInput.sequence(ByteViews(body: self), name: request) }

        public func makeAsyncIterator() -> Iterator {
            Iterator(
                base: base.makeAsyncIterator(), limit: limit, request: request, host: host,
                bytesReceived: bytesReceived, idle: idle)
        }

        /// Reads the body's buffers in order, counting them against the limit.
        public struct Iterator: AsyncIteratorProtocol {
            var base: HTTPClientResponse.Body.AsyncIterator
            let limit: Int
            let request: String
            let host: HostKey
            let bytesReceived: Counter?
            let idle: IdleWatch
            var received = 0

            public mutating func next() async throws -> ByteBuffer? {
                let buffer: ByteBuffer?
                idle.waiting()
                defer { idle.holding() }  // the consumer's time, even after an error
                do {
                    buffer = try await base.next()
                } catch {
                    // An expiry of the idle timeout cancels the attempt's task: it ends the read as a timeout.
                    let cause = idle.hasExpired ? HTTPClientError.readTimeout : error
                    throw HTTPError(request: request, reason: TransportErrors.reason(for: cause, at: host))
                }
                guard let buffer else { return nil }
                received += buffer.readableBytes
                bytesReceived?.increment(by: buffer.readableBytes)
                if received > limit { throw HTTPError(request: request, reason: .responseTooLarge(limit: limit)) }
                return buffer
            }
        }

        /// The body's buffers as byte views, the element type the core's byte inputs take.
        struct ByteViews: AsyncSequence, Sendable {
            typealias Element = ByteBufferView
            let body: HTTPBody
            func makeAsyncIterator() -> Iterator { Iterator(base: body.makeAsyncIterator()) }
            struct Iterator: AsyncIteratorProtocol {
                var base: HTTPBody.Iterator
                mutating func next() async throws -> ByteBufferView? { try await base.next()?.readableBytesView }
            }
        }
    }

    /// The head of a streamed response.
    public struct HTTPResponseHead: Sendable {
        /// The URL requested.
        public var url: String
        /// The status code.
        public var status: Int
        /// The header fields.
        public var headers: HTTPHeaders
    }
#endif
