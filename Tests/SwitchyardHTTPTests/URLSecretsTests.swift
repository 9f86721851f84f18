#if HTTP
    import Switchyard
    @testable import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import SwitchyardTesting
    import Synchronization
    import Testing

    @Suite("A URL's user information, query and fragment reach no error, job name, event or log line")
    struct URLSecretsTests {
        /// The names of the jobs `events` tells of (one per event), up to the `count`-th `finished` event; a failure
        /// if that has not come within 30 seconds.
        static func jobNames(in events: AsyncStream<JobEvent>, untilFinished count: Int) async -> [String] {
            final class Names: Sendable { let seen = LockedState<[String]>([]) }
            let names = Names()
            await CallbackExpectation.event("\(count) jobs finished", within: .seconds(30)) {
                var finished = 0
                for await event in events {
                    names.seen.withLock { $0.append(event.jobName) }
                    if event.kind == .finished { finished += 1 }
                    if finished == count { return }
                }
            }
            return names.seen.withLock { $0 }
        }

        @Test("a redirect cycle of URLs with credentials and a token: its error, jobs and log lines show neither")
        func redirectCycle() async throws {
            let log = CapturedLog()
            let server = try await StubServer.start()
            let session = HTTPSession(configuration: .heldResponses, logger: log.logger)
            let port = server.port
            func secretURL(_ path: String) -> String { "http://user:pass@127.0.0.1:\(port)\(path)?token=secret#frag" }
            func shownURL(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }
            let gate = StubGate()
            server.route("/held", StubResponse.text("held").held(by: gate))
            server.route("/loop", StubResponse(status: 302).header("location", secretURL("/loop-back")))
            server.route("/loop-back", StubResponse(status: 302).header("location", secretURL("/loop")))
            try await ObservabilityTests.cleaningUp(session, server) {
                // A request of its own, held at the server, keeps the host in use: every job below is of its queue.
                let heldURL = secretURL("/held")
                let held = Task { try await session.data(for: HTTPRequest(url: heldURL, method: .POST, body: [1])) }
                await server.waitForRequests(count: 1)
                let queue = try #require(session.queue(forHost: "127.0.0.1", port: port, scheme: "http"))
                let running = queue.snapshot().jobs.map(\.name)
                #expect(running == ["POST \(shownURL("/held"))"])
                let events = queue.events(bufferingPolicy: .unbounded)

                let loopURL = secretURL("/loop")
                let cycle = await #expect(throws: HTTPError.self) {
                    try await session.data(for: HTTPRequest(url: loopURL))
                }
                #expect(cycle?.reason == .failed("a redirect cycle: back to \(shownURL("/loop"))"))
                #expect(cycle?.request == "GET \(shownURL("/loop"))")
                // Both hops were coalesced exchanges: jobs of the coalescer named `<session> shared`.
                let names = await Self.jobNames(in: events, untilFinished: 2)
                let hops = ["http shared GET \(shownURL("/loop"))", "http shared GET \(shownURL("/loop-back"))"]
                #expect(Set(names) == Set(hops))
                #expect(server.requests.map(\.target).contains("/loop-back?token=secret"))  // sent as asked

                let failed = try #require(log.first("request failed", url: shownURL("/loop")))
                #expect(failed.metadata["reason"] == "a redirect cycle: back to \(shownURL("/loop"))")
                let texts =
                    [String(describing: cycle), String(reflecting: cycle)] + running + names
                    + log.entries.map(\.text)
                for text in texts {
                    for secret in ["user", "pass", "token", "secret", "frag"] {
                        #expect(!text.contains(secret), "\(text)")
                    }
                }
                gate.open()
                #expect(try await held.value.text == "held")
            }
        }

        @Test("a URL that cannot be requested is named without its credentials and query")
        func invalidURL() async throws {
            let session = HTTPSession(configuration: HTTPSession.Configuration(retry: .never))
            let error = await #expect(throws: HTTPError.self) {
                try await session.data(for: HTTPRequest(url: "http://user:pass@:8080/feed?token=secret"))
            }
            #expect(error?.request == "GET http://:8080/feed")
            #expect(error?.reason == .invalidURL(#""http://:8080/feed" has no host"#))
            try await session.shutdown()
        }

        @Test("a shared job's name and a call's label show the URL as a log line does")
        func namesAndLabels() throws {
            var request = HTTPRequest(url: "https://user:pass@example.org/feed.zip?token=secret#top")
            let prepared = try PreparedRequest(request)
            #expect(prepared.label == "GET https://example.org/feed.zip")
            #expect(prepared.name == "GET https://example.org/feed.zip")
            #expect("\(prepared.key)" == "GET https://example.org/feed.zip")
            request.name = "nightly feed"
            #expect(try PreparedRequest(request).name == "nightly feed")  // a name given is kept as given
        }

        @Test(
            "loggableURL drops the user information of every URL in it, and all after the first ? or #",
            arguments: [
                ("https://user:secret@example.org:8443/feed.zip?token=x#top", "https://example.org:8443/feed.zip"),
                (
                    "https://proxy.example/fetch/https://u:p@origin.example/a",
                    "https://proxy.example/fetch/https://origin.example/a"
                ),
                ("https://example.org/a@b/c", "https://example.org/a@b/c"),
                ("x:y,https://u:p@example.org/", "x:y,https://example.org/"),
                ("not a url?secret", "not a url"),
            ])
        func loggableURLs(url: String, shown: String) {
            #expect(HTTPSession.loggableURL(url) == shown)
        }

        @Test(
            "loggableText shows every URL in a text as loggableURL does, and leaves the rest alone",
            arguments: [
                (
                    "GET https://u:p@example.org/a?t=1 failed: status 404",
                    "GET https://example.org/a failed: status 404"
                ),
                (
                    "a redirect cycle: back to http://u:p@a.example/x?t=1 (from \"http://b.example/?k=2\")",
                    "a redirect cycle: back to http://a.example/x (from \"http://b.example/"
                ),
                ("two: ftp://a.example/?x=1\thttp://b@c.example/#f", "two: ftp://a.example/\thttp://c.example/"),
                ("no URL here, only a ? and an @", "no URL here, only a ? and an @"),
                ("", ""),
            ])
        func loggableTexts(text: String, shown: String) {
            #expect(HTTPSession.loggableText(text) == shown)
        }
    }
#endif
