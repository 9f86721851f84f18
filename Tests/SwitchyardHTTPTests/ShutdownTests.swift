#if HTTP
    import Switchyard
    import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import Testing

    @Suite("HTTPSession shutdown: the calls it ends and every call after it say so, apart from cancellation")
    struct ShutdownTests {
        @Test("every kind of call after shutdown() throws sessionShutDown, with no attempt, and sends nothing")
        func callsAfterShutdown() async throws {
            let server = try await StubServer.start()
            server.route("/feed", StubResponse.text("never sent"))
            let session = HTTPSession(configuration: HTTPSession.Configuration(retry: .never))
            #expect(!session.isShutDown)
            try await session.shutdown()
            #expect(session.isShutDown)
            let url = server.url("/feed")
            let fetched = await #expect(throws: HTTPError.self) { try await session.data(for: HTTPRequest(url: url)) }
            let posted = await #expect(throws: HTTPError.self) {
                try await session.data(for: HTTPRequest(url: url, method: .POST, body: [1]))
            }
            let streamed = await #expect(throws: HTTPError.self) {
                try await session.stream(HTTPRequest(url: url)) { _, _ in 0 }
            }
            let downloaded = try await withTemporaryFolder { folder in
                await #expect(throws: HTTPError.self) {
                    try await session.download(HTTPRequest(url: url), to: folder + "/feed")
                }
            }
            for error in [fetched, posted, streamed, downloaded] {
                #expect(error?.reason == .sessionShutDown)
                #expect(error?.isCancelled == false)
                #expect(error?.attempts == [])
            }
            #expect(fetched?.description == "GET \(url) failed: the HTTP session was shut down")
            #expect(server.requests.isEmpty)
            try await server.shutdown()
        }

        @Test("a request running when shutdown() is called ends with sessionShutDown, not cancelled")
        func callsEndedByShutdown() async throws {
            let server = try await StubServer.start()
            let gate = StubGate()
            server.route("/held", StubResponse.text("held until the end").held(by: gate))
            let session = HTTPSession(configuration: .heldResponses)
            let fetched = Task { try await session.data(for: HTTPRequest(url: server.url("/held?n=1"))) }
            let streamed = Task {
                try await session.stream(HTTPRequest(url: server.url("/held?n=2"))) { _, body in
                    for try await _ in body {}
                }
            }
            await server.waitForRequests(count: 2)
            try await session.shutdown()
            let fetchError = await #expect(throws: HTTPError.self) { try await fetched.value }
            let streamError = await #expect(throws: HTTPError.self) { try await streamed.value }
            for error in [fetchError, streamError] {
                #expect(error?.reason == .sessionShutDown, "\(String(describing: error))")
                #expect(error?.isCancelled == false)
            }
            gate.open()
            try await server.shutdown()
        }
    }
#endif
