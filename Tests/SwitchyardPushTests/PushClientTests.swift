#if Push
    import Crypto
    import Foundation
    import SwitchyardHTTPTesting
    import SwitchyardPush
    import SwitchyardPushTesting
    import SwitchyardTesting
    import Synchronization
    import Testing

    /// The client against the mock APNs: batches, every kind of answer, faults, token refresh, cancellation.
    @Suite("PushClient against the mock APNs", .serialized, .timeLimit(.minutes(2)))
    struct PushClientTests {
        static let key = P256.Signing.PrivateKey()
        static let signing = try! PushSigningKey(pem: key.pemRepresentation, keyID: "KEY1234567", teamID: "TEAM123456")
        static let certificates = try! StubCertificates.generate()
        static let base = 1_700_000_000

        /// Wall time a test moves: `base` plus the manual clock's offset.
        final class Time: Sendable {
            let clock = ManualClock()
            var seconds: Int { PushClientTests.base + Int(clock.now.offset.components.seconds) }
        }

        static func rules() -> MockAPNsRules {
            MockAPNsRules(teamID: "TEAM123456", keys: ["KEY1234567": signing.publicKey], bundleIDs: ["org.example.app"])
        }

        static func client(_ mock: MockAPNs, time: Time? = nil, connections: Int = 2, attempts: Int = 5) -> PushClient {
            var configuration = PushClient.Configuration(
                endpoint: .custom(host: "127.0.0.1", port: mock.port), connections: connections,
                tls: certificates.clientConfiguration, attempts: attempts, backoff: .zero)
            if let time {
                configuration.clock = time.clock
                configuration.wallTime = { time.seconds }
            }
            return PushClient(key: signing, bundleID: "org.example.app", configuration: configuration)
        }

        static func notifications(_ count: Int, payload: String = #"{"aps":{"alert":"hi"}}"#) -> [PushNotification] {
            (0..<count).map { index in
                PushNotification(deviceToken: String(format: "%064x", index), json: Array(payload.utf8))
            }
        }

        static func start(time: Time? = nil, maximumStreams: Int = 1_000) async throws -> MockAPNs {
            let now: @Sendable () -> Int
            if let time {
                now = { time.seconds }
            } else {
                now = { Int(Date().timeIntervalSince1970) }
            }
            return try await MockAPNs.start(
                certificates: certificates, rules: rules(), maximumStreams: maximumStreams, now: now)
        }

        @Test("a batch of 600: every one delivered once, within the server's stream limit")
        func batch() async throws {
            let mock = try await Self.start(maximumStreams: 50)
            let client = Self.client(mock)
            let results = Mutex<[UUID: Int]>([:])
            let summary = try await client.send(Self.notifications(600), total: 600) { result in
                results.withLock { $0[result.id, default: 0] += 1 }
            }
            #expect(summary.delivered == 600 && summary.total == 600)
            #expect(results.withLock { $0.count == 600 && $0.values.allSatisfy { $0 == 1 } }, "one result each")
            #expect(mock.deliveries.count == 600 && mock.duplicates == 0)
            #expect(mock.answers == ["accepted": 600], "one token for all: never two signed at once")
            #expect(mock.maximumOpenStreams <= 50)
            #expect(mock.connections <= 2)
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test(
            "APNs's answers reach the caller: 410 with its timestamp, 400s; 413 and bad tokens refused without a request"
        )
        func answers() async throws {
            let mock = try await Self.start()
            let gone = String(repeating: "ab", count: 32)
            mock.updateRules { $0.unregistered[gone] = 1_699_000_000_000 }
            let client = Self.client(mock)
            var list = Self.notifications(3)
            list.append(PushNotification(deviceToken: gone, json: Array(#"{"aps":{}}"#.utf8)))
            list.append(PushNotification(deviceToken: "xyz", json: Array(#"{"aps":{}}"#.utf8)))
            list.append(
                PushNotification(
                    deviceToken: String(repeating: "0", count: 64), json: Array(repeating: 32, count: 5_000)))
            var voip = Self.notifications(1)[0]
            voip.type = .voip  // sent to org.example.app.voip
            list.append(voip)
            let results = Mutex<[PushResult]>([])
            let summary = try await client.send(list) { result in results.withLock { $0.append(result) } }
            #expect(summary.delivered == 4)
            #expect(summary.failed[.unregistered] == 1)
            #expect(summary.failed[.badDeviceToken] == 1 && summary.failed[.payloadTooLarge] == 1)
            #expect(
                mock.deliveries.last?.topic == "org.example.app.voip"
                    || mock.deliveries.contains { $0.topic == "org.example.app.voip" })
            let unregistered = results.withLock { $0.first { $0.deviceToken == gone } }
            #expect(
                unregistered?.outcome
                    == .failed(PushFailure(reason: .unregistered, status: 410, timestamp: 1_699_000_000_000)))
            #expect(mock.requests == 5, "the bad token and the large payload made no request")
            let other = PushClient(key: Self.signing, bundleID: "org.other.app", configuration: client.configuration)
            let refused = await other.send(Self.notifications(1)[0])
            #expect(refused.outcome == .failed(PushFailure(reason: .topicDisallowed, status: 400)))
            await other.shutdown()
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("a 503 burst and a 429 for one device: retried with the same apns-id, delivered once")
        func retries() async throws {
            let mock = try await Self.start()
            let list = Self.notifications(20)
            mock.script([
                .answer(status: 503, reason: .serviceUnavailable, times: 3),
                .answerDevice(list[7].deviceToken, status: 429, reason: .tooManyRequests, times: 2),
            ])
            let client = Self.client(mock, connections: 1)
            let summary = try await client.send(list)
            #expect(summary.delivered == 20)
            #expect(summary.requests == 25)
            #expect(mock.duplicates == 0 && mock.deliveries.count == 20)
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("GOAWAY mid-batch: every notification ends exactly once, none accepted twice", arguments: [1, 2])
        func goAway(connections: Int) async throws {
            let mock = try await Self.start()
            mock.script([.goAway(afterStreams: 40), .goAway(afterStreams: 100)])
            let client = Self.client(mock, connections: connections)
            let summary = try await client.send(Self.notifications(250))
            #expect(summary.delivered == 250)
            // Accepted ones are never resent (the mock counts an apns-id accepted twice).
            #expect(mock.duplicates == 0 && Set(mock.deliveries.map(\.id)).count == 250)
            #expect(mock.connections >= 2, "a new connection after GOAWAY")
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test(
            "GOAWAY with 2,000 requests in flight: those past its last stream end at once, not at the request timeout")
        func goAwayWithHeldStreams() async throws {
            // Two connections of 1,000 streams, full when the GOAWAY comes; a 10-minute request timeout: a stream
            // left waiting for an answer that will not come would outlast the suite's time limit.
            let mock = try await Self.start()
            mock.script([.goAway(afterStreams: 300)])
            var configuration = Self.client(mock).configuration
            configuration.requestTimeout = .seconds(600)
            configuration.streamsPerConnection = 1_000
            let client = PushClient(key: Self.signing, bundleID: "org.example.app", configuration: configuration)
            let summary = try await client.send(Self.notifications(2_000))
            #expect(summary.delivered == 2_000)
            #expect(mock.duplicates == 0)
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("a connection dropped mid-flight: its requests retried on a new connection")
        func droppedConnection() async throws {
            let mock = try await Self.start()
            mock.script([.dropConnection(afterStreams: 30)])
            let client = Self.client(mock, connections: 1)
            let summary = try await client.send(Self.notifications(150))
            #expect(summary.delivered == 150)
            #expect(mock.duplicates == 0)
            #expect(mock.connections == 2)
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("provider tokens: re-signed at 50 minutes; after ExpiredProviderToken only once 20 minutes old")
        func tokenRefresh() async throws {
            let time = Time()
            let mock = try await Self.start(time: time)
            mock.updateRules { $0.tokenLifetime = 15 * 60 }  // shorter than APNs's hour, to reach the expiry rule
            let client = Self.client(mock, time: time, connections: 1)
            let first = await client.send(Self.notifications(1)[0])
            #expect(first.outcome == .delivered)
            // 16 minutes on: the mock finds the token expired, but it is too young to replace. The send waits on the
            // clock until the token is 20 minutes old, then signs a new one.
            time.clock.advance(by: .seconds(16 * 60))
            let waiting = Task { await client.send(Self.notifications(1)[0]) }
            try await time.clock.waitForSleepers(count: 1)
            #expect(time.clock.nextDeadline == time.clock.now.advanced(by: .seconds(4 * 60)))
            time.clock.advance(by: .seconds(4 * 60))
            let second = await waiting.value
            #expect(second.outcome == .delivered && second.attempts == 2)
            #expect(mock.answers["ExpiredProviderToken"] == 1)
            #expect(mock.answers["TooManyProviderTokenUpdates"] == nil)
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("cancelled mid-batch: requests written and unanswered reported unconfirmed, the rest not sent")
        func cancellation() async throws {
            let time = Time()
            let mock = try await MockAPNs.start(
                certificates: Self.certificates, rules: Self.rules(), now: { Int(Date().timeIntervalSince1970) },
                clock: time.clock)
            var configuration = Self.client(mock, connections: 1).configuration
            configuration.streamsPerConnection = 100  // exactly 100 requests in flight at once
            let client = PushClient(key: Self.signing, bundleID: "org.example.app", configuration: configuration)
            // One accepted first: the connection's stream limit rises (until then APNs allows one stream).
            #expect(await client.send(Self.notifications(1)[0]).outcome == .delivered)
            mock.script([.delay(.seconds(60), times: 100_000)])  // every answer held until the clock moves
            let results = LockedState<[UUID: PushResult.Outcome]>([:])
            let batch = Task {
                try await client.send(Self.notifications(1_000)) { result in
                    results.withLock { $0[result.id] = result.outcome }
                }
            }
            await mock.waitForRequests(count: 101)  // the whole window: the mock holds 100 requests, unanswered
            batch.cancel()
            let summary = try await batch.value
            #expect(summary.total == 1_000 && summary.delivered == 0)
            #expect(summary.unconfirmed == 100, "written, unanswered: APNs may have delivered them")
            #expect(summary.notSent == 900, "never written: safe to send again")
            // Every notification the mock received (and would deliver once its answer goes out) is unconfirmed.
            let received = mock.deliveries.dropFirst().map { $0.id.lowercased() }
            #expect(received.count == 100)
            let outcomes = results.withLock { state in
                Dictionary(uniqueKeysWithValues: state.map { ($0.key.uuidString.lowercased(), $0.value) })
            }
            #expect(received.allSatisfy { outcomes[$0] == .unconfirmed })
            time.clock.advance(by: .seconds(60))
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("shut down while senders wait for their first stream: they fail, and no connection opens after it")
        func shutdownWhileWaiting() async throws {
            let time = Time()
            let mock = try await MockAPNs.start(
                certificates: Self.certificates, rules: Self.rules(), now: { Int(Date().timeIntervalSince1970) },
                clock: time.clock)
            // The first answer held until the clock moves: one stream until a request succeeded, so the batch's other
            // senders wait in the pool.
            mock.script([.delay(.seconds(60), times: 1)])
            let client = Self.client(mock, connections: 1)
            let batch = Task { try await client.send(Self.notifications(20)) }
            await mock.waitForRequests(count: 1)
            await client.shutdown()
            let summary = try await batch.value
            #expect(summary.total == 20 && summary.failed[.unreachable] == 20, "\(summary)")
            let accepted = mock.connections
            #expect(accepted == 1)
            // Another client's notification, delivered: round trips through the mock, during which a client that
            // reopened after its shutdown would have connected again.
            let other = Self.client(mock, connections: 1)
            #expect(await other.send(Self.notifications(1)[0]).outcome == .delivered)
            await other.shutdown()
            #expect(mock.connections == accepted + 1, "only the other client's connection")
            #expect(mock.requests == 2)
            time.clock.advance(by: .seconds(60))
            try await mock.shutdown()
        }

        @Test("no server: every notification fails as unreachable, saying why")
        func unreachable() async throws {
            var configuration = PushClient.Configuration(
                endpoint: .custom(host: "127.0.0.1", port: 1), tls: Self.certificates.clientConfiguration,
                backoff: .zero)
            configuration.connectTimeout = .seconds(2)
            let client = PushClient(key: Self.signing, bundleID: "org.example.app", configuration: configuration)
            let result = await client.send(Self.notifications(1)[0])
            guard case .failed(let failure) = result.outcome else {
                Issue.record("expected a failure, got \(result.outcome)")
                return
            }
            #expect(failure.reason == .unreachable)
            #expect(failure.detail?.isEmpty == false, "\(failure)")
            await client.shutdown()
        }
    }
#endif
