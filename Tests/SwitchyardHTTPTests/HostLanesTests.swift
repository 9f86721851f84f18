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
            for index in 0..<100_000 {
                if let lane = lanes.hold(Self.key(index), orAdd: Lane()) { held.append(lane) }
            }
            #expect(held.count == 100_000 && lanes.count == 100_000)
            for (index, lane) in held.enumerated() { lanes.release(Self.key(index), lane) }
            #expect(lanes.count == 0)
        }

        @Test("holders of one host share its lane, which stays until the last lets go; made again, it is a new one")
        func holdersShareALane() throws {
            var lanes = HostLanes<Lane>()
            let key = Self.key(1)
            let added = lanes.hold(key, orAdd: Lane())
            let first = try #require(added)
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
            let madeAgain = lanes.hold(key, orAdd: Lane())
            let next = try #require(madeAgain)
            #expect(next !== first)
            lanes.release(key, first)  // a removed lane's release leaves the host's new lane alone
            #expect(lanes.lane(for: key) === next)
            lanes.release(key, next)
            #expect(lanes.count == 0)
        }

        @Test("looking a host up adds no lane: a lane comes with its first holder only")
        func lookingUpAddsNothing() throws {
            var lanes = HostLanes<Lane>()
            let key = Self.key(2)
            #expect(lanes.lane(for: key) == nil)
            let none = lanes.hold(key)  // holds an existing lane only
            #expect(none == nil)
            #expect(lanes.count == 0)
            let added = lanes.hold(key, orAdd: Lane())
            let held = try #require(added)
            #expect(lanes.lane(for: key) === held)
            lanes.release(key, held)
            #expect(lanes.count == 0)
        }

        @Test("shutDown() moves out every lane, held ones included, and refuses every later hold")
        func shutDownRefusesHolds() throws {
            var lanes = HostLanes<Lane>()
            let added = lanes.hold(Self.key(1), orAdd: Lane())
            let held = try #require(added)
            let addedShared = lanes.hold(Self.key(2), orAdd: Lane())
            let shared = try #require(addedShared)
            let again = lanes.hold(Self.key(2))  // a second holder of one lane
            #expect(again === shared)
            #expect(!lanes.isShutDown)
            let taken = lanes.shutDown()
            #expect(lanes.isShutDown)
            let takenLanes = Set(taken.all.map { ObjectIdentifier($0) })
            #expect(takenLanes == [ObjectIdentifier(held), ObjectIdentifier(shared)])
            #expect(lanes.count == 0)
            // Refused: an existing host's lane, a new lane for it or for another host, and a lane moved out.
            let existing = lanes.hold(Self.key(1))
            let replaced = lanes.hold(Self.key(1), orAdd: Lane())
            let another = lanes.hold(Self.key(3), orAdd: Lane())
            let heldAgain = lanes.holdAgain(Self.key(2), shared)
            #expect(existing == nil)
            #expect(replaced == nil)
            #expect(another == nil)
            #expect(!heldAgain)
            #expect(lanes.count == 0)
            // The holders of the lanes moved out let go without effect (and without tripping the count's check).
            lanes.release(Self.key(1), held)
            lanes.release(Self.key(2), shared)
            lanes.release(Self.key(2), shared)
            #expect(lanes.count == 0)
            #expect(lanes.lane(for: Self.key(1)) == nil)
            let second = lanes.shutDown()
            #expect(second.count == 0)  // a second call takes nothing
        }

        @Test("asking a session for the queues of 10,000 hosts not in use makes none: nil each time, no lane left")
        func queueLookupsAddNoLane() async throws {
            let session = HTTPSession(configuration: .heldResponses)
            for index in 0..<10_000 {
                #expect(session.queue(forHost: "host-\(index).example", port: 8_000 + index % 100) == nil)
            }
            #expect(session.laneCount == 0)
            try await session.shutdown()
            #expect(session.queue(forHost: "host-1.example") == nil)
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
                let queue = try #require(session.queue(forHost: "127.0.0.1", port: server.port, scheme: "http"))
                for caller in callers { caller.cancel() }
                for caller in callers { _ = try? await caller.value }
                await queue.waitUntilIdle()
                #expect(session.laneCount == 0)
                #expect(session.queue(forHost: "127.0.0.1", port: server.port, scheme: "http") == nil)
                gate.open()
                for other in others { try await other.shutdown() }
            }
        }
    }
#endif
