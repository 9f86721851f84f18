#if HTTP
    import NIOHTTP1
    import Switchyard

    /// One HTTP request for an ``HTTPSession``: what to fetch, and how the session schedules and checks it.
    ///
    /// A value; build it and hand it to ``HTTPSession/data(for:)``, ``HTTPSession/stream(_:_:)`` or
    /// ``HTTPSession/download(_:to:ifChanged:checksum:progress:resumesPartialFile:syncsToDisk:)``. The URL is checked when the request is run (scheme `http` or `https`,
    /// a host), and a bad one fails with ``HTTPError/Reason/invalidURL(_:)`` naming it.
    public struct HTTPRequest: Sendable {
        /// The absolute URL.
        public var url: String
        /// The method; `GET` by default.
        public var method: HTTPMethod
        /// Header fields sent as given (the client adds `host` and `content-length`; a download adds `range` /
        /// `if-range` when it resumes and `if-none-match` / `if-modified-since` when it is conditional).
        public var headers: HTTPHeaders
        /// The request body, if any (sent whole; requests with a body are never coalesced).
        public var body: [UInt8]?
        /// The priority of the request's job: a higher one starts first among requests waiting for a host slot, and a
        /// caller awaiting a coalesced request lends it its own.
        public var priority: JobPriority
        /// The job's name in snapshots and events; by default the method and URL. (Coalesced requests share a job
        /// named after the exchange.)
        public var name: String?
        /// Whether a failed attempt of a method that is not idempotent (`POST`, `PATCH`, `CONNECT`) is retried too.
        /// Idempotent methods are retried per the session's ``HTTPRetryPolicy`` regardless.
        public var retriesNonIdempotent: Bool
        /// Whether a status outside 200–299 is an error (``HTTPError/Reason/status(_:)``); true by default. When false,
        /// the response is returned whatever its status (after the retries the policy allows for its status).
        public var requiresSuccessStatus: Bool
        /// The largest response body accepted, in bytes; `nil` for the session's default. A body announced larger
        /// (`content-length`) fails before any of it is read, one that grows larger fails as soon as it does.
        public var maximumResponseSize: Int?

        /// A request for `url`.
        public init(
            url: String, method: HTTPMethod = .GET, headers: HTTPHeaders = [:], body: [UInt8]? = nil,
            priority: JobPriority = .medium, name: String? = nil
        ) {
            self.url = url
            self.method = method
            self.headers = headers
            self.body = body
            self.priority = priority
            self.name = name
            retriesNonIdempotent = false
            requiresSuccessStatus = true
            maximumResponseSize = nil
        }

        /// Whether the method is idempotent (RFC 9110 §9.2.2), so that a failed attempt can be repeated safely.
        public var isIdempotent: Bool {
            switch method {
            case .GET, .HEAD, .OPTIONS, .TRACE, .PUT, .DELETE: true
            default: false
            }
        }

        /// Whether identical requests in flight may share one exchange: `GET` and `HEAD` without a body.
        var isCoalescable: Bool { (method == .GET || method == .HEAD) && body == nil }
    }
#endif
