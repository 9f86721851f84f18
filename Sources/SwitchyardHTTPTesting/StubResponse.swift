#if HTTP || Push
    /// What a ``StubServer`` route answers: a status, headers and a body sent in chunks, with the faults a test scripts.
    ///
    /// A value: build it once and register it with ``StubServer/route(_:_:)-(_,StubResponse)``. The server adds `content-length` (the
    /// full body's length, or the range's) unless the headers name `content-length` or `transfer-encoding`, so a client
    /// sees a truncated body when the server drops the connection early.
    public struct StubResponse: Sendable {
        /// The status code (200, 404, 503…).
        public var status: Int
        /// Header fields, in order, sent as given.
        public var headers: [(name: String, value: String)]
        /// The body, sent as these chunks in order (each one write and flush).
        public var chunks: [[UInt8]]
        /// When set, the head is sent only after the test opens this gate (see ``StubGate``); the request is recorded
        /// and counted as open while it waits.
        public var gate: StubGate?
        /// When set, the server closes the connection after sending this many body bytes (a drop mid-body; over HTTP/2,
        /// the stream is reset and the connection stays).
        public var dropAfterBytes: Int?
        /// When set with ``dropAfterBytes``, the drop waits, after the bytes before it were sent, until the test opens
        /// this gate: a test that opens it once the client has read those bytes knows the client keeps them (a client
        /// loses what it received but had not read when the connection breaks).
        public var dropGate: StubGate?
        /// When set, each chunk after the first waits this long before it is sent (a slow drip).
        public var dripInterval: Duration?
        /// Whether `Range: bytes=N-` requests are honoured with `206 Partial Content` (and `If-Range` checked against
        /// the `etag` and `last-modified` headers). When false, ranges are ignored and the whole body is sent.
        public var honoursRanges: Bool
        /// Whether `If-None-Match` / `If-Modified-Since` matching the `etag` / `last-modified` headers get `304`.
        public var honoursConditions: Bool

        /// A response with `body` as one chunk.
        public init(
            status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = [],
            honoursRanges: Bool = true, honoursConditions: Bool = true
        ) {
            self.status = status
            self.headers = headers
            self.chunks = body.isEmpty ? [] : [body]
            self.honoursRanges = honoursRanges
            self.honoursConditions = honoursConditions
        }

        /// A response with a UTF-8 text body.
        public static func text(_ text: String, status: Int = 200) -> StubResponse {
            StubResponse(
                status: status, headers: [("content-type", "text/plain; charset=utf-8")], body: Array(text.utf8))
        }

        /// The whole body.
        public var body: [UInt8] { chunks.flatMap { $0 } }

        /// This response with its body split into chunks of `size` bytes.
        public func chunked(by size: Int) -> StubResponse {
            precondition(size > 0, "StubResponse.chunked(by:): size must be positive")
            var copy = self
            let whole = body
            copy.chunks = stride(from: 0, to: whole.count, by: size).map {
                Array(whole[$0..<min($0 + size, whole.count)])
            }
            return copy
        }

        /// This response with a header added.
        public func header(_ name: String, _ value: String) -> StubResponse {
            var copy = self
            copy.headers.append((name, value))
            return copy
        }

        /// This response held until `gate` opens.
        public func held(by gate: StubGate) -> StubResponse {
            var copy = self
            copy.gate = gate
            return copy
        }

        /// This response with the connection closed (over HTTP/2, the stream reset) after `bytes` body bytes; with
        /// `gate`, only once the test opens it (see ``dropGate``).
        public func dropping(afterBytes bytes: Int, when gate: StubGate? = nil) -> StubResponse {
            var copy = self
            copy.dropAfterBytes = bytes
            copy.dropGate = gate
            return copy
        }

        /// This response sending its chunks `interval` apart.
        public func dripping(every interval: Duration) -> StubResponse {
            var copy = self
            copy.dripInterval = interval
            return copy
        }

        func value(of name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }
#endif
