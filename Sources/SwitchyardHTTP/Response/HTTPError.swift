#if HTTP
    /// Why a request failed, with every attempt that was made.
    ///
    /// ```text
    /// GET http://127.0.0.1:8080/feed.zip failed after 3 attempts: status 503 (attempt 1: status 503; attempt 2:
    /// connection reset by 127.0.0.1:8080; attempt 3: status 503)
    /// GET http://127.0.0.1:9/ failed: connection refused by 127.0.0.1:9
    /// ```
    ///
    /// The texts of reasons are for people: they may change between releases. Match on the ``Reason`` case.
    public struct HTTPError: Error, Sendable, CustomStringConvertible {
        /// What went wrong, in the end.
        public enum Reason: Sendable, Hashable, CustomStringConvertible {
            /// The URL cannot be requested (the text says why: no host, an unknown scheme…).
            case invalidURL(String)
            /// The server answered with this status (outside 200–299, and the request required success).
            case status(Int)
            /// The body was larger than the limit (in bytes).
            case responseTooLarge(limit: Int)
            /// The connection failed or broke; worth another attempt. The text says what happened and names the
            /// server: "connection refused by 127.0.0.1:8080", "connection reset by example.org:443", "no such host:
            /// feeds.example".
            case transport(String)
            /// The exchange failed in a way another attempt would not fix: TLS ("TLS: the server's certificate is
            /// not trusted: …"), too many redirects, a response the client cannot parse. The text says which.
            case failed(String)
            /// A timeout; the text says which, in full: "timed out connecting to example.org:443", "timed out after
            /// 30 seconds, the request's total timeout".
            case timedOut(String)
            /// The request was cancelled: its caller's task, an ``HTTPTask``, or its host's queue was cancelled.
            case cancelled
            /// The session was shut down (``HTTPSession/shutdown()``): a call made after it throws this without
            /// sending anything; a call it ended throws this, unless its caller had cancelled it first.
            case sessionShutDown
            /// A download's file could not be written (the text says which and why).
            case file(String)
            /// A download's SHA-256 was not the one expected (both in lower-case hex); the file was removed.
            case checksumMismatch(expected: String, actual: String)
            /// A download's expected checksum is malformed (the text says how); nothing was requested.
            case invalidChecksum(String)

            public var description: String {
                switch self {
                case .invalidURL(let why): "invalid URL: \(why)"
                case .status(let status): "status \(status)"
                case .responseTooLarge(let limit): "response larger than the limit of \(limit) bytes"
                case .transport(let why): why
                case .failed(let why): why
                case .timedOut(let which): which
                case .cancelled: "cancelled"
                case .sessionShutDown: "the HTTP session was shut down"
                case .file(let why): why
                case .checksumMismatch(let expected, let actual):
                    "SHA-256 \(actual) instead of the expected \(expected)"
                case .invalidChecksum(let why): why
                }
            }
        }

        /// The method and URL of the call's request, the URL without its user information, query and fragment
        /// (which may hold credentials or tokens): `GET https://example.org/feed.zip`. The reasons the session words
        /// (a redirect cycle, a URL that cannot be requested) name URLs that way too.
        public var request: String
        /// The final reason.
        public var reason: Reason
        /// Each failed attempt's reason, in order. Empty when no attempt failed: a bad URL, or a request cancelled,
        /// timed out or ended by the session's shutdown before an attempt ended.
        public var attempts: [Reason]

        public init(request: String, reason: Reason, attempts: [Reason] = []) {
            self.request = request
            self.reason = reason
            self.attempts = attempts
        }

        /// Whether the request was cancelled (not ended by the session's shutdown: see
        /// ``Reason/sessionShutDown``).
        public var isCancelled: Bool { reason == .cancelled }

        public var description: String {
            var text = "\(request) failed"
            if attempts.count > 1 { text += " after \(attempts.count) attempts" }
            text += ": \(reason)"
            if attempts.count > 1 {
                let each = attempts.enumerated().map { "attempt \($0.offset + 1): \($0.element)" }
                text += " (" + each.joined(separator: "; ") + ")"
            }
            return text
        }
    }
#endif
