#if HTTP
    import Logging
    import MetricsTestKit
    import NIOCore
    import ServiceLifecycle
    @testable import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import Synchronization
    import SwitchyardTesting
    import Testing

    /// Log lines kept in memory, with the logger's own metadata (`http_session`) merged into each line's.
    final class CapturedLog: Sendable {
        struct Entry: Sendable {
            var level: Logger.Level
            var message: String
            var metadata: [String: String]

            /// The message and every metadata value: what a reader of the line sees.
            var text: String { ([message] + metadata.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }
        }

        private let lines = LockedState<[Entry]>([])

        var entries: [Entry] { lines.withLock { $0 } }

        /// A logger at `trace` that keeps every line here.
        var logger: Logger {
            var logger = Logger(label: "test") { _ in Handler(log: self) }
            logger.logLevel = .trace
            return logger
        }

        /// The first line with `message` whose `http_url` is `url`.
        func first(_ message: String, url: String) -> Entry? {
            entries.first { $0.message == message && $0.metadata["http_url"] == url }
        }

        struct Handler: LogHandler {
            let log: CapturedLog
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace

            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                let merged = metadata.merging(event.metadata ?? [:]) { $1 }.mapValues { "\($0)" }
                log.lines.withLock {
                    $0.append(Entry(level: event.level, message: "\(event.message)", metadata: merged))
                }
            }
        }
    }

    @Suite("HTTPSession observability: swift-metrics, swift-log, and a swift-service-lifecycle service")
    struct ObservabilityTests {
        /// The Service group's own logger: its lines are not under test.
        static let quiet = Logger(label: "group") { _ in SwiftLogNoOpLogHandler() }

        /// Runs `body`, then shuts `session` (unless it is already) and `server` down, whether `body` throws or not:
        /// a session must be shut down before it goes.
        static func cleaningUp<Value>(
            _ session: HTTPSession, _ server: StubServer, _ body: () async throws -> Value
        ) async throws -> Value {
            let value: Value
            do {
                value = try await body()
            } catch {
                if !session.isShutDown { try? await session.shutdown() }
                try? await server.shutdown()
                throw error
            }
            if !session.isShutDown { try await session.shutdown() }
            try? await server.shutdown()  // stopped already by a service group, in some tests
            return value
        }

        /// What ``scenario()`` requested and recorded.
        struct Scenario {
            let metrics: TestMetrics
            let log: CapturedLog
            /// The URLs as a log line may show them: no query.
            let ok: String
            let missing: String
            let flaky: String
            let refused: String
        }

        /// A session named `observed` (2 attempts, no wait between them) makes four calls in turn: a 200, a 404, a 503
        /// retried to a 200, and a refused connection (retried once). Each sends an `authorization` header and a token
        /// in its query, neither of which a log line may show.
        static func scenario() async throws -> Scenario {
            let metrics = TestMetrics()
            let log = CapturedLog()
            let server = try await StubServer.start()
            server.route("/ok", StubResponse.text("ok"))
            server.route("/flaky", RetryTests.failingFirst([StubResponse(status: 503)]))
            let session = HTTPSession(
                configuration: HTTPSession.Configuration(
                    name: "observed", retry: HTTPRetryPolicy(maximumAttempts: 2, initialDelay: .zero, jitter: 0)),
                logger: log.logger, metricsFactory: metrics)
            func request(_ url: String) -> HTTPRequest {
                HTTPRequest(url: url + "?token=query-secret", headers: ["authorization": "Bearer header-secret"])
            }
            let refused = try await cleaningUp(session, server) {
                try await withRefusingPort { (port) async throws -> String in
                    let ok = try await session.data(for: request(server.url("/ok")))
                    #expect(ok.text == "ok")
                    let missing = await #expect(throws: HTTPError.self) {
                        try await session.data(for: request(server.url("/missing")))
                    }
                    #expect(missing?.reason == .status(404))
                    let flaky = try await session.data(for: request(server.url("/flaky")))
                    #expect(flaky.text == "ok")
                    let url = "http://127.0.0.1:\(port)/gone"
                    let refused = await #expect(throws: HTTPError.self) { try await session.data(for: request(url)) }
                    #expect(refused?.attempts.count == 2)
                    #expect(server.requests.allSatisfy { $0.header("authorization") == "Bearer header-secret" })
                    return url
                }
            }
            return Scenario(
                metrics: metrics, log: log, ok: server.url("/ok"), missing: server.url("/missing"),
                flaky: server.url("/flaky"), refused: refused)
        }

        @Test("attempts by status class, retries, bytes and calls in flight: a 200, a 404, a 503 then 200, a refusal")
        func metricsByStatusClass() async throws {
            let metrics = try await Self.scenario().metrics
            let session = ("session", "observed")
            func requests(_ status: String) throws -> Int64 {
                try metrics.expectCounter("switchyard_http_requests_total", [session, ("status", status)]).totalValue
            }
            #expect(try requests("2xx") == 2)  // the 200, and the 503's second attempt
            #expect(try requests("4xx") == 1)
            #expect(try requests("5xx") == 1)
            #expect(try requests("error") == 2)  // both attempts of the refused connection
            #expect(try requests("1xx") == 0)  // made with the session, though never counted
            #expect(try requests("3xx") == 0)
            #expect(try metrics.expectCounter("switchyard_http_retries_total", [session]).totalValue == 2)
            #expect(try metrics.expectCounter("switchyard_http_bytes_received_total", [session]).totalValue == 4)
            let durations = try metrics.expectTimer("switchyard_http_request_duration_seconds", [session])
            #expect(durations.values.count == 6)
            #expect(durations.values.allSatisfy { $0 >= 0 })
            let inFlight = try metrics.expectMeter("switchyard_http_requests_in_flight", [session])
            #expect(inFlight.values.contains(1))
            #expect(inFlight.lastValue == 0)
        }

        @Test("log lines carry the session, method, URL, status, attempt and duration, and never a header value")
        func logLines() async throws {
            let scenario = try await Self.scenario()
            let log = scenario.log
            let entries = log.entries
            #expect(!entries.isEmpty)
            for entry in entries {
                #expect(entry.metadata["http_session"] == "observed", "\(entry.text)")
                #expect(!entry.text.contains("header-secret"), "\(entry.text)")
                #expect(!entry.text.contains("Bearer"), "\(entry.text)")
                #expect(!entry.text.contains("query-secret"), "\(entry.text)")
            }

            let ok = try #require(log.first("request finished", url: scenario.ok))
            #expect(ok.level == .debug)
            #expect(ok.metadata["http_method"] == "GET")
            #expect(ok.metadata["http_status"] == "200")
            #expect(ok.metadata["attempt"] == "1")
            #expect(ok.metadata["duration"] != nil)

            let missing = try #require(log.first("request failed", url: scenario.missing))
            #expect(missing.level == .warning)
            #expect(missing.metadata["reason"] == "status 404")
            #expect(missing.metadata["http_status"] == "404")
            #expect(missing.metadata["attempt"] == "1")
            #expect(missing.metadata["duration"] != nil)

            let retry = try #require(log.first("retry scheduled", url: scenario.flaky))
            #expect(retry.level == .notice)
            #expect(retry.metadata["reason"] == "status 503")
            #expect(retry.metadata["http_status"] == "503")
            #expect(retry.metadata["attempt"] == "1")
            #expect(retry.metadata["delay"] != nil)
            let finished = entries.filter {
                $0.message == "request finished" && $0.metadata["http_url"] == scenario.flaky
            }
            #expect(finished.map { $0.metadata["http_status"] } == ["503", "200"])
            #expect(finished.map { $0.metadata["attempt"] } == ["1", "2"])
            #expect(log.first("request failed", url: scenario.flaky) == nil)

            let refused = try #require(log.first("request failed", url: scenario.refused))
            #expect(refused.level == .warning)
            #expect(refused.metadata["reason"]?.contains("connection refused") == true, "\(refused.text)")
            #expect(refused.metadata["attempt"] == "2")
            #expect(refused.metadata["http_status"] == nil)
            #expect(log.first("retry scheduled", url: scenario.refused)?.level == .notice)

            #expect(entries.last?.message == "HTTP session shut down")
            #expect(entries.last?.level == .info)
        }

        @Test("downloads and streams count their body bytes; a resume, a 304 and a resumed file's mismatch are logged")
        func downloadsAndStreams() async throws {
            let metrics = TestMetrics()
            let log = CapturedLog()
            let bytes = patternBytes(3 << 20)
            // `bytes`' SHA-256, computed apart (Python's hashlib).
            let digest = "715f9963f3b2ce8ceacb4be1377340dd38ca160aae75afb3cb1d161136d7796b"
            let server = try await StubServer.start()
            let session = HTTPSession(
                configuration: HTTPSession.Configuration(name: "files", retry: .never), logger: log.logger,
                metricsFactory: metrics)
            try await Self.cleaningUp(session, server) {
                server.route("/feed.zip", StubResponse(body: bytes).header("etag", "\"v1\"").chunked(by: 64 << 10))
                let url = server.url("/feed.zip")
                let validators = Array("\"v1\"\n\n\(url)\n".utf8)
                try await withTemporaryFolder { folder in
                    // A partial file of this URL and version, left by an earlier call: resumed.
                    try FileSystem.write(Array(bytes[..<1_000]), to: folder + "/a.zip.partial")
                    try FileSystem.write(validators, to: folder + "/a.zip.partial.validators")
                    let resumed = try await session.download(HTTPRequest(url: url), to: folder + "/a.zip")
                    #expect(resumed.outcome == .resumed(fromByte: 1_000))
                    // The file is current: a 304.
                    let unchanged = try await session.download(
                        HTTPRequest(url: url), to: folder + "/a.zip", ifChanged: resumed.validators)
                    #expect(unchanged.outcome == .unchanged)
                    // A partial file whose bytes are not the resource's: resumed, mismatched, downloaded again.
                    try FileSystem.write([UInt8](repeating: 0, count: 1_000), to: folder + "/b.zip.partial")
                    try FileSystem.write(validators, to: folder + "/b.zip.partial.validators")
                    let checked = try await session.download(
                        HTTPRequest(url: url), to: folder + "/b.zip", checksum: .sha256(expected: digest))
                    #expect(checked.outcome == .downloaded)
                    #expect(try FileSystem.read(folder + "/b.zip") == bytes)
                }
                let streamed = try await session.stream(HTTPRequest(url: url)) { _, body in
                    var count = 0
                    for try await buffer in body { count += buffer.readableBytes }
                    return count
                }
                #expect(streamed == bytes.count)

                let name = ("session", "files")
                let whole = Int64(bytes.count)
                #expect(
                    try metrics.expectCounter("switchyard_http_bytes_received_total", [name]).totalValue
                        == (whole - 1_000) + (whole - 1_000) + whole + whole)
                let byClass = { (status: String) throws -> Int64 in
                    try metrics.expectCounter("switchyard_http_requests_total", [name, ("status", status)]).totalValue
                }
                #expect(try byClass("2xx") == 4)  // two 206s, the full download's 200, the stream's 200
                #expect(try byClass("3xx") == 1)  // the 304

                let resumedLine = try #require(log.first("download resumed", url: url))
                #expect(resumedLine.level == .info)
                #expect(resumedLine.metadata["resumed_from"] == "1000")
                #expect(resumedLine.metadata["size"] == "\(bytes.count)")
                let unchangedLine = try #require(log.first("download unchanged", url: url))
                #expect(unchangedLine.level == .info)
                #expect(unchangedLine.metadata["http_status"] == "304")
                let mismatch = try #require(
                    log.first("download checksum mismatch; downloading it again in full", url: url))
                #expect(mismatch.level == .warning)
                #expect(mismatch.metadata["resumed_from"] == "1000")
                #expect(mismatch.metadata["reason"]?.contains("SHA-256") == true)
                #expect(!log.entries.contains { $0.message == "request failed" })
            }
        }

        @Test("a ServiceGroup's graceful shutdown ends run() of the session and the stub server; later calls fail")
        func serviceGroupShutsDown() async throws {
            let log = CapturedLog()
            let server = try await StubServer.start()
            server.route("/ok", StubResponse.text("ok"))
            let session = HTTPSession(
                configuration: HTTPSession.Configuration(name: "served", retry: .never), logger: log.logger)
            // The server first: a group shuts its services down in reverse order, the session before the server.
            let group = ServiceGroup(services: [server, session], logger: Self.quiet)
            let running = Task { try await group.run() }
            try await Self.cleaningUp(session, server) {
                #expect(try await session.data(for: HTTPRequest(url: server.url("/ok"))).text == "ok")
                await group.triggerGracefulShutdown()
                try await running.value
                #expect(session.isShutDown)
                let error = await #expect(throws: HTTPError.self) {
                    try await session.data(for: HTTPRequest(url: server.url("/ok")))
                }
                #expect(error?.reason == .sessionShutDown)
                #expect(error?.attempts == [])
                #expect(server.requests.count == 1)
                #expect(log.entries.contains { $0.message == "HTTP session shut down" && $0.level == .info })
                // The server's run() closed its listening socket.
                await #expect(throws: ChannelError.self) { try await server.shutdown() }
            }
        }

        @Test("a request in flight at the group's graceful shutdown fails with sessionShutDown: nothing is drained")
        func inFlightRequestFailsAtShutdown() async throws {
            let metrics = TestMetrics()
            let server = try await StubServer.start()
            let gate = StubGate()
            server.route("/held", StubResponse.text("late").held(by: gate))
            let session = HTTPSession(
                configuration: HTTPSession.Configuration(name: "held", retry: .never).holdingResponses,
                metricsFactory: metrics)
            let group = ServiceGroup(services: [session], logger: Self.quiet)
            let running = Task { try await group.run() }
            try await Self.cleaningUp(session, server) {
                defer { gate.open() }
                let call = Task { try await session.data(for: HTTPRequest(url: server.url("/held"))) }
                await server.waitForRequests(count: 1)
                await group.triggerGracefulShutdown()
                try await running.value
                let error = await #expect(throws: HTTPError.self) { try await call.value }
                #expect(error?.reason == .sessionShutDown)
                let name = ("session", "held")
                #expect(try metrics.expectMeter("switchyard_http_requests_in_flight", [name]).lastValue == 0)
                // An attempt ended by the shutdown is not counted.
                for status in HTTPSessionMetrics.statusClasses {
                    let counter = try metrics.expectCounter(
                        "switchyard_http_requests_total", [name, ("status", status)])
                    #expect(counter.totalValue == 0, "\(status)")
                }
            }
        }

        @Test("a logged URL has no user information, query or fragment")
        func loggableURL() {
            #expect(
                HTTPSession.loggableURL("https://user:secret@example.org:8443/feed.zip?token=x#top")
                    == "https://example.org:8443/feed.zip")
            #expect(HTTPSession.loggableURL("http://example.org?key=1") == "http://example.org")
            #expect(HTTPSession.loggableURL("https://example.org/a@b/c") == "https://example.org/a@b/c")
            #expect(HTTPSession.loggableURL("https://token@example.org") == "https://example.org")
            #expect(HTTPSession.loggableURL("not a url?secret") == "not a url")
        }

        @Test("status classes: 100–599 by their hundred, anything else, and no response, is error")
        func statusClasses() {
            let classOf = { (status: Int?) -> String in
                HTTPSessionMetrics.statusClasses[HTTPSessionMetrics.statusClassIndex(of: status)]
            }
            #expect(classOf(101) == "1xx")
            #expect(classOf(200) == "2xx")
            #expect(classOf(304) == "3xx")
            #expect(classOf(404) == "4xx")
            #expect(classOf(599) == "5xx")
            #expect(classOf(600) == "error")
            #expect(classOf(99) == "error")
            #expect(classOf(nil) == "error")
        }
    }
#endif
