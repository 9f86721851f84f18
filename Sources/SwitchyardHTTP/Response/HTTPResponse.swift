#if HTTP
    import NIOHTTP1

    /// A response whose body was read whole (``HTTPSession/data(for:)``).
    public struct HTTPResponse: Sendable {
        /// The URL requested.
        public var url: String
        /// The status code.
        public var status: Int
        /// The header fields.
        public var headers: HTTPHeaders
        /// The body.
        public var body: [UInt8]

        public init(url: String, status: Int, headers: HTTPHeaders, body: [UInt8]) {
            self.url = url
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The body as UTF-8 text (invalid sequences replaced).
        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The response's validators (`etag`, `last-modified`), for a later conditional request.
        public var validators: HTTPValidators { HTTPValidators(headers) }
    }

    /// What identifies one version of a resource: the `etag` and `last-modified` a server sent.
    ///
    /// Kept with a downloaded file, they make the next request conditional (`if-none-match` / `if-modified-since`: a
    /// `304` means the file is current) and a resumed download safe (`if-range`: the rest is sent only if the resource
    /// is still the same version).
    public struct HTTPValidators: Sendable, Hashable, Codable {
        /// The entity tag, quotes and weakness prefix included, as sent.
        public var etag: String?
        /// The `last-modified` date, as sent.
        public var lastModified: String?

        public init(etag: String? = nil, lastModified: String? = nil) {
            self.etag = etag
            self.lastModified = lastModified
        }

        /// The validators in `headers`.
        public init(_ headers: HTTPHeaders) {
            etag = headers.first(name: "etag")
            lastModified = headers.first(name: "last-modified")
        }

        /// Whether there is any validator.
        public var isEmpty: Bool { etag == nil && lastModified == nil }

        /// The value for `if-range`: a strong entity tag if there is one, otherwise the date (a weak tag cannot be
        /// used for ranges, RFC 9110 §13.1.5).
        var ifRange: String? {
            if let etag, !etag.hasPrefix("W/") { return etag }
            return lastModified
        }
    }
#endif
