#if Push
    @_spi(PushInternals) import SwitchyardPush
    import SwitchyardTesting
    import Testing

    @Suite("The connection pool as a value: streams granted, connections opened, drained and replaced")
    struct PushPoolStateTests {
        @Test("the first sender opens a connection; one stream until the server raises its limit")
        func firstConnection() {
            var pool = PushPoolState(maximumConnections: 2)
            #expect(pool.acquire(1) == .init(open: [1]))
            #expect(pool.acquire(2) == .init(), "one connection opens at a time")
            #expect(pool.opened(1, limit: 1) == .init(grants: [(1, 1)], open: [2]), "the rest wait: a second one opens")
            #expect(pool.limitChanged(1, to: 100) == .init(grants: [(2, 1)]))
            #expect(pool.acquire(3) == .init(grants: [(3, 1)]))
            #expect(pool.opened(2, limit: 100) == .init(), "nobody waits any more")
            #expect(pool.acquire(4) == .init(grants: [(4, 2)]), "the connection with the most free streams")
        }

        @Test("full connections: senders wait in order, and each released stream goes to the first of them")
        func backPressure() {
            var pool = PushPoolState(maximumConnections: 1)
            _ = pool.acquire(1)
            _ = pool.opened(1, limit: 2)
            #expect(pool.acquire(2) == .init(grants: [(2, 1)]))
            #expect(pool.acquire(3) == .init())
            #expect(pool.acquire(4) == .init())
            pool.cancel(3)
            #expect(pool.released(1) == .init(grants: [(4, 1)]), "a cancelled sender is skipped")
            #expect(pool.released(1) == .init())
            #expect(pool.connectionStates[1]?.open == 1)
        }

        @Test("GOAWAY: no new streams there; a replacement opens; the old one closes when its streams end")
        func goAway() {
            var pool = PushPoolState(maximumConnections: 1)
            _ = pool.acquire(1)
            _ = pool.opened(1, limit: 1)
            #expect(pool.acquire(2) == .init())
            #expect(pool.goingAway(1) == .init(), "the maximum is reached while the old one drains")
            #expect(pool.released(1) == .init(open: [2], close: [1]))
            #expect(pool.opened(2, limit: 10) == .init(grants: [(2, 2)]))
        }

        @Test("a connection that cannot open: waiting senders fail when nothing else is open or opening")
        func failureToOpen() {
            var pool = PushPoolState(maximumConnections: 2)
            _ = pool.acquire(1)
            _ = pool.acquire(2)
            #expect(pool.closed(1, failedToOpen: true) == .init(fail: [1, 2], backOff: 1))
            #expect(pool.acquire(3) == .init(), "no opening during the backoff: the sender waits")
            #expect(pool.backOffEnded() == .init(open: [2]), "after it, a connection opens for the waiting sender")
        }

        @Test("openings that fail in a row: each begins a longer backoff; one that succeeds resets the count")
        func backOff() {
            var pool = PushPoolState(maximumConnections: 1)
            _ = pool.acquire(1)
            #expect(pool.closed(1, failedToOpen: true) == .init(fail: [1], backOff: 1))
            #expect(pool.acquire(2) == .init())
            #expect(pool.acquire(3) == .init())
            #expect(pool.backOffEnded() == .init(open: [2]))
            #expect(pool.closed(2, failedToOpen: true) == .init(fail: [2, 3], backOff: 2), "the second in a row")
            _ = pool.acquire(4)
            #expect(pool.backOffEnded() == .init(open: [3]))
            #expect(pool.opened(3, limit: 10) == .init(grants: [(4, 3)]))
            #expect(pool.closed(3) == .init(), "a connection lost after opening: no backoff (and nobody waits)")
            _ = pool.acquire(5)
            #expect(pool.connectionStates[4]?.phase == .opening, "replaced at once")
            #expect(pool.closed(4, failedToOpen: true) == .init(fail: [5], backOff: 1), "the count began again")
        }

        @Test("a connection lost mid-flight is replaced while senders wait")
        func lostConnection() {
            var pool = PushPoolState(maximumConnections: 1)
            _ = pool.acquire(1)
            _ = pool.opened(1, limit: 1)
            _ = pool.acquire(2)
            #expect(pool.closed(1) == .init(open: [2]))
            #expect(pool.opened(2, limit: 5) == .init(grants: [(2, 2)]))
        }

        @Test("shut down with senders waiting: nothing opens after it, whatever the connections report")
        func shutDown() {
            var pool = PushPoolState(maximumConnections: 2)
            _ = pool.acquire(1)
            #expect(pool.opened(1, limit: 1) == .init(grants: [(1, 1)]))
            #expect(pool.acquire(2) == .init(open: [2]), "the first is full: a second connection opens")
            #expect(pool.acquire(3) == .init())
            pool.shutDown()
            #expect(pool.isShutDown && pool.waitingCount == 0 && pool.connectionStates.isEmpty)
            #expect(pool.closed(1) == .init(), "lost with senders once waiting: not replaced")
            #expect(pool.opened(2, limit: 10) == .init(close: [2]), "the one opening when it shut down: to be closed")
            #expect(pool.closed(2) == .init())
            #expect(pool.released(1) == .init())
            #expect(pool.goingAway(1) == .init())
            #expect(pool.limitChanged(1, to: 10) == .init())
            #expect(pool.acquire(4) == .init(fail: [4]), "a sender after it fails at once")
            #expect(pool.closed(3, failedToOpen: true) == .init(), "a failed opening: no backoff")
            #expect(pool.backOffEnded() == .init())
            #expect(pool.connectionStates.isEmpty)
        }

        @Test("shut down during a backoff: its end opens nothing")
        func shutDownWhileBackingOff() {
            var pool = PushPoolState(maximumConnections: 1)
            _ = pool.acquire(1)
            #expect(pool.closed(1, failedToOpen: true) == .init(fail: [1], backOff: 1))
            #expect(pool.acquire(2) == .init(), "waits for the backoff's end")
            pool.shutDown()
            #expect(pool.backOffEnded() == .init())
            #expect(pool.waitingCount == 0 && pool.connectionStates.isEmpty)
        }

        @Test("a connection closed before its opening is reported: replaced, then closed when reported open")
        func closedBeforeOpened() {
            var pool = PushPoolState(maximumConnections: 1)
            #expect(pool.acquire(1) == .init(open: [1]))
            #expect(pool.closed(1) == .init(open: [2]), "its closing came first: replaced at once")
            #expect(pool.opened(1, limit: 10) == .init(close: [1]), "unknown by now: to be closed, nothing granted")
            #expect(pool.connectionStates.keys.sorted() == [2])
            #expect(pool.opened(2, limit: 10) == .init(grants: [(1, 2)]))
        }

        @Test("connections with as many free streams: the lowest-numbered one is granted first")
        func equalConnections() {
            var pool = PushPoolState(maximumConnections: 2)
            _ = pool.acquire(1)
            _ = pool.acquire(2)
            #expect(pool.opened(1, limit: 2) == .init(grants: [(1, 1), (2, 1)]))
            #expect(pool.acquire(3) == .init(open: [2]))
            #expect(pool.opened(2, limit: 2) == .init(grants: [(3, 2)]))
            _ = pool.released(1)
            #expect(pool.acquire(4) == .init(grants: [(4, 1)]), "1 free on each: the first")
            #expect(pool.acquire(5) == .init(grants: [(5, 2)]))
        }

        @Test("random events: never more streams than a limit, never more connections than the maximum, no sender lost")
        func randomEvents() {
            var random = SeededRandomNumberGenerator.forTest("PushPoolState randomEvents")
            for _ in 0..<200 {
                let maximum = Int.random(in: 1...3, using: &random)
                var pool = PushPoolState(maximumConnections: maximum)
                var granted: [Int: Int] = [:]  // sender → connection
                var waiting: Set<Int> = []
                var opening: Set<Int> = []
                var limits: [Int: Int] = [:]
                var backingOff = false
                var nextSender = 1
                func apply(_ actions: PushPoolState.Actions) {
                    if actions.backOff != nil { backingOff = true }
                    for (sender, connection) in actions.grants {
                        #expect(waiting.remove(sender) != nil, "only a waiting sender is granted")
                        granted[sender] = connection
                    }
                    for connection in actions.open { opening.insert(connection) }
                    for sender in actions.fail { #expect(waiting.remove(sender) != nil) }
                    #expect(pool.connectionStates.count <= maximum)
                    for (connection, state) in pool.connectionStates {
                        #expect(state.open == granted.values.filter { $0 == connection }.count)
                        #expect(state.open <= max(state.limit, limits[connection] ?? 1) || state.phase == .draining)
                    }
                }
                for _ in 0..<100 {
                    switch Int.random(in: 0..<6, using: &random) {
                    case 0, 1:
                        waiting.insert(nextSender)
                        apply(pool.acquire(nextSender))
                        nextSender += 1
                    case 2:
                        if let connection = opening.randomElement(using: &random) {
                            opening.remove(connection)
                            let limit = Int.random(in: 1...3, using: &random)
                            limits[connection] = limit
                            apply(pool.opened(connection, limit: limit))
                        }
                    case 3:
                        if let (sender, connection) = granted.randomElement(using: &random) {
                            granted[sender] = nil
                            apply(pool.released(connection))
                        }
                    case 4:
                        if let connection = pool.connectionStates.keys.randomElement(using: &random),
                            pool.connectionStates[connection]?.phase == .ready
                        {
                            apply(pool.goingAway(connection))
                        }
                    default:
                        if backingOff, Bool.random(using: &random) {
                            backingOff = false
                            apply(pool.backOffEnded())
                        } else if let connection = opening.randomElement(using: &random), Bool.random(using: &random) {
                            opening.remove(connection)
                            apply(pool.closed(connection, failedToOpen: true))
                        }
                    }
                }
                // Whoever still waits has a connection opening for them, or every connection is full, or a backoff
                // will end.
                if !waiting.isEmpty {
                    let states = pool.connectionStates.values
                    #expect(
                        backingOff || states.contains { $0.phase == .opening }
                            || states.allSatisfy { $0.open >= $0.limit || $0.phase == .draining })
                }
            }
        }
    }
#endif
