#if Dashboard
    import Switchyard
    import SwitchyardTesting
    import Synchronization
    import Testing

    @testable import SwitchyardDashboard

    /// A source that counts its reads.
    final class CountingSource: DashboardSource {
        let id = "counting"
        let reads = Atomic<Int>(0)
        let payload: DashboardSourceSnapshot

        init(payload: DashboardSourceSnapshot = DashboardSourceSnapshot(id: "counting", kind: "test")) {
            self.payload = payload
        }

        func read(limit: Int) async throws -> DashboardSourceSnapshot {
            reads.add(1, ordering: .relaxed)
            return payload
        }

        func jobs(_ list: DashboardJobList, queue: String?, offset: Int, limit: Int) async throws -> (
            jobs: [DashboardJob], total: Int
        ) { ([], 0) }

        func perform(_ action: DashboardAction) async throws -> String {
            throw DashboardActionError.unsupported(action.action, source: id)
        }
    }

    /// Viewers, the shared producer and `GET events`, paced by a manual clock.
    @Suite struct DashboardEventsTests {
        /// Lets the producer publish one more snapshot: waits until it sleeps, then ends its sleep.
        func tick(_ clock: ManualClock, _ dashboard: Dashboard) async throws {
            try await clock.waitForSleepers(count: 1)
            clock.advance(by: dashboard.configuration.interval)
        }

        @Test func oneProducerForAllViewersOnlyWhileSomeoneWatches() async throws {
            let clock = ManualClock()
            let source = CountingSource()
            let dashboard = Dashboard(sources: [source], clock: clock)
            #expect(!dashboard.isProducing)
            let viewers = 20
            let received = CallbackExpectation("every viewer took 3 snapshots", expectedCount: 20)
            let registered = CallbackExpectation("every viewer registered")
            let stopped = CallbackExpectation("the producer stopped")
            dashboard.testHook.withLockedValue {
                $0 = { event in
                    switch event {
                    case .viewers(let count): if count == viewers { registered.fulfill() }
                    case .producerStopped: stopped.fulfill()
                    }
                }
            }
            let watching = Task {
                await withTaskGroup(of: [Int].self, returning: [[Int]].self) { group in
                    for _ in 0..<viewers {
                        group.addTask {
                            var seen: [Int] = []
                            for await snapshot in dashboard.updates() {
                                seen.append(snapshot.sequence)
                                if seen.count == 3 { break }
                            }
                            received.fulfill()
                            return seen
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            // Every viewer takes the first snapshot at once, then one per tick.
            await registered.fulfillment(within: .seconds(10))
            try await tick(clock, dashboard)
            try await tick(clock, dashboard)
            await received.fulfillment(within: .seconds(10))
            let sequences = await watching.value
            #expect(sequences.count == viewers && sequences.allSatisfy { $0 == [1, 2, 3] })
            #expect(dashboard.viewerCount == 0)
            #expect(source.reads.load(ordering: .relaxed) == 3)  // one read per update, not one per viewer
            // Nobody watches: at its next tick the producer stops without reading.
            try await tick(clock, dashboard)
            await stopped.fulfillment(within: .seconds(10))
            #expect(!dashboard.isProducing)
            #expect(source.reads.load(ordering: .relaxed) == 3)
        }

        @Test func theIntervalHasAFloor() async throws {
            let clock = ManualClock()
            let dashboard = Dashboard(
                sources: [CountingSource()], configuration: DashboardConfiguration(interval: .milliseconds(1)),
                clock: clock)
            #expect(dashboard.configuration.interval == .milliseconds(250))
            let viewer = Task {
                var iterator = dashboard.updates().makeAsyncIterator()
                _ = await iterator.next()
                _ = await iterator.next()
            }
            try await clock.waitForSleepers(count: 1)
            #expect(clock.nextDeadline == clock.now.advanced(by: .milliseconds(250)))
            clock.advance(by: .milliseconds(249))
            #expect(clock.sleeperCount == 1)  // not woken early
            clock.advance(by: .milliseconds(1))
            await viewer.value
        }

        @Test func eventsStreamSnapshotsAndEndWhenTheClientLeaves() async throws {
            let clock = ManualClock()
            let dashboard = Dashboard(sources: [CountingSource()], clock: clock)
            try await withLiveServer(dashboard) { port in
                let reading = Task { try await readEvents(port: port, through: 3) }
                try await tick(clock, dashboard)
                try await tick(clock, dashboard)
                let (head, ids) = try await reading.value  // the client closes after the third event
                #expect(head.hasPrefix("HTTP/1.1 200"))
                #expect(head.lowercased().contains("content-type: text/event-stream"))
                #expect(head.lowercased().contains("cache-control: no-store"))
                // In order, ending with the third (a viewer slow to start skips to the latest).
                #expect(ids.last == 3 && ids == ids.sorted() && Set(ids).count == ids.count)
                // Writes to the closed connection are queued until the server's event loop meets the peer's reset;
                // a write after that fails and ends the stream. Each round publishes one update, then a request on
                // another connection lets the server's I/O catch up. While a viewer remains, the producer runs and
                // sleeps between ticks, so each tick finds it asleep.
                for _ in 0..<50 where dashboard.viewerCount > 0 {
                    try await tick(clock, dashboard)
                    _ = try await fetch(port: port, path: "/snapshot.json")
                }
                #expect(dashboard.viewerCount == 0)
            }
        }

        @Test func aClientThatNeverReadsHoldsNoBacklogAndDelaysNoOne() async throws {
            let clock = ManualClock()
            // 500 listed jobs make each update large (about 200 KB), so the stalled socket's buffers fill quickly.
            let queue = WorkQueue(name: "big", width: 1)
            let held = try (0..<500).map { index in
                try queue.trySubmit("held job \(index)", options: JobOptions(isHeld: true)) {}
            }
            let dashboard = Dashboard(
                sources: [WorkQueuesSource(queues: [queue])], configuration: DashboardConfiguration(listLimit: 500),
                clock: clock)
            let two = CallbackExpectation("two viewers")
            dashboard.testHook.withLockedValue { $0 = { event in if case .viewers(2) = event { two.fulfill() } } }
            let ticks = 60
            try await withLiveServer(dashboard) { port in
                let stalled = try await StalledClient.connect(port: port)
                let reading = Task { try await readEvents(port: port, through: ticks + 1) }
                await two.fulfillment(within: .seconds(10))
                for _ in 0..<ticks { try await tick(clock, dashboard) }
                let (_, ids) = try await reading.value
                #expect(ids.last == ticks + 1)  // the reader got the latest update while the other client stalled
                #expect(ids.count >= ticks / 2)
                #expect(dashboard.viewerCount >= 1)
                // Alive: the latest, the one the stalled viewer is stuck writing, and at most one being delivered.
                #expect(dashboard.updateCounter.alive.load(ordering: .relaxed) <= 3)
                // The engine runs on unaffected.
                for job in held { job.release() }
                await queue.waitUntilIdle()
                #expect(queue.counts.succeeded == 500)
                try await stalled.close()
            }
        }
    }
#endif
