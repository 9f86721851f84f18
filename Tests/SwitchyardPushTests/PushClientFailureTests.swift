#if Push
    import Foundation
    @_spi(PushInternals) import SwitchyardPush
    import SwitchyardHTTPTesting
    import SwitchyardPushTesting
    import SwitchyardTesting
    import Synchronization
    import Testing

    /// The client against servers that misbehave: an answer far larger than APNs's, a certificate the client does not
    /// trust; and the TLS context its connections share.
    @Suite("PushClient against a misbehaving server", .serialized, .timeLimit(.minutes(2)))
    struct PushClientFailureTests {
        @Test("an answer with a 1 MiB body: cut at 4 KiB, its status still reported; the connection goes on")
        func oversizedAnswer() async throws {
            let mock = try await PushClientTests.start()
            let body =
                Array(#"{"reason":"BadDeviceToken","padding":""#.utf8)
                + Array(repeating: UInt8(ascii: "x"), count: 1 << 20) + Array(#""}"#.utf8)
            mock.script([.answerBody(status: 400, body: body, times: 1)])
            let client = PushClientTests.client(mock, connections: 1)
            let notifications = PushClientTests.notifications(2)
            let result = await client.send(notifications[0])
            guard case .failed(let failure) = result.outcome else {
                Issue.record("expected a failure, got \(result.outcome)")
                return
            }
            #expect(failure.status == 400)
            #expect(failure.reason == PushReason(rawValue: "HTTP400"), "the JSON was cut: named by its status")
            #expect(failure.disposition == .permanent && result.attempts == 1)
            #expect(failure.detail?.contains("longer than 4096 bytes") == true, "\(failure)")
            #expect(mock.answers["HTTP400"] == 1)
            #expect(await client.send(notifications[1]).outcome == .delivered)
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("one TLS context, made once, for every connection of a client")
        func oneTLSContext() async throws {
            let mock = try await PushClientTests.start()
            mock.script([.goAway(afterStreams: 10), .goAway(afterStreams: 10), .goAway(afterStreams: 10)])
            let client = PushClientTests.client(mock, connections: 1)
            #expect(client.tlsContextsMade == 0, "none before the first connection")
            let summary = try await client.send(PushClientTests.notifications(60))
            #expect(summary.delivered == 60)
            #expect(mock.connections >= 4, "a new connection after each GOAWAY")
            #expect(client.tlsContextsMade == 1)
            await client.shutdown()
            try await mock.shutdown()
        }

        /// A client of `mock` that trusts another authority than the one that signed the mock's certificate.
        static func distrustingClient(_ mock: MockAPNs, configure: (inout PushClient.Configuration) -> Void)
            throws -> PushClient
        {
            var configuration = PushClientTests.client(mock, connections: 2).configuration
            configuration.tls = try StubCertificates.generate().clientConfiguration
            configure(&configuration)
            return PushClient(key: PushClientTests.signing, bundleID: "org.example.app", configuration: configuration)
        }

        @Test("a certificate the client does not trust: a batch fails with its reason, permanent, on a few connections")
        func untrustedCertificate() async throws {
            let mock = try await PushClientTests.start()
            let client = try Self.distrustingClient(mock) { configuration in
                configuration.backoff = .milliseconds(10)
                configuration.maximumBackoff = .milliseconds(100)
            }
            let failures = Mutex<[PushFailure]>([])
            let summary = try await client.send(PushClientTests.notifications(200)) { result in
                if case .failed(let failure) = result.outcome { failures.withLock { $0.append(failure) } }
            }
            #expect(summary.failed[.untrustedCertificate] == 200 && summary.total == 200)
            #expect(summary.requests == 0 && mock.requests == 0, "no request, no retry")
            #expect(mock.connections <= 5, "a few TLS connections for the whole batch, not one per attempt")
            let failure = try #require(failures.withLock { $0.first })
            #expect(failure.disposition == .permanent)
            let detail = failure.detail ?? ""
            #expect(detail.hasPrefix("TLS: the server's certificate is not trusted: 127.0.0.1:"), "\(failure)")
            #expect(detail.contains("no trusted authority signed"), "why: \(failure)")
            await client.shutdown()
            try await mock.shutdown()
        }

        @Test("after openings fail, the next waits a backoff that grows with each failure in a row")
        func openingBackoff() async throws {
            let mock = try await PushClientTests.start()
            let time = PushClientTests.Time()
            let client = try Self.distrustingClient(mock) { configuration in
                configuration.clock = time.clock
                configuration.backoff = .seconds(1)
                configuration.maximumBackoff = .seconds(60)
            }
            let notifications = PushClientTests.notifications(3)
            var delays: [Duration] = []
            for (index, notification) in notifications.enumerated() {
                let result = await client.send(notification)
                guard case .failed(let failure) = result.outcome else {
                    Issue.record("expected a failure, got \(result.outcome)")
                    break
                }
                #expect(failure.reason == .untrustedCertificate)
                #expect(mock.connections == index + 1, "one opening per send, none while backing off")
                try await time.clock.waitForSleepers(count: 1)
                let deadline = try #require(time.clock.nextDeadline)
                delays.append(time.clock.now.duration(to: deadline))
                time.clock.advance(to: deadline)
            }
            // 1 s, 2 s, 4 s, each ±50%.
            #expect(delays.count == 3)
            #expect(delays.allSatisfy { $0 > .zero })
            if delays.count == 3 {
                #expect(delays[0] <= .milliseconds(1_500) && delays[2] >= .seconds(2), "\(delays)")
            }
            await client.shutdown()
            try await mock.shutdown()
        }
    }
#endif
