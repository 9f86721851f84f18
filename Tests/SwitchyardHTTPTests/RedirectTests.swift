#if HTTP && SWITCHYARD_TEST_HOOKS  // waits on test hooks of the library (debug builds only)
    import Switchyard
    @_spi(Testing) @testable import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import SwitchyardTesting
    import Testing

    @Suite("HTTPSession redirects: each hop a job of the host that answers it")
    struct RedirectTests {
        static let perHostOne = HTTPSession.Configuration(maximumRequestsPerHost: 1, retry: .never)

        @Test("a redirected hop takes a slot of the host it goes to and frees the first host's")
        func hopTakesTheAnsweringHostsSlot() async throws {
            let other = try await StubServer.start()
            try await withServer(Self.perHostOne) { server, session in
                let gate = StubGate()
                server.route("/start", StubResponse(status: 302).header("location", other.url("/target")))
                server.route("/plain", StubResponse.text("first host"))
                other.route("/target", StubResponse.text("second host").held(by: gate))
                other.route("/direct", StubResponse.text("direct"))
                let redirected = Task { try await session.data(for: HTTPRequest(url: server.url("/start"))) }
                await other.waitForRequests(count: 1)
                // The first host's hop ended, and with it the host's use: it has no queue now.
                #expect(session.queue(forHost: "127.0.0.1", port: server.port, scheme: "http") == nil)
                let second = try #require(session.queue(forHost: "127.0.0.1", port: other.port, scheme: "http"))
                #expect(second.counts.running == 1)
                // The first host's slot is free: a request to it goes through while the redirected one is held.
                #expect(try await session.data(for: HTTPRequest(url: server.url("/plain"))).text == "first host")
                // The second host's one slot is the redirected hop's: a request of its own waits for it.
                let submitted = second.events()
                let direct = Task { try await session.data(for: HTTPRequest(url: other.url("/direct"))) }
                await waitFor(1, .submitted, in: submitted, "the direct request queued at the second host")
                #expect(second.counts.pending == 1)
                #expect(other.openRequests == 1)
                gate.open()
                let response = try await redirected.value
                #expect(response.text == "second host")
                #expect(response.url == server.url("/start"))
                #expect(try await direct.value.text == "direct")
                #expect(other.maximumOpenRequests == 1)
                #expect(session.laneCount == 0)
            }
            try await other.shutdown()
        }

        @Test("a 303 to another origin turns a POST into a GET without its body and credentials")
        func seeOtherAcrossOrigins() async throws {
            let other = try await StubServer.start()
            try await withServer { server, session in
                server.route("/form", StubResponse(status: 303).header("location", other.url("/done")))
                other.route("/done", StubResponse.text("done"))
                var request = HTTPRequest(url: server.url("/form"), method: .POST, body: Array("a=1".utf8))
                request.headers.add(name: "authorization", value: "Bearer secret")
                request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
                request.headers.add(name: "x-trace", value: "kept")
                let response = try await session.data(for: request)
                #expect(response.text == "done")
                let followed = try #require(other.requests.first)
                #expect(followed.method == "GET")
                #expect(followed.body.isEmpty)
                #expect(followed.header("authorization") == nil && followed.header("content-type") == nil)
                #expect(followed.header("x-trace") == "kept")
                #expect(server.requests.first?.header("authorization") == "Bearer secret")
            }
            try await other.shutdown()
        }

        @Test("streams and downloads follow redirects to another host; relative locations resolve")
        func streamsAndDownloads() async throws {
            let other = try await StubServer.start()
            try await withServer { server, session in
                let bytes = patternBytes(300_000)
                server.route("/feed", StubResponse(status: 307).header("location", other.url("/files/feed")))
                other.route("/files/feed", StubResponse(status: 308).header("location", "../data/feed.bin"))
                other.route("/data/feed.bin", StubResponse(body: bytes).chunked(by: 65_536))
                let streamed = try await session.stream(HTTPRequest(url: server.url("/feed"))) { head, body in
                    var count = 0
                    for try await buffer in body { count += buffer.readableBytes }
                    return (head.url, count)
                }
                #expect(streamed.0 == server.url("/feed") && streamed.1 == 300_000)
                try await withTemporaryFolder { folder in
                    let progress = TransferProgress()
                    let result = try await session.download(
                        HTTPRequest(url: server.url("/feed")), to: folder + "/feed.bin", progress: progress)
                    #expect(result.size == 300_000)
                    #expect(try FileSystem.read(folder + "/feed.bin") == bytes)
                    #expect(progress.snapshot().finished == 1)  // one transfer, whatever the hops
                }
                #expect(
                    other.requests.map(\.path) == ["/files/feed", "/data/feed.bin", "/files/feed", "/data/feed.bin"])
                #expect(session.laneCount == 0)
            }
            try await other.shutdown()
        }

        @Test("identical coalesced callers share each hop")
        func coalescedCallersShareHops() async throws {
            let other = try await StubServer.start()
            try await withServer { server, session in
                let (first, second) = (StubGate(), StubGate())
                server.route(
                    "/shared", StubResponse(status: 302).header("location", other.url("/shared")).held(by: first))
                other.route("/shared", StubResponse.text("shared").held(by: second))
                let request = HTTPRequest(url: server.url("/shared"))
                let callers = (0..<3).map { _ in Task { try await session.data(for: request) } }
                await CallbackExpectation.event("three callers on the first hop", within: .seconds(30)) {
                    await session.waitForCallers(3, for: request)
                }
                first.open()
                await CallbackExpectation.event("three callers on the second hop", within: .seconds(30)) {
                    await session.waitForCallers(3, for: HTTPRequest(url: other.url("/shared")))
                }
                second.open()
                for caller in callers {
                    let text = try await caller.value.text
                    #expect(text == "shared")
                }
                #expect(server.requests.count == 1 && other.requests.count == 1)
            }
            try await other.shutdown()
        }

        @Test("a redirect cycle and a chain past the limit fail; with no redirects followed, the 3xx is the answer")
        func cyclesAndLimits() async throws {
            let configuration = HTTPSession.Configuration(retry: .never, maximumRedirects: 2)
            try await withServer(configuration) { server, session in
                server.route("/loop", StubResponse(status: 302).header("location", "/loop-back"))
                server.route("/loop-back", StubResponse(status: 301).header("location", server.url("/loop")))
                for step in 0..<3 {
                    server.route("/r\(step)", StubResponse(status: 302).header("location", "r\(step + 1)"))
                }
                server.route("/r3", StubResponse.text("too far"))
                let cycle = await #expect(throws: HTTPError.self) {
                    try await session.data(for: HTTPRequest(url: server.url("/loop")))
                }
                #expect(cycle?.reason == .failed("a redirect cycle: back to \(server.url("/loop"))"))
                let chain = await #expect(throws: HTTPError.self) {
                    try await session.data(for: HTTPRequest(url: server.url("/r0")))
                }
                #expect(chain?.reason == .failed("more than 2 redirects"))
                #expect(chain?.request == "GET \(server.url("/r0"))")
                #expect(session.laneCount == 0)
            }
            try await withServer(HTTPSession.Configuration(retry: .never, maximumRedirects: 0)) { server, session in
                server.route("/moved", StubResponse(status: 301).header("location", "/elsewhere"))
                var request = HTTPRequest(url: server.url("/moved"))
                request.requiresSuccessStatus = false
                let response = try await session.data(for: request)
                #expect(response.status == 301 && response.headers.first(name: "location") == "/elsewhere")
                #expect(server.requests.count == 1)
            }
        }

        @Test(
            "references resolve as RFC 3986 §5.4 says",
            arguments: [
                ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
                ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
                ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
                (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
                ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
                ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
                ("../../g", "http://a/g"), ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"),
                ("/./g", "http://a/g"), ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"),
                ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"),
                ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
                ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"),
                ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
                ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
                ("HTTPS://Example.org/x", "https://Example.org/x"),
            ])
        func resolution(reference: String, expected: String) {
            #expect(Redirect.resolve(reference, against: "http://a/b/c/d;p?q") == expected)
        }

        @Test("which responses redirect, and the request that follows")
        func nextRequest() {
            let base = HTTPRequest(url: "https://a.example/x", method: .POST, body: [1])
            #expect(Redirect.request(after: 302, ["location": "/y"], to: base)?.method == .GET)
            #expect(Redirect.request(after: 307, ["location": "/y"], to: base)?.body == [1])
            #expect(Redirect.request(after: 308, ["location": "/y"], to: base)?.method == .POST)
            #expect(Redirect.request(after: 303, ["location": "/y"], to: base)?.url == "https://a.example/y")
            let head = HTTPRequest(url: "https://a.example/x", method: .HEAD)
            #expect(Redirect.request(after: 303, ["location": "/y"], to: head)?.method == .HEAD)
            var cookie = HTTPRequest(url: "https://a.example/x", headers: ["cookie": "k=v"])
            cookie.priority = .userInitiated
            let sameOrigin = Redirect.request(after: 301, ["location": "/y"], to: cookie)
            #expect(sameOrigin?.headers.first(name: "cookie") == "k=v" && sameOrigin?.priority == .userInitiated)
            let crossOrigin = Redirect.request(after: 301, ["location": "https://a.example:8443/y"], to: cookie)
            #expect(crossOrigin != nil && crossOrigin?.headers.first(name: "cookie") == nil)
            #expect(Redirect.request(after: 304, ["location": "/y"], to: cookie) == nil)
            #expect(Redirect.request(after: 302, [:], to: cookie) == nil)
            #expect(Redirect.request(after: 302, ["location": "ftp://a.example/y"], to: cookie) == nil)
        }
    }
#endif
