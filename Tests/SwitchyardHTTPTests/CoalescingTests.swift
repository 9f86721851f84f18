#if HTTP && SWITCHYARD_TEST_HOOKS  // waits on test hooks of the library (debug builds only)
    import Switchyard
    @_spi(Testing) import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import Testing
    import SwitchyardTesting

    @Suite("HTTPSession coalescing: identical requests in flight share one exchange")
    struct CoalescingTests {
        @Test("100 callers, one request")
        func hundredCallersOneRequest() async throws {
            try await withServer { server, session in
                let gate = StubGate()
                server.route("/shared", StubResponse.text("shared").held(by: gate))
                let request = HTTPRequest(url: server.url("/shared"))
                try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<100 { group.addTask { try await session.data(for: request).text } }
                    await CallbackExpectation.event("100 callers joined", within: .seconds(30)) {
                        await session.waitForCallers(100, for: request)
                    }
                    #expect(session.callersWaiting(for: request) == 100)
                    gate.open()
                    for try await text in group { #expect(text == "shared") }
                }
                #expect(server.requests(to: "/shared").count == 1)
            }
        }

        @Test("one caller cancels, the others still get the value")
        func oneCallerLeaves() async throws {
            try await withServer { server, session in
                let gate = StubGate()
                server.route("/shared", StubResponse.text("shared").held(by: gate))
                let request = HTTPRequest(url: server.url("/shared"))
                let leaving = Task { try await session.data(for: request) }
                let staying = (0..<9).map { _ in Task { try await session.data(for: request).text } }
                await CallbackExpectation.event("ten callers joined", within: .seconds(30)) {
                    await session.waitForCallers(10, for: request)
                }
                leaving.cancel()
                let error = await #expect(throws: HTTPError.self) { try await leaving.value }
                #expect(error?.isCancelled == true, "\(String(describing: error))")
                #expect(session.callersWaiting(for: request) == 9)
                gate.open()
                for task in staying {
                    let text = try await task.value
                    #expect(text == "shared")
                }
                #expect(server.requests(to: "/shared").count == 1)
                #expect(server.abandonedResponses == 0)
            }
        }

        @Test("when every caller cancels, the exchange is cancelled and the server sees the connection closed")
        func allCallersLeave() async throws {
            try await withServer { server, session in
                let gate = StubGate()
                server.route("/shared", StubResponse.text("shared").held(by: gate))
                let request = HTTPRequest(url: server.url("/shared"))
                let tasks = (0..<5).map { _ in Task { try await session.data(for: request) } }
                await server.waitForRequests(count: 1)
                await CallbackExpectation.event("five callers joined", within: .seconds(30)) {
                    await session.waitForCallers(5, for: request)
                }
                for task in tasks { task.cancel() }
                for task in tasks { await #expect(throws: HTTPError.self) { try await task.value } }
                await server.waitForAbandonedResponses(count: 1)
                gate.open()
            }
        }

        @Test("requests that differ in what they accept (any status, size limit) are not coalesced")
        func settingsSeparate() async throws {
            try await withServer { server, session in
                let gate = StubGate()
                server.route("/gone", StubResponse(status: 404).held(by: gate))
                let strict = HTTPRequest(url: server.url("/gone"))
                var lenient = strict
                lenient.requiresSuccessStatus = false
                let failing = Task { () -> HTTPError? in
                    do throws(HTTPError) {
                        _ = try await session.data(for: strict)
                        return nil
                    } catch {
                        return error
                    }
                }
                let answered = Task { try await session.data(for: lenient) }
                await server.waitForRequests(count: 2)
                gate.open()
                let status = try await answered.value.status
                #expect(status == 404)
                #expect(await failing.value?.reason == .status(404))
            }
        }

        @Test("requests that differ in a header field are not coalesced")
        func headersSeparate() async throws {
            try await withServer { server, session in
                let gate = StubGate()
                server.route("/negotiated", StubResponse.text("body").held(by: gate))
                var english = HTTPRequest(url: server.url("/negotiated"))
                english.headers.add(name: "accept-language", value: "en")
                var german = HTTPRequest(url: server.url("/negotiated"))
                german.headers.add(name: "accept-language", value: "de")
                async let first = session.data(for: english)
                async let second = session.data(for: german)
                await server.waitForRequests(count: 2)
                gate.open()
                _ = try await (first, second)
                #expect(server.requests(to: "/negotiated").count == 2)
            }
        }
    }
#endif
