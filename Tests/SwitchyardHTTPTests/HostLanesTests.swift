#if HTTP
    @testable import SwitchyardHTTP
    import SwitchyardHTTPTesting
    import Testing

    @Suite("Host lanes: a host's lane lives while the host is in use, and goes in O(1) when its last holder lets go")
    struct HostLanesTests {
        final class Lane: Sendable {}

        static func key(_ index: Int) -> HostKey { HostKey(scheme: "https", host: "host-\(index).example", port: 443) }

        @Test("100,000 distinct hosts, each held and let go, leave no lane behind")
        func manyHostsGoIdle() {
            var lanes = HostLanes<Lane>()
            var held: [Lane] = []
            held.reserveCapacity(100_000)
            for index in 0..<100_000 { held.append(lanes.hold(Self.key(index), orAdd: Lane())) }
            #expect(lanes.count == 100_000)
            for (index, lane) in held.enumerated() { lanes.release(Self.key(index), lane) }
            #expect(lanes.count == 0)
        }

        @Test("holders of one host share its lane, which stays until the last lets go; made again, it is a new one")
        func holdersShareALane() {
            var lanes = HostLanes<Lane>()
            let key = Self.key(1)
            let first = lanes.hold(key, orAdd: Lane())
            let second = lanes.hold(key, orAdd: Lane())
            #expect(second === first)
            let heldAgain = lanes.holdAgain(key, first)  // an exchange that runs on after its callers
            #expect(heldAgain)
            lanes.release(key, first)
            lanes.release(key, first)
            #expect(lanes.count == 1)
            lanes.release(key, first)
            #expect(lanes.count == 0)
            let heldRemoved = lanes.holdAgain(key, first)  // removed: nothing is held
            #expect(!heldRemoved)
            let next = lanes.hold(key, orAdd: Lane())
            #expect(next !== first)
            lanes.release(key, first)  // a removed lane's release leaves the host's new lane alone
            #expect(lanes.lane(for: key) === next)
            lanes.release(key, next)
            #expect(lanes.count == 0)
        }

        @Test("a lane added for inspection, without a holder, goes once a holder comes and goes")
        func inspectedLane() {
            var lanes = HostLanes<Lane>()
            let key = Self.key(2)
            let inspected = lanes.lane(for: key, orAdd: Lane())
            let again = lanes.lane(for: key, orAdd: Lane())
            #expect(again === inspected)
            let held = lanes.hold(key)
            #expect(held === inspected)
            #expect(lanes.count == 1)
            lanes.release(key, inspected)
            #expect(lanes.count == 0)
            let gone = lanes.hold(key)
            #expect(gone == nil)
        }

        @Test("a session keeps no lane for hosts whose requests ended, however they ended")
        func sessionDropsIdleLanes() async throws {
            try await withServer { server, session in
                let others = [try await StubServer.start(), try await StubServer.start()]
                let gate = StubGate()
                for host in [server] + others {
                    host.route("/a", StubResponse.text("a"))
                    host.route("/held", StubResponse.text("held").held(by: gate))
                }
                for host in [server] + others {  // three hosts: one port each
                    let url = host.url("/a")
                    _ = try await session.data(for: HTTPRequest(url: url))  // coalesced
                    // A job of its own, then a stream, a download, and a status that fails.
                    _ = try await session.data(for: HTTPRequest(url: url, method: .POST, body: [1]))
                    try await session.stream(HTTPRequest(url: url)) { _, body in for try await _ in body {} }
                    try await withTemporaryFolder { folder in
                        _ = try await session.download(HTTPRequest(url: url), to: folder + "/a")
                    }
                    await #expect(throws: HTTPError.self) { try await session.data(for: HTTPRequest(url: url + "x")) }
                }
                #expect(session.laneCount == 0)
                try await withRefusingPort { port in
                    await #expect(throws: HTTPError.self) {
                        try await session.data(for: HTTPRequest(url: "http://127.0.0.1:\(port)/"))
                    }
                }
                #expect(session.laneCount == 0)
                // While a request runs its host has a lane; an exchange whose callers all left keeps it until done.
                let url = server.url("/held")
                server.resetCounters()
                let callers = (0..<2).map { _ in Task { try await session.data(for: HTTPRequest(url: url)) } }
                await server.waitForRequests(count: 1)
                #expect(session.laneCount == 1)
                let queue = session.queue(forHost: "127.0.0.1", port: server.port, scheme: "http")
                for caller in callers { caller.cancel() }
                for caller in callers { _ = try? await caller.value }
                await queue.waitUntilIdle()
                #expect(session.laneCount == 0)
                gate.open()
                for other in others { try await other.shutdown() }
            }
        }
    }
#endif
