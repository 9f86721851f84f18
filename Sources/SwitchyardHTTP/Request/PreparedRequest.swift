#if HTTP
    import NIOHTTP1

    /// A host's identity for limits: scheme, name and port.
    struct HostKey: Hashable, Sendable, CustomStringConvertible {
        var scheme: String
        var host: String
        var port: Int

        var description: String {
            let standard = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
            return standard ? host : "\(host):\(port)"
        }
    }

    /// What makes two requests the same exchange: method, URL and header fields (names lowercased, in order), and
    /// the settings that decide the result (whether any status is accepted, the size limit). Its description, the
    /// end of its shared job's name, is the method and the URL as a log line shows it (see
    /// ``HTTPSession/loggableURL(_:)``): never a header field's value, the URL's user information or query.
    struct ExchangeKey: Hashable, Sendable, CustomStringConvertible {
        var method: String
        var url: String
        var headers: [String]
        var requiresSuccessStatus: Bool
        var maximumResponseSize: Int?

        var description: String { "\(method) \(HTTPSession.loggableURL(url))" }
    }

    /// A request whose URL has been checked, with its host and its exchange key: a call's request, or one hop of it
    /// that follows a redirect. A class: it is captured by the closures of its job and of its exchange's callbacks,
    /// and each copy of a struct would retain every string in it.
    final class PreparedRequest: Sendable {
        let request: HTTPRequest
        let host: HostKey
        let key: ExchangeKey
        /// The call's request, when this hop follows a redirect: what errors and responses name.
        let first: PreparedRequest?

        /// Checks the URL: absolute, scheme `http` or `https`, a host. - Throws: ``HTTPError`` naming the URL.
        convenience init(_ request: HTTPRequest) throws(HTTPError) {
            try self.init(request, first: nil)
        }

        /// A hop of the call on `first`, to `request`, which a redirect leads to. - Throws: ``HTTPError`` naming the
        /// call's request and the URL.
        convenience init(redirectedTo request: HTTPRequest, from first: PreparedRequest) throws(HTTPError) {
            try self.init(request, first: first.first ?? first)
        }

        private init(_ request: HTTPRequest, first: PreparedRequest?) throws(HTTPError) {
            self.request = request
            self.first = first
            switch URLAuthority.parse(request.url) {
            case .success(let host): self.host = host
            case .failure(let problem):
                throw HTTPError(request: first?.label ?? Self.label(request), reason: .invalidURL(problem.description))
            }
            key = ExchangeKey(
                method: request.method.rawValue, url: request.url,
                headers: request.headers.isEmpty ? [] : request.headers.map { "\($0.name.lowercased()): \($0.value)" },
                requiresSuccessStatus: request.requiresSuccessStatus, maximumResponseSize: request.maximumResponseSize)
        }

        /// `METHOD URL` of the call's request, for errors (made when asked for, not stored): see ``label(_:)``.
        var label: String { first?.label ?? Self.label(request) }

        /// The URL the caller asked for (a redirected response is named by it).
        var requestedURL: String { first?.request.url ?? request.url }

        /// The job's name: the request's, or this hop's method and URL as ``label(_:)`` shows them. A job's name is
        /// seen in snapshots, events and the log lines of whatever watches its queue.
        var name: String { request.name ?? Self.label(request) }

        /// `METHOD URL` of `request`, the URL without its user information, query and fragment (see
        /// ``HTTPSession/loggableURL(_:)``): what errors and job names show of a request. - Complexity: O(the URL's
        /// length).
        static func label(_ request: HTTPRequest) -> String {
            "\(request.method.rawValue) \(HTTPSession.loggableURL(request.url))"
        }

        /// Whether a failed attempt may be repeated.
        var isRetryable: Bool { request.isIdempotent || request.retriesNonIdempotent }
    }
#endif
