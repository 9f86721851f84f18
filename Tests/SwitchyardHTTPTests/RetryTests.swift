#if HTTP
    import Switchyard
    import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import SwitchyardTesting
    import Synchronization
    import Testing

    @Suite("HTTPSession retries: backoff on the session's clock, Retry-After, idempotency")
    struct RetryTests {
        /// A route that answers with `failures` first, then 200 "ok".
        static func failingFirst(_ failures: [StubResponse]) -> @Sendable (StubRequest) -> StubResponse {
            let served = Atomic<Int>(0)
            return { _ in
                let index = served.add(1, ordering: .relaxed).oldValue
                return index < failures.count ? failures[index] : StubResponse.text("ok")
            }
        }

        @Test("a 503 with Retry-After is retried after exactly that long on the session's clock")
        func retryAfterIsHonoured() async throws {
            let clock = ManualClock()
            let configuration = HTTPSession.Configuration(
                retry: HTTPRetryPolicy(maximumAttempts: 3), clock: clock, randomFraction: { 0.5 })
            try await withServer(configuration) { server, session in
                server.route("/busy", Self.failingFirst([StubResponse(status: 503).header("retry-after", "7")]))
                let task = Task { try await session.data(for: HTTPRequest(url: server.url("/busy"))).text }
                try await clock.waitForSleepers(count: 1)
                #expect(clock.nextDeadline == clock.now.advanced(by: .seconds(7)))
                clock.advance(by: .milliseconds(6_999))
                #expect(server.requests(to: "/busy").count == 1)
                clock.advance(by: .milliseconds(1))
                #expect(try await task.value == "ok")
                #expect(server.requests(to: "/busy").count == 2)
            }
        }

        @Test("without Retry-After the waits grow exponentially, less the jitter")
        func exponentialBackoff() async throws {
            let clock = ManualClock()
            let policy = HTTPRetryPolicy(maximumAttempts: 3, initialDelay: .seconds(1), multiplier: 2, jitter: 0.5)
            let configuration = HTTPSession.Configuration(retry: policy, clock: clock, randomFraction: { 0.5 })
            try await withServer(configuration) { server, session in
                server.route("/flaky", Self.failingFirst([StubResponse(status: 500), StubResponse(status: 502)]))
                let task = Task { try await session.data(for: HTTPRequest(url: server.url("/flaky"))).text }
                try await clock.waitForSleepers(count: 1)
                #expect(clock.nextDeadline == clock.now.advanced(by: .milliseconds(750)))  // 1 s less 0.5 × 0.5 of it
                clock.advance(by: .milliseconds(750))
                try await clock.waitForSleepers(count: 1)
                #expect(clock.nextDeadline == clock.now.advanced(by: .milliseconds(1_500)))  // 2 s less a quarter
                clock.advance(by: .milliseconds(1_500))
                #expect(try await task.value == "ok")
            }
        }

        @Test("the error says how many attempts were made and why each failed")
        func errorListsAttempts() async throws {
            let configuration = HTTPSession.Configuration(
                retry: HTTPRetryPolicy(maximumAttempts: 3, initialDelay: .zero, jitter: 0))
            try await withServer(configuration) { server, session in
                server.route("/down", StubResponse(status: 503))
                let error = await #expect(throws: HTTPError.self) {
                    try await session.data(for: HTTPRequest(url: server.url("/down")))
                }
                #expect(error?.attempts == [.status(503), .status(503), .status(503)])
                #expect(error?.description.contains("failed after 3 attempts: status 503") == true)
                #expect(server.requests(to: "/down").count == 3)
            }
        }

        @Test("a POST is not retried unless the request opts in")
        func nonIdempotentNotRetried() async throws {
            let configuration = HTTPSession.Configuration(
                retry: HTTPRetryPolicy(maximumAttempts: 3, initialDelay: .zero, jitter: 0))
            try await withServer(configuration) { server, session in
                server.route("/submit", StubResponse(status: 503))
                var post = HTTPRequest(url: server.url("/submit"), method: .POST, body: Array("x".utf8))
                await #expect(throws: HTTPError.self) { try await session.data(for: post) }
                #expect(server.requests(to: "/submit").count == 1)
                post.retriesNonIdempotent = true
                await #expect(throws: HTTPError.self) { try await session.data(for: post) }
                #expect(server.requests(to: "/submit").count == 4)
            }
        }

        @Test("the last attempt's retryable status is returned when the request accepts any status")
        func lastStatusReturned() async throws {
            let configuration = HTTPSession.Configuration(
                retry: HTTPRetryPolicy(maximumAttempts: 2, initialDelay: .zero, jitter: 0))
            try await withServer(configuration) { server, session in
                server.route("/busy", StubResponse(status: 503))
                var request = HTTPRequest(url: server.url("/busy"))
                request.requiresSuccessStatus = false
                let response = try await session.data(for: request)
                #expect(response.status == 503)
                #expect(server.requests(to: "/busy").count == 2)
            }
        }

        @Test("a 404 is final: not retried")
        func clientErrorsAreFinal() async throws {
            let configuration = HTTPSession.Configuration(
                retry: HTTPRetryPolicy(maximumAttempts: 3, initialDelay: .zero, jitter: 0))
            try await withServer(configuration) { server, session in
                let error = await #expect(throws: HTTPError.self) {
                    try await session.data(for: HTTPRequest(url: server.url("/missing")))
                }
                #expect(error?.reason == .status(404))
                #expect(server.requests.count == 1)
            }
        }

        @Test("a refused connection is retried by the session's policy, each attempt reported")
        func refusedConnectionIsRetried() async throws {
            let server = try await StubServer.start()
            let url = server.url("/gone")
            try await server.shutdown()  // nothing listens on the port any more
            let session = HTTPSession(
                configuration: HTTPSession.Configuration(
                    retry: HTTPRetryPolicy(maximumAttempts: 3, initialDelay: .zero, jitter: 0)))
            let error = await #expect(throws: HTTPError.self) { try await session.data(for: HTTPRequest(url: url)) }
            #expect(error?.attempts.count == 3)
            if case .transport = error?.reason {
            } else {
                Issue.record("not a transport error: \(String(describing: error))")
            }
            try await session.shutdown()
        }

        @Test("the total timeout ends a request on the session's clock")
        func totalTimeout() async throws {
            let clock = ManualClock()
            let configuration = HTTPSession.Configuration(
                timeouts: HTTPTimeouts(total: .seconds(30)), retry: .never, clock: clock)
            try await withServer(configuration) { server, session in
                let gate = StubGate()
                server.route("/held", StubResponse.text("late").held(by: gate))
                let task = Task { try await session.data(for: HTTPRequest(url: server.url("/held"))) }
                await server.waitForRequests(count: 1)
                try await clock.waitForSleepers(count: 1)
                clock.advance(by: .seconds(30))
                let error = await #expect(throws: HTTPError.self) { try await task.value }
                #expect(error?.reason == .timedOut("timed out after 30.0 seconds, the request's total timeout"))
                await server.waitForAbandonedResponses(count: 1)
                gate.open()
            }
        }

        @Test("connect and idle timeouts beyond what a TimeAmount holds are clamped, not a crash")
        func hugeTimeouts() async throws {
            // 10^10 s is more nanoseconds than Int64 holds: NIO's conversion clamps it.
            let configuration = HTTPSession.Configuration(
                timeouts: HTTPTimeouts(connect: .seconds(10_000_000_000), idle: .seconds(10_000_000_000)), retry: .never
            )
            try await withServer(configuration) { server, session in
                server.route("/ok", StubResponse.text("ok"))
                let response = try await session.data(for: HTTPRequest(url: server.url("/ok")))
                #expect(response.body == Array("ok".utf8))
            }
        }
    }
#endif
