#if HTTP
    import Switchyard
    import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import Testing

    @Suite("HTTPSession scheduling: per-host limits, priorities, cancellation")
    struct SchedulingTests {
        @Test("the per-host limit holds exactly under 10,000 requests")
        func perHostLimitUnderLoad() async throws {
            let configuration = HTTPSession.Configuration(
                maximumConcurrentRequests: 64, maximumRequestsPerHost: 6, retry: .never)
            try await withServer(configuration) { server, session in
                // Responses are held until the test opens the gate: the first six requests fill the host's slots, and no
                // seventh reaches the server while they are held. Then all run freely; the server's peak stays six.
                let gate = StubGate()
                server.route("/item", StubResponse(body: patternBytes(1024)).held(by: gate))
                let count = 10_000
                try await withThrowingTaskGroup(of: Int.self) { group in
                    // Distinct URLs, so no two requests are coalesced. The first, held at the server, keeps the host
                    // in use: the queue it is a job of is the one the others join.
                    let first = server.url("/item?n=0")
                    group.addTask { try await session.data(for: HTTPRequest(url: first)).body.count }
                    await server.waitForOpenRequests(count: 1)
                    let queue = try #require(session.queue(forHost: "127.0.0.1", port: server.port, scheme: "http"))
                    let submitted = queue.events(bufferingPolicy: .unbounded)
                    for index in 1..<count {
                        let url = server.url("/item?n=\(index)")
                        group.addTask { try await session.data(for: HTTPRequest(url: url)).body.count }
                    }
                    await server.waitForOpenRequests(count: 6)
                    await waitFor(count - 1, .submitted, in: submitted, "every other request submitted")
                    #expect(queue.counts.pending == count - 6)
                    #expect(server.openRequests == 6)
                    #expect(server.requests.count == 6)
                    gate.open()
                    var total = 0
                    for try await size in group { total += size }
                    #expect(total == count * 1024)
                }
                #expect(server.requests.count == count)
                #expect(server.maximumOpenRequests == 6)
            }
        }

        @Test("a host is its scheme, lower-cased name and port: five spellings of one host share its queue and limit")
        func hostSpellings() async throws {
            let configuration = HTTPSession.Configuration(maximumRequestsPerHost: 1, retry: .never)
            try await withServer(configuration) { server, session in
                let gate = StubGate()
                server.route("/held", StubResponse(body: [1]).held(by: gate))
                let port = server.port
                let spellings = [
                    "http://127.0.0.1:\(port)/held?n=1", "HTTP://127.0.0.1:\(port)/held?n=2",
                    "http://user:secret@127.0.0.1:\(port)/held?n=3", "Http://127.0.0.1:\(port)?n=4#part",
                    "http://127.0.0.1:000\(port)/held?n=5",
                ]
                server.route("/", StubResponse(body: [1]).held(by: gate))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    // The first, held at the server, keeps the host in use: its queue is the one the others join.
                    let first = spellings[0]
                    group.addTask { _ = try await session.data(for: HTTPRequest(url: first)) }
                    await server.waitForOpenRequests(count: 1)
                    let queue = try #require(session.queue(forHost: "127.0.0.1", port: port, scheme: "http"))
                    let submitted = queue.events()
                    for url in spellings.dropFirst() {
                        group.addTask { _ = try await session.data(for: HTTPRequest(url: url)) }
                    }
                    await waitFor(4, .submitted, in: submitted, "the other four requests submitted to the host's queue")
                    #expect(queue.counts.pending == 4)
                    #expect(queue.counts.running == 1)
                    gate.open()
                    try await group.waitForAll()
                }
                #expect(server.maximumOpenRequests == 1)
            }
        }

        @Test("two hosts each get their own limit, under the global one")
        func hostsAreIndependent() async throws {
            let other = try await StubServer.start()
            let configuration = HTTPSession.Configuration(maximumRequestsPerHost: 2, retry: .never)
            try await withServer(configuration) { server, session in
                let gate = StubGate()
                server.route("/held", StubResponse(body: [1]).held(by: gate))
                other.route("/held", StubResponse(body: [2]).held(by: gate))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<6 {
                        let host = index.isMultiple(of: 2) ? server : other
                        group.addTask {
                            _ = try await session.data(for: HTTPRequest(url: host.url("/held?n=\(index)")))
                        }
                    }
                    await server.waitForOpenRequests(count: 2)
                    await other.waitForOpenRequests(count: 2)
                    let queue = try #require(session.queue(forHost: "127.0.0.1", port: server.port, scheme: "http"))
                    #expect(queue.counts.running == 2)
                    #expect(queue.counts.pending == 1)
                    gate.open()
                    try await group.waitForAll()
                }
                #expect(server.maximumOpenRequests == 2)
                #expect(other.maximumOpenRequests == 2)
            }
            try await other.shutdown()
        }

        @Test("a user-initiated request overtakes queued prefetches")
        func priorityOvertakes() async throws {
            let configuration = HTTPSession.Configuration(maximumRequestsPerHost: 1, retry: .never)
            try await withServer(configuration) { server, session in
                let gate = StubGate()
                server.route("/first", StubResponse(body: [0]).held(by: gate))
                server.route("/prefetch", StubResponse(body: [1]))
                server.route("/visible", StubResponse(body: [2]))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { _ = try await session.data(for: HTTPRequest(url: server.url("/first"))) }
                    await server.waitForRequests(count: 1)
                    let queue = try #require(session.queue(forHost: "127.0.0.1", port: server.port, scheme: "http"))
                    let prefetches = queue.events()
                    for index in 0..<5 {
                        group.addTask {
                            _ = try await session.data(
                                for: HTTPRequest(url: server.url("/prefetch?n=\(index)"), priority: .background))
                        }
                    }
                    await waitFor(5, .submitted, in: prefetches, "five prefetches queued")
                    #expect(queue.counts.pending == 5)
                    let visible = queue.events()
                    group.addTask {
                        _ = try await session.data(
                            for: HTTPRequest(url: server.url("/visible"), priority: .userInitiated))
                    }
                    await waitFor(1, .submitted, in: visible, "the visible request queued")
                    #expect(queue.counts.pending == 6)
                    gate.open()
                    try await group.waitForAll()
                }
                #expect(server.requests.map(\.path).prefix(2) == ["/first", "/visible"])
            }
        }

        @Test("cancelling a request mid-body closes its connection and frees its slot at once")
        func cancelMidBodyFreesSlot() async throws {
            let configuration = HTTPSession.Configuration(maximumRequestsPerHost: 1, retry: .never)
            try await withServer(configuration) { server, session in
                // The second chunk would come an hour later: only cancellation ends this exchange.
                server.route(
                    "/slow", StubResponse(body: patternBytes(2048)).chunked(by: 1024).dripping(every: .seconds(3600)))
                server.route("/next", StubResponse.text("next"))
                let firstChunk = AsyncStream<Void>.makeStream()
                let slow = Task {
                    try await session.stream(HTTPRequest(url: server.url("/slow"))) { _, body in
                        var received = 0
                        for try await buffer in body {
                            received += buffer.readableBytes
                            firstChunk.continuation.yield()
                        }
                        return received
                    }
                }
                for await _ in firstChunk.stream { break }
                slow.cancel()
                await #expect(throws: HTTPError.self) { try await slow.value }
                let next = try await session.data(for: HTTPRequest(url: server.url("/next")))
                #expect(next.text == "next")
                await server.waitForAbandonedResponses(count: 1)
            }
        }

        @Test("a cancelled request that waits for a slot never reaches the server")
        func cancelWhileWaiting() async throws {
            let configuration = HTTPSession.Configuration(maximumRequestsPerHost: 1, retry: .never)
            try await withServer(configuration) { server, session in
                let gate = StubGate()
                server.route("/held", StubResponse(body: [1]).held(by: gate))
                server.route("/never", StubResponse(body: [2]))
                let held = Task { try await session.data(for: HTTPRequest(url: server.url("/held"))) }
                await server.waitForRequests(count: 1)
                let queue = try #require(session.queue(forHost: "127.0.0.1", port: server.port, scheme: "http"))
                let submitted = queue.events()
                let waiting = Task { try await session.data(for: HTTPRequest(url: server.url("/never"))) }
                await waitFor(1, .submitted, in: submitted, "the second request queued")
                #expect(queue.counts.pending == 1)
                waiting.cancel()
                let error = await #expect(throws: HTTPError.self) { try await waiting.value }
                #expect(error?.isCancelled == true, "\(String(describing: error))")
                gate.open()
                _ = try await held.value
                #expect(server.requests(to: "/never").isEmpty)
            }
        }

        @Test("a completion handler gets cancelled, never a late value, once cancel() returned")
        func completionAfterCancelIsCancelled() async throws {
            try await withServer { server, session in
                server.route("/value", StubResponse.text("late"))
                let deliveries = AsyncStream<@Sendable () -> Void>.makeStream()
                // The test decides when delivered work runs: after the value arrived and the caller cancelled.
                let delivery = Delivery { work in deliveries.continuation.yield(work) }
                let outcome = AsyncStream<Result<HTTPResponse, HTTPError>>.makeStream()
                let task = session.data(for: HTTPRequest(url: server.url("/value")), delivery: delivery) { result in
                    outcome.continuation.yield(result)
                }
                var pending = deliveries.stream.makeAsyncIterator()
                let work = try #require(await pending.next())
                task.cancel()
                work()
                var results = outcome.stream.makeAsyncIterator()
                let result = try #require(await results.next())
                guard case .failure(let error) = result else {
                    Issue.record("a value was delivered after cancel()")
                    return
                }
                #expect(error.isCancelled)
            }
        }
    }
#endif
