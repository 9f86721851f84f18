#if HTTP && SWITCHYARD_TEST_HOOKS  // waits on test hooks of the library (debug builds only)
    import Switchyard
    @_spi(Testing) import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import Testing
    import SwitchyardTesting

    @Suite("HTTPSession over TLS: trust, HTTP/2 and HTTP/1.1 by ALPN, per-host limits over streams")
    struct TLSTests {
        /// One authority for the suite: generating runs `openssl` three times.
        static let certificates = Result { try StubCertificates.generate() }

        /// Runs `body` with an HTTPS stub server and a session that trusts its authority.
        func withTLSServer(
            http2: Bool = true, _ configuration: HTTPSession.Configuration = .heldResponses,
            _ body: (StubServer, HTTPSession) async throws -> Void
        ) async throws {
            try await withServer(configuration, tls: try Self.certificates.get(), http2: http2, body)
        }

        @Test("a TLS request to the stub succeeds with its authority trusted, over HTTP/2")
        func trustedAuthority() async throws {
            try await withTLSServer { server, session in
                #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))
                server.route("/hello", StubResponse.text("hello over TLS"))
                let response = try await session.data(for: HTTPRequest(url: server.url("/hello")))
                #expect(response.text == "hello over TLS")
                #expect(server.requests.map(\.version) == ["HTTP/2"])
            }
        }

        @Test("without the authority (the system's trust store), the request fails at once, saying why; no retry")
        func untrustedAuthority() async throws {
            let server = try await StubServer.start(tls: try Self.certificates.get())
            let session = HTTPSession(
                configuration: HTTPSession.Configuration(
                    retry: HTTPRetryPolicy(maximumAttempts: 3, initialDelay: .zero, jitter: 0)))
            server.route("/hello", StubResponse.text("never read"))
            let error = await #expect(throws: HTTPError.self) {
                try await session.data(for: HTTPRequest(url: server.url("/hello")))
            }
            if case .failed(let why) = error?.reason {
                let untrusted = "TLS: the server's certificate is not trusted: 127.0.0.1:\(server.port) "
                #expect(why.hasPrefix(untrusted), "\(why)")
            } else {
                Issue.record("not a TLS failure: \(String(describing: error))")
            }
            #expect(error?.attempts.count == 1)
            #expect(server.requests.isEmpty)
            try await session.shutdown()
            try await server.shutdown()
        }

        @Test("a server that offers only HTTP/1.1 by ALPN is spoken to in HTTP/1.1")
        func http1OverTLS() async throws {
            try await withTLSServer(http2: false) { server, session in
                server.route("/hello", StubResponse.text("hello"))
                let response = try await session.data(for: HTTPRequest(url: server.url("/hello")))
                #expect(response.text == "hello")
                #expect(server.requests.map(\.version) == ["HTTP/1.1"])
            }
        }

        @Test("over HTTP/2 the per-host limit counts streams: 200 requests, never more than 6 open, one connection")
        func perHostLimitOverStreams() async throws {
            let configuration = HTTPSession.Configuration(maximumRequestsPerHost: 6, retry: .never)
            try await withTLSServer(configuration) { server, session in
                let gate = StubGate()
                server.route("/item", StubResponse(body: patternBytes(4096)).held(by: gate))
                let count = 200
                try await withThrowingTaskGroup(of: Int.self) { group in
                    // The first, held at the server, keeps the host in use: its queue is the one the others join.
                    let first = server.url("/item?n=0")
                    group.addTask { try await session.data(for: HTTPRequest(url: first)).body.count }
                    await server.waitForOpenRequests(count: 1)
                    let queue = try #require(session.queue(forHost: "127.0.0.1", port: server.port, scheme: "https"))
                    let submitted = queue.events(bufferingPolicy: .unbounded)
                    for index in 1..<count {
                        let url = server.url("/item?n=\(index)")
                        group.addTask { try await session.data(for: HTTPRequest(url: url)).body.count }
                    }
                    await server.waitForOpenRequests(count: 6)
                    await waitFor(count - 1, .submitted, in: submitted, "every other request submitted")
                    #expect(queue.counts.pending == count - 6)
                    #expect(server.openRequests == 6)
                    gate.open()
                    var total = 0
                    for try await size in group { total += size }
                    #expect(total == count * 4096)
                }
                #expect(server.maximumOpenRequests == 6)
                #expect(server.connections == 1)
                #expect(Set(server.requests.map(\.version)) == ["HTTP/2"])
            }
        }

        @Test("cancelling an HTTP/2 request mid-body resets its stream and frees its slot; the connection stays")
        func cancelResetsStream() async throws {
            let configuration = HTTPSession.Configuration(maximumRequestsPerHost: 1, retry: .never)
            try await withTLSServer(configuration) { server, session in
                server.route(
                    "/slow", StubResponse(body: patternBytes(2048)).chunked(by: 1024).dripping(every: .seconds(3600)))
                server.route("/next", StubResponse.text("next"))
                let firstChunk = AsyncStream<Void>.makeStream()
                let slow = Task {
                    try await session.stream(HTTPRequest(url: server.url("/slow"))) { _, body in
                        for try await _ in body { firstChunk.continuation.yield() }
                    }
                }
                for await _ in firstChunk.stream { break }
                slow.cancel()
                await #expect(throws: HTTPError.self) { try await slow.value }
                let next = try await session.data(for: HTTPRequest(url: server.url("/next")))
                #expect(next.text == "next")
                await server.waitForAbandonedResponses(count: 1)
                #expect(server.requests.map(\.version) == ["HTTP/2", "HTTP/2"])
            }
        }

        @Test("over HTTP/2, when every coalesced caller cancels, the shared stream is reset; the connection serves on")
        func allCallersLeaveOverHTTP2() async throws {
            try await withTLSServer { server, session in
                let gate = StubGate()
                server.route("/shared", StubResponse.text("shared").held(by: gate))
                server.route("/next", StubResponse.text("next"))
                let request = HTTPRequest(url: server.url("/shared"))
                let tasks = (0..<5).map { _ in Task { try await session.data(for: request) } }
                await server.waitForRequests(count: 1)
                await CallbackExpectation.event("five callers joined", within: .seconds(30)) {
                    await session.waitForCallers(5, for: request)
                }
                for task in tasks { task.cancel() }
                for task in tasks {
                    let error = await #expect(throws: HTTPError.self) { try await task.value }
                    #expect(error?.isCancelled == true, "\(String(describing: error))")
                }
                await server.waitForAbandonedResponses(count: 1)
                #expect(session.callersWaiting(for: request) == 0)
                gate.open()
                let next = try await session.data(for: HTTPRequest(url: server.url("/next")))
                #expect(next.text == "next")
                #expect(server.requests.map(\.version) == ["HTTP/2", "HTTP/2"])
                #expect(server.requests(to: "/shared").count == 1)
            }
        }
    }
#endif
