#if Push
    import Foundation
    import SwitchyardPush
    import SwitchyardPushTesting
    import SwitchyardTesting
    import Synchronization
    import Testing

    /// `PushClient.results(of:)`: a batch's results as an asynchronous sequence.
    @Suite("PushClient.results: a batch's results as a sequence", .serialized, .timeLimit(.minutes(2)))
    struct PushClientResultsTests {
        @Test("one result per notification, then the end; failures carry their reason")
        func everyResult() async throws {
            let mock = try await PushClientTests.start()
            let notifications = PushClientTests.notifications(200)
            mock.updateRules { rules in
                for notification in notifications.prefix(2) { rules.unregistered[notification.deviceToken] = 1 }
            }
            let client = PushClientTests.client(mock)
            var delivered = 0
            var unregistered: [String] = []
            for try await result in client.results(of: notifications) {
                switch result.outcome {
                case .delivered: delivered += 1
                case .failed(let failure) where failure.disposition == .unregistered:
                    unregistered.append(result.deviceToken)
                default: Issue.record("unexpected \(result)")
                }
            }
            #expect(delivered == 198)
            #expect(Set(unregistered) == Set(notifications.prefix(2).map(\.deviceToken)))
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("leaving the loop early cancels the batch: its job ends without the held answers")
        func leavingCancels() async throws {
            let time = PushClientTests.Time()
            let mock = try await MockAPNs.start(
                certificates: PushClientTests.certificates, rules: PushClientTests.rules(),
                now: { Int(Date().timeIntervalSince1970) }, clock: time.clock)
            let client = PushClientTests.client(mock, connections: 1)
            // The first ten answered at once, every later one held until the clock moves (it never does here).
            mock.script([.delay(.zero, times: 10), .delay(.seconds(3_600), times: 100_000)])
            var seen = 0
            for try await _ in client.results(of: PushClientTests.notifications(1_000)) {
                seen += 1
                if seen == 5 { break }
            }
            #expect(seen == 5)
            // Without the cancellation the batch's job would wait for the held answers for an hour of the clock.
            await client.resultsQueue.waitUntilIdle()
            await client.shutdown()
            time.clock.advance(by: .seconds(3_600))
            try await mock.shutdown()
        }

        /// A client with 5 streams: at most 5 requests in flight.
        static func narrowClient(_ mock: MockAPNs) -> PushClient {
            var configuration = PushClientTests.client(mock, connections: 1).configuration
            configuration.streamsPerConnection = 5
            return PushClient(key: PushClientTests.signing, bundleID: "org.example.app", configuration: configuration)
        }

        @Test("a reader that lags holds the batch back: requests never outrun the buffer, the window and what was read")
        func backPressure() async throws {
            let mock = try await PushClientTests.start()
            let client = Self.narrowClient(mock)
            let results = client.results(of: PushClientTests.notifications(200), buffering: .bounded(10))
            // Nothing read: 10 results buffered, one waiting for room, 4 more requests at most. The batch pauses there.
            await mock.waitForRequests(count: 15)
            #expect(mock.requests == 15)
            var read = 0
            for try await result in results {
                read += 1
                #expect(result.outcome == .delivered)
                #expect(mock.requests <= 15 + read, "one more request per result read, at most")
            }
            #expect(read == 200 && mock.deliveryCount == 200 && mock.duplicates == 0)
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("unbounded: the batch runs to its end before anything is read, and every result waits")
        func unbounded() async throws {
            let mock = try await PushClientTests.start()
            let client = Self.narrowClient(mock)
            let results = client.results(of: PushClientTests.notifications(50), buffering: .unbounded)
            await mock.waitForRequests(count: 50)
            await client.resultsQueue.waitUntilIdle()  // the batch's job ended with no reader
            var read = 0
            for try await result in results {
                read += 1
                #expect(result.outcome == .delivered)
            }
            #expect(read == 50)
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test(
            "more unread sequences than the batch queue's width: a batch sent meanwhile ends, then each reads to its end"
        )
        func unreadSequencesHoldNothingBack() async throws {
            let mock = try await PushClientTests.start()
            let client = Self.narrowClient(mock)
            client.queue.width = 2
            let count = client.queue.width + 1
            let sequences = (0..<count).map { _ in
                client.results(of: PushClientTests.notifications(20), buffering: .bounded(1))
            }
            // Nothing read: each batch pauses after 6 requests (1 result buffered, 1 waiting for room, 4 more in a
            // window of 5), every one of them running at once.
            await mock.waitForRequests(count: 6 * count)
            #expect(mock.requests == 6 * count)
            #expect(client.resultsQueue.counts.running == count)
            let summary = try await client.send(PushClientTests.notifications(3))
            #expect(summary.delivered == 3)
            for results in sequences {
                var read = 0
                for try await result in results {
                    read += 1
                    #expect(result.outcome == .delivered)
                }
                #expect(read == 20)
            }
            #expect(mock.deliveryCount == 3 + 20 * count && mock.duplicates == 0)
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("cancelling the iterating task ends the iteration with CancellationError, and the batch with it")
        func cancellingTheReader() async throws {
            let time = PushClientTests.Time()
            let mock = try await MockAPNs.start(
                certificates: PushClientTests.certificates, rules: PushClientTests.rules(),
                now: { Int(Date().timeIntervalSince1970) }, clock: time.clock)
            let client = PushClientTests.client(mock, connections: 1)
            mock.script([.delay(.seconds(3_600), times: 100_000)])  // every answer held: no result comes
            let results = client.results(of: PushClientTests.notifications(100))
            let reader = Task {
                var read = 0
                for try await _ in results { read += 1 }
                return read
            }
            await mock.waitForRequests(count: 1)
            reader.cancel()
            await #expect(throws: CancellationError.self) { try await reader.value }
            // The batch ended, though the sequence is still held (below) and its answers are held for an hour of a
            // clock nobody moves.
            await client.resultsQueue.waitUntilIdle()
            await #expect(throws: CancellationError.self, "the sequence ended") {
                for try await _ in results { Issue.record("a result after the end") }
            }
            await client.shutdown()
            time.clock.advance(by: .seconds(3_600))
            try await mock.shutdown()
        }

        @Test("a batch cancelled before its job began: every notification reported not sent, none sent")
        func cancelledBeforeStart() async throws {
            let mock = try await PushClientTests.start()
            let client = PushClientTests.client(mock)
            client.queue.suspend()  // the job cannot begin before the cancellation reaches it
            let reported = Counter()
            let summary = try await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await client.send(PushClientTests.notifications(50)) { _ in reported.increment() }
            }.value
            #expect(summary.notSent == 50 && summary.total == 50)
            #expect(reported.value == 50)
            #expect(mock.requests == 0)
            await client.shutdown()
            try await mock.shutdown()
        }
    }

    /// Counts calls from any thread.
    private final class Counter: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }
#endif
