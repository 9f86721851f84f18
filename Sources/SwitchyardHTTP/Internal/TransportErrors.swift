#if HTTP
    import AsyncHTTPClient
    import NIOCore
    import NIOHTTP1
    import NIOHTTP2
    import NIOPosix

    /// Turns the client library's and NIO's errors into an ``HTTPError/Reason`` a person can read.
    enum TransportErrors {
        static func reason(for error: any Error) -> HTTPError.Reason {
            if let error = error as? HTTPError { return error.reason }
            if error is CancellationError { return .cancelled }
            if let error = error as? HTTPClientError {
                let known: [(HTTPClientError, HTTPError.Reason)] = [
                    (.connectTimeout, .timedOut("connect")),
                    (.tlsHandshakeTimeout, .timedOut("TLS handshake")),
                    (.readTimeout, .timedOut("idle: no byte received in time")),
                    (.deadlineExceeded, .timedOut("deadline")),
                    (.cancelled, .cancelled),
                    (.remoteConnectionClosed, .transport("the server closed the connection")),
                    (.getConnectionFromPoolTimeout, .timedOut("waiting for a connection")),
                    (.alreadyShutdown, .cancelled),
                    (.invalidURL, .invalidURL("not a URL the client accepts")),
                    (.emptyHost, .invalidURL("no host")),
                    (.emptyScheme, .invalidURL("no scheme")),
                ]
                if let match = known.first(where: { $0.0 == error }) { return match.1 }
                return .failed(String(describing: error))  // redirects, malformed responses: the same again
            }
            if let error = error as? IOError { return .transport(error.description) }
            if let error = error as? HTTPParserError, error == .invalidEOFState {
                return .transport("the connection closed in the middle of the response")
            }
            if error is ChannelError || error is NIOConnectionError { return .transport(String(describing: error)) }
            // An HTTP/2 stream the server reset or left unprocessed (GOAWAY): the connection's peers may take it again.
            if error is NIOHTTP2Errors.StreamClosed {
                return .transport(String(describing: error))
            }
            return .failed(String(describing: error))  // TLS and the rest
        }
    }
#endif
