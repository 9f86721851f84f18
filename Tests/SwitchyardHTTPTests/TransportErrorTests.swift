#if HTTP
    import NIOCore
    @testable import SwitchyardHTTP
    import SwitchyardNetworking
    import Testing

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    @Suite("Transport errors read as what happened: refused, reset, timed out, not trusted")
    struct TransportErrorTests {
        @Test("a request to a port nobody listens on fails as refused by that port, in balanced parentheses")
        func refusedConnection() async throws {
            try await withRefusingPort { port in
                let session = HTTPSession(
                    configuration: HTTPSession.Configuration(
                        retry: HTTPRetryPolicy(maximumAttempts: 2, initialDelay: .zero, jitter: 0)))
                let url = "http://127.0.0.1:\(port)/feed.zip"
                let refused = "connection refused by 127.0.0.1:\(port)"
                let coalesced = await #expect(throws: HTTPError.self) {
                    try await session.data(for: HTTPRequest(url: url))
                }
                let streamed = await #expect(throws: HTTPError.self) {
                    try await session.stream(HTTPRequest(url: url)) { _, _ in 0 }
                }
                for error in [coalesced, streamed] {
                    #expect(error?.reason == .transport(refused))
                    #expect(error?.attempts == [.transport(refused), .transport(refused)])
                    let each = "(attempt 1: \(refused); attempt 2: \(refused))"
                    #expect(error?.description == "GET \(url) failed after 2 attempts: \(refused) \(each)")
                    let text = error?.description ?? ""
                    #expect(Self.isBalanced(text), "\(text)")
                    #expect(!text.contains("reset") && !text.contains("errno"), "\(text)")
                }
                try await session.shutdown()
            }
        }

        @Test("SwiftNIO's errnos read as what happened to the connection, naming the server")
        func errnos() {
            let cases: [(Int32, ConnectionFailure.Kind, String)] = [
                (ECONNREFUSED, .refused, "connection refused by example.org:443"),
                (ECONNRESET, .closed, "connection reset by example.org:443"),
                (ETIMEDOUT, .timedOut, "timed out waiting for example.org:443"),
                (EHOSTUNREACH, .unreachable, "no route to example.org:443: host unreachable"),
                (ENETUNREACH, .unreachable, "no route to example.org:443: network unreachable"),
            ]
            for (code, kind, text) in cases {
                // NIO's own text for these: "connection reset (error set): Connection refused) (errno: 111)".
                let error = IOError(errnoCode: code, reason: "connection reset (error set)")
                let failure = ConnectionFailure(error, host: "example.org", port: 443)
                #expect(failure == ConnectionFailure(kind, text))
            }
            #expect(
                ConnectionFailure(IOError(errnoCode: ECONNREFUSED, reason: "connect"))?.description
                    == "connection refused by the server")
            #expect(ConnectionFailure.place(host: "::1", port: 8080) == "[::1]:8080")
        }

        @Test("errors map to reasons worded the same way: timeouts, broken connections, cancellation")
        func reasons() {
            let host = HostKey(scheme: "https", host: "example.org", port: 443)
            let cases: [(any Error, HTTPError.Reason)] = [
                (
                    ChannelError.connectTimeout(.seconds(10)),
                    .timedOut("timed out connecting to example.org:443, after 10.0 seconds")
                ),
                (ChannelError.eof, .transport("connection closed by example.org:443 before the exchange ended")),
                (
                    IOError(errnoCode: ECONNREFUSED, reason: "connect"),
                    .transport("connection refused by example.org:443")
                ),
                (IOError(errnoCode: ETIMEDOUT, reason: "connect"), .timedOut("timed out waiting for example.org:443")),
                (CancellationError(), .cancelled),
                (HTTPError(request: "GET /", reason: .status(503)), .status(503)),
            ]
            for (error, reason) in cases {
                let mapped = TransportErrors.reason(for: error, at: host)
                #expect(mapped == reason)
                #expect(Self.isBalanced(mapped.description), "\(mapped)")
            }
        }

        /// Whether every `(` in `text` is closed by a `)` after it.
        static func isBalanced(_ text: String) -> Bool {
            var depth = 0
            for character in text {
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
                if depth < 0 { return false }
            }
            return depth == 0
        }
    }

    /// Runs `body` with a port of 127.0.0.1 that refuses every connection: a TCP socket bound to it that never
    /// listens, kept open until `body` returns, so that no other test's server can take the port meanwhile.
    @discardableResult
    func withRefusingPort<Value>(_ body: (Int) async throws -> Value) async throws -> Value {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw FileSystem.Failure(description: "socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else { throw FileSystem.Failure(description: "bind: errno \(errno)") }
        return try await body(Int(UInt16(bigEndian: address.sin_port)))
    }
#endif
