#if HTTP
    import Switchyard
    import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import SwitchyardTesting
    import Testing

    /// A coalesced `data(for:)` reads its first attempt on AsyncHTTPClient's callback API; its verdicts must be the
    /// ones of every other attempt: the head decides first (retry, status, announced length), then the body's size.
    @Suite("HTTPSession: a shared exchange decides on the head as any attempt does")
    struct SharedExchangeTests {
        @Test("a retryable status whose body is over the limit is retried, not failed as too large")
        func retryableStatusOverLimit() async throws {
            let clock = ManualClock()
            let configuration = HTTPSession.Configuration(
                retry: HTTPRetryPolicy(maximumAttempts: 2), clock: clock, randomFraction: { 0 })
            try await withServer(configuration) { server, session in
                let busy = StubResponse(status: 503, body: Array(repeating: 0x2e, count: 100)).header(
                    "retry-after", "1")
                server.route("/busy", RetryTests.failingFirst([busy]))
                var request = HTTPRequest(url: server.url("/busy"))
                request.maximumResponseSize = 10
                let task = Task { try await session.data(for: request).text }
                try await clock.waitForSleepers(count: 1)
                clock.advance(by: .seconds(1))
                #expect(try await task.value == "ok")
                #expect(server.requests(to: "/busy").count == 2)
            }
        }

        @Test("a status the request does not accept is named even when its body is over the limit")
        func statusOverLimit() async throws {
            try await withServer { server, session in
                server.route("/missing", StubResponse(status: 404, body: Array(repeating: 0x2e, count: 100)))
                var request = HTTPRequest(url: server.url("/missing"))
                request.maximumResponseSize = 10
                let error = await #expect(throws: HTTPError.self) { try await session.data(for: request) }
                #expect(error?.reason == .status(404))
            }
        }

        @Test("a negative size limit refuses any body instead of trapping")
        func negativeLimit() async throws {
            try await withServer { server, session in
                server.route("/small", StubResponse.text("ok"))
                var request = HTTPRequest(url: server.url("/small"))
                request.maximumResponseSize = -1
                let error = await #expect(throws: HTTPError.self) { try await session.data(for: request) }
                #expect(error?.reason == .responseTooLarge(limit: -1))
            }
        }

        @Test("an empty body, and a HEAD whose announced length is over the limit, are answered")
        func emptyAndHead() async throws {
            try await withServer { server, session in
                server.route("/empty", StubResponse(status: 204))
                server.route("/big", StubResponse(body: Array(repeating: 0x2e, count: 100)))
                #expect(try await session.data(for: HTTPRequest(url: server.url("/empty"))).body.isEmpty)
                var head = HTTPRequest(url: server.url("/big"), method: .HEAD)
                head.maximumResponseSize = 10
                let response = try await session.data(for: head)
                #expect(response.status == 200 && response.body.isEmpty)
            }
        }
    }
#endif
