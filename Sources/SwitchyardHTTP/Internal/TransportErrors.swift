#if HTTP
    import SwitchyardNetworking
    import AsyncHTTPClient
    import NIOHTTP1
    import NIOHTTP2

    /// Turns the client library's and SwiftNIO's errors into an ``HTTPError/Reason`` a person can read.
    enum TransportErrors {
        /// `error` as a reason, naming `host` where the error does not name the server: AsyncHTTPClient's errors,
        /// HTTP/1.1 parse errors and HTTP/2 stream resets read here, the connection's own failures by
        /// ``ConnectionFailure``. A broken connection and a failed DNS lookup are ``HTTPError/Reason/transport(_:)``
        /// and timeouts ``HTTPError/Reason/timedOut(_:)`` (both worth another attempt); TLS failures, malformed
        /// responses and the client's refusals are ``HTTPError/Reason/failed(_:)``.
        static func reason(for error: any Error, at host: HostKey? = nil) -> HTTPError.Reason {
            if let error = error as? HTTPError { return error.reason }
            if error is CancellationError { return .cancelled }
            let place = ConnectionFailure.place(host: host?.host, port: host?.port)
            if let error = error as? HTTPClientError { return reason(for: error, place: place) }
            if let error = error as? HTTPParserError {
                if error == .invalidEOFState {
                    return .transport("connection closed by \(place) in the middle of the response")
                }
                return .failed("\(place) sent no valid HTTP/1.1 response: \(error)")
            }
            if let error = error as? NIOHTTP2Errors.StreamClosed {
                // The server reset the stream, or left it unprocessed going away: another attempt may be served.
                return .transport("\(place) reset the HTTP/2 stream: \(words(error.errorCode))")
            }
            if let failure = ConnectionFailure(error, host: host?.host, port: host?.port) {
                switch failure.kind {
                case .timedOut: return .timedOut(failure.description)
                case .tls, .untrustedCertificate: return .failed(failure.description)
                case .refused, .closed, .unreachable, .unknownHost, .other: return .transport(failure.description)
                }
            }
            return .failed(String(describing: error))
        }

        private static func reason(for error: HTTPClientError, place: String) -> HTTPError.Reason {
            switch error {
            case HTTPClientError.cancelled: .cancelled
            case HTTPClientError.alreadyShutdown: .sessionShutDown  // the session's own client: only its shutdown
            case HTTPClientError.invalidURL: .invalidURL("not a URL the client accepts")
            case HTTPClientError.emptyHost: .invalidURL("no host")
            case HTTPClientError.emptyScheme: .invalidURL("no scheme")
            case HTTPClientError.connectTimeout: .timedOut("timed out connecting to \(place)")
            case HTTPClientError.tlsHandshakeTimeout: .timedOut("timed out in the TLS handshake with \(place)")
            case HTTPClientError.readTimeout:
                .timedOut("timed out waiting for \(place): no byte within the idle timeout")
            case HTTPClientError.writeTimeout: .timedOut("timed out sending the request to \(place)")
            case HTTPClientError.deadlineExceeded: .timedOut("timed out at the request's deadline")
            case HTTPClientError.getConnectionFromPoolTimeout:
                .timedOut("timed out waiting for a connection to \(place)")
            case HTTPClientError.remoteConnectionClosed:
                .transport("connection closed by \(place) before the response ended")
            case HTTPClientError.uncleanShutdown: .transport("connection closed by \(place) without ending TLS")
            // Redirect limits and cycles, malformed requests, the client's state: the same again on another attempt.
            default: .failed("the HTTP client failed: \(error.shortDescription)")
            }
        }

        /// An HTTP/2 error code in words.
        private static func words(_ code: HTTP2ErrorCode) -> String {
            switch code {
            case HTTP2ErrorCode.refusedStream: "refused, not processed"
            case HTTP2ErrorCode.cancel: "cancelled"
            case HTTP2ErrorCode.enhanceYourCalm: "too many requests at once"
            case HTTP2ErrorCode.internalError: "an internal error of the server"
            case HTTP2ErrorCode.protocolError: "a protocol error"
            case HTTP2ErrorCode.http11Required: "HTTP/1.1 required"
            default: "error code \(code.networkCode)"
            }
        }
    }
#endif
