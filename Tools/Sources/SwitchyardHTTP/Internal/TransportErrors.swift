import AsyncHTTPClient
import NIOCore

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
                (.invalidURL, .invalidURL("not a URL the client accepts")),
                (.emptyHost, .invalidURL("no host")),
                (.emptyScheme, .invalidURL("no scheme")),
            ]
            if let match = known.first(where: { $0.0 == error }) { return match.1 }
            return .transport(String(describing: error))
        }
        if let error = error as? IOError { return .transport(error.description) }
        return .transport(String(describing: error))
    }
}
