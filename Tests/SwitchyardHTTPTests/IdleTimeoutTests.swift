#if HTTP && SWITCHYARD_TEST_HOOKS  // sweeps the idle timeout through a test hook (debug builds only)
    import Switchyard
    @_spi(Testing) import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import Synchronization
    import Testing

    /// The idle timeout is an hour here, so no periodic sweep comes during a test: each test sweeps by hand. A
    /// request waiting since sweep `t` expires at sweep `t + 9` (an eighth of the timeout per sweep, and one more).
    @Suite("HTTPSession idle timeout: one sweep for all requests, on every path, a holding reader exempt")
    struct IdleTimeoutTests {
        static let configuration = HTTPSession.Configuration(
            timeouts: HTTPTimeouts(idle: .seconds(3600)),
            retry: HTTPRetryPolicy(maximumAttempts: 2, initialDelay: .zero, jitter: 0))

        /// The ways a request reaches the server: a coalesced `GET` (AsyncHTTPClient's callback API), a `PUT` (its
        /// async API; with a body sent whole, or in parts), a stream, a download (callbacks, writing a file).
        enum Call: String, CaseIterable, CustomTestStringConvertible {
            case coalescedGet, put, largePut, stream, download
            var testDescription: String { rawValue }

            /// The request's body.
            var body: [UInt8] {
                switch self {
                case .put: Array("x".utf8)
                case .largePut: patternBytes(200_000)
                default: []
                }
            }

            func run(_ session: HTTPSession, _ url: String, folder: String) async throws -> [UInt8] {
                switch self {
                case .coalescedGet:
                    return try await session.data(for: HTTPRequest(url: url)).body
                case .put, .largePut:
                    return try await session.data(for: HTTPRequest(url: url, method: .PUT, body: body)).body
                case .stream:
                    return try await session.stream(HTTPRequest(url: url)) { _, body in
                        var bytes: [UInt8] = []
                        for try await buffer in body { bytes += buffer.readableBytesView }
                        return bytes
                    }
                case .download:
                    _ = try await session.download(HTTPRequest(url: url), to: folder + "/file")
                    return try FileSystem.read(folder + "/file")
                }
            }
        }

        @Test(
            "a silent response fails its attempt at the ninth sweep, not the eighth, and the retry is served",
            arguments: Call.allCases)
        func silentResponse(_ call: Call) async throws {
            try await withServer(Self.configuration) { server, session in
                let gate = StubGate()
                let arrivals = Mutex(0)
                server.route("/slow") { _ in
                    let first = arrivals.withLock { count in
                        count += 1
                        return count == 1
                    }
                    return first ? StubResponse.text("late").held(by: gate) : StubResponse.text("fresh")
                }
                defer { gate.open() }
                try await withTemporaryFolder { folder in
                    let url = server.url("/slow")
                    let request = Task { try await call.run(session, url, folder: folder) }
                    await server.waitForOpenRequests(count: 1)
                    for _ in 1...8 { try await session.sweepIdleRequests() }
                    #expect(server.requests(to: "/slow").count == 1)
                    try await session.sweepIdleRequests()
                    #expect(try await request.value == Array("fresh".utf8))
                    let requests = server.requests(to: "/slow")
                    #expect(requests.count == 2)
                    #expect(requests.allSatisfy { $0.body == call.body })
                    #expect(session.idleWatchCount == 0)
                }
            }
        }

        @Test("with no retry left, a silent response fails the call as timed out")
        func timedOut() async throws {
            var configuration = Self.configuration
            configuration.retry = .never
            try await withServer(configuration) { server, session in
                let gate = StubGate()
                server.route("/slow", StubResponse.text("late").held(by: gate))
                defer { gate.open() }
                let request = Task { try await session.data(for: HTTPRequest(url: server.url("/slow"))) }
                await server.waitForOpenRequests(count: 1)
                for _ in 1...9 { try await session.sweepIdleRequests() }
                let error = await #expect(throws: HTTPError.self) { try await request.value }
                guard case .timedOut(let words)? = error?.reason else {
                    Issue.record("expected a timeout, got \(String(describing: error))")
                    return
                }
                #expect(words.contains("no byte within the idle timeout"))
            }
        }

        @Test("a stream whose body stalls once its consumer runs fails as timed out, for good: one call, no retry")
        func stalledStream() async throws {
            // A real one-second timeout, swept every 125 ms: the consumer is waiting for the stalled body by then.
            let configuration = HTTPSession.Configuration(
                timeouts: HTTPTimeouts(idle: .seconds(1)),
                retry: HTTPRetryPolicy(maximumAttempts: 3, initialDelay: .zero, jitter: 0))
            try await withServer(configuration) { server, session in
                let gate = StubGate()
                server.route(
                    "/stall",
                    StubResponse(body: patternBytes(64_000)).chunked(by: 16_000).dropping(
                        afterBytes: 16_000, when: gate))
                defer { gate.open() }
                let calls = Mutex(0)
                let error = await #expect(throws: HTTPError.self) {
                    try await session.stream(HTTPRequest(url: server.url("/stall"))) { _, body in
                        calls.withLock { $0 += 1 }
                        for try await _ in body {}
                    }
                }
                guard case .timedOut(let words)? = error?.reason else {
                    Issue.record("expected a timeout, got \(String(describing: error))")
                    return
                }
                #expect(words.contains("no byte within the idle timeout"))
                #expect(calls.withLock { $0 } == 1)
                #expect(server.requests(to: "/stall").count == 1)
            }
        }

        @Test("a stream's reader holding the body back is not timed out, however many sweeps pass")
        func holdingReader() async throws {
            try await withServer(Self.configuration) { server, session in
                let bytes = patternBytes(64_000)
                server.route("/body", StubResponse(body: bytes).chunked(by: 16_000))
                let (firstRead, reading) = AsyncStream.makeStream(of: Void.self)
                let (proceed, proceeding) = AsyncStream.makeStream(of: Void.self)
                let request = Task {
                    try await session.stream(HTTPRequest(url: server.url("/body"))) { _, body in
                        var iterator = body.makeAsyncIterator()
                        var received = Array(try await iterator.next()?.readableBytesView ?? [])
                        reading.yield()
                        for await _ in proceed { break }
                        while let buffer = try await iterator.next() { received += buffer.readableBytesView }
                        return received
                    }
                }
                for await _ in firstRead { break }
                for _ in 1...30 { try await session.sweepIdleRequests() }
                proceeding.yield()
                #expect(try await request.value == bytes)
                #expect(server.requests(to: "/body").count == 1)
                #expect(session.idleWatchCount == 0)
            }
        }
    }
#endif
