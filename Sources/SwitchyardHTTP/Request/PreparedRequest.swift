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
    /// the settings that decide the result (whether any status is accepted, the size limit).
    struct ExchangeKey: Hashable, Sendable, CustomStringConvertible {
        var method: String
        var url: String
        var headers: [String]
        var requiresSuccessStatus: Bool
        var maximumResponseSize: Int?

        var description: String { "\(method) \(url)" }
    }

    /// A request whose URL has been checked, with its host and its exchange key. A class: it is captured by the
    /// closures of its job and of its exchange's callbacks, and each copy of a struct would retain every string in it.
    final class PreparedRequest: Sendable {
        let request: HTTPRequest
        let host: HostKey
        let key: ExchangeKey
        /// `METHOD URL`, for errors and job names (made when asked for, not stored).
        var label: String { "\(request.method.rawValue) \(request.url)" }

        /// Checks the URL: absolute, scheme `http` or `https`, a host. - Throws: ``HTTPError`` naming the URL.
        init(_ request: HTTPRequest) throws(HTTPError) {
            self.request = request
            switch URLAuthority.parse(request.url) {
            case .success(let host): self.host = host
            case .failure(let problem):
                throw HTTPError(
                    request: "\(request.method.rawValue) \(request.url)", reason: .invalidURL(problem.description))
            }
            key = ExchangeKey(
                method: request.method.rawValue, url: request.url,
                headers: request.headers.isEmpty ? [] : request.headers.map { "\($0.name.lowercased()): \($0.value)" },
                requiresSuccessStatus: request.requiresSuccessStatus, maximumResponseSize: request.maximumResponseSize)
        }

        /// The job's name.
        var name: String { request.name ?? label }

        /// Whether a failed attempt may be repeated.
        var isRetryable: Bool { request.isIdempotent || request.retriesNonIdempotent }
    }
#endif
