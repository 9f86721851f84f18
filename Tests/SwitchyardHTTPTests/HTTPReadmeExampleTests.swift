#if HTTP
    import Switchyard
    import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import Testing

    /// The README's two HTTP examples, as written there but for the URLs and paths: the stub server stands in for the
    /// internet, and files go to a temporary folder. Sessions and servers are shut down on every path.
    @Suite("README: the HTTP and stub-server examples", .timeLimit(.minutes(3)))
    struct HTTPReadmeExampleTests {
        @Test("a streamed CSV body counted in fixed memory; a checksummed download")
        func sessionExample() async throws {
            let server = try await StubServer.start()
            let csv = "stop_id,stop_name\n1,Alexanderplatz\n2,Pankow\n3,Zoo\n"
            server.route("/stops.txt", StubResponse(body: Array(csv.utf8)).chunked(by: 7))
            server.route("/feed.zip", StubResponse(body: patternBytes(3 << 20)).chunked(by: 64 << 10))
            let stopsURL = server.url("/stops.txt")
            let feedURL = server.url("/feed.zip")
            let hex = DownloadChecksumTests.patternDigest
            try await withTemporaryFolder { folder in
                let path = folder + "/feed.zip"

                let session = HTTPSession(configuration: .init(name: "feeds", maximumRequestsPerHost: 4))
                try await Self.shuttingDown(session, server) {
                    let stops = try await session.stream(HTTPRequest(url: stopsURL)) { _, body in
                        var count = 0
                        for try await _ in CSVRecords(body.input) { count += 1 }
                        return count
                    }
                    let feed = try await session.download(
                        HTTPRequest(url: feedURL), to: path, checksum: .sha256(expected: hex))

                    #expect(stops == 3)
                    #expect(feed.outcome == .downloaded && feed.size == 3 << 20 && feed.sha256 == hex)
                }
            }
        }

        @Test("a response held until the test releases it, with no sleeps")
        func stubExample() async throws {
            let session = HTTPSession(configuration: .heldResponses)
            let bytes = patternBytes(100_000)
            try await withTemporaryFolder { folder in
                let path = folder + "/feed.zip"

                // 127.0.0.1, a free port; HTTP/2 over TLS with StubCertificates.
                let server = try await StubServer.start()
                try await Self.shuttingDown(session, server) { () async throws -> Void in
                    let gate = StubGate()
                    server.route("/feed.zip", StubResponse(body: bytes).held(by: gate))
                    let download = Task {
                        try await session.download(HTTPRequest(url: server.url("/feed.zip")), to: path)
                    }
                    await server.waitForRequests(count: 1)  // no sleeps: held until the test says so
                    gate.open()

                    #expect(try await download.value.size == Int64(bytes.count))
                    #expect(try FileSystem.read(path) == bytes)
                }
            }
        }

        /// Runs `body`, then shuts `session` and `server` down, whether it threw or not.
        private static func shuttingDown(
            _ session: HTTPSession, _ server: StubServer, _ body: () async throws -> Void
        ) async throws {
            do {
                try await body()
            } catch {
                try? await session.shutdown()
                try? await server.shutdown()
                throw error
            }
            try await session.shutdown()
            try await server.shutdown()
        }
    }
#endif

#if HTTP && Observability
    import Logging
    import MetricsTestKit
    import ServiceLifecycle
    import Switchyard
    import SwitchyardHTTP
    import SwitchyardObservability
    import Testing

    @Suite("README: the servers example")
    struct ServersReadmeExampleTests {
        @Test("a session and a queue service in one group; graceful shutdown drains the queue, then shuts the session")
        func servers() async throws {
            let prometheus = TestMetrics()

            let logger = Logger(label: "feeds")
            let session = HTTPSession(configuration: .init(name: "feeds"), logger: logger, metricsFactory: prometheus)
            let queue = WorkQueue(name: "imports")
            let imports = WorkQueueService(queue, logger: logger, metricsFactory: prometheus)
            let group = ServiceGroup(services: [session, imports], logger: logger)

            let running = Task { try await group.run() }
            let job = try await queue.submit("import") { 42 }
            _ = await job.result
            await group.triggerGracefulShutdown()
            try await running.value
            #expect(try await job.value == 42)
            #expect(session.isShutDown)
            #expect(
                try prometheus.expectCounter(
                    "switchyard_jobs_finished_total", [("queue", "imports"), ("outcome", "succeeded")]
                ).totalValue == 1)
        }
    }
#endif
