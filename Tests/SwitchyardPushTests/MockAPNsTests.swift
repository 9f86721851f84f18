#if Push && HTTP
    import AsyncHTTPClient
    import Crypto
    import Foundation
    import NIOCore
    import NIOSSL
    import SwitchyardHTTPTesting
    import SwitchyardPush
    import SwitchyardPushTesting
    import Testing

    @Suite("The mock APNs: APNs's checks and answers, and its fault script")
    struct MockAPNsTests {
        static let key = P256.Signing.PrivateKey()
        static let signing = try! PushSigningKey(pem: key.pemRepresentation, keyID: "KEY1234567", teamID: "TEAM123456")
        static let device = String(repeating: "0f", count: 32)
        static let start = 1_700_000_000

        static func rules() -> MockAPNsRules {
            MockAPNsRules(teamID: "TEAM123456", keys: ["KEY1234567": signing.publicKey], bundleIDs: ["org.example.app"])
        }

        static func request(
            token: ProviderToken?, device: String = device,
            headers: [(String, String)] = [("apns-topic", "org.example.app")],
            body: [UInt8] = Array(#"{"aps":{"alert":"hi"}}"#.utf8), method: String = "POST"
        ) -> MockAPNsRules.Request {
            var all = headers.map { (name: $0.0, value: $0.1) }
            if let token { all.append((name: "authorization", value: "bearer \(token.text)")) }
            return MockAPNsRules.Request(method: method, path: "/3/device/\(device)", headers: all, body: body)
        }

        @Test("the rules answer each mistake with APNs's status and reason")
        func rules() throws {
            let rules = Self.rules()
            let token = try ProviderToken(key: Self.signing, issuedAt: Self.start)
            func answer(_ request: MockAPNsRules.Request, now: Int = MockAPNsTests.start) -> PushReason? {
                var connection = MockAPNsRules.Connection()
                return rules.answer(request, connection: &connection, now: now).reason
            }
            #expect(answer(Self.request(token: token)) == nil)
            #expect(answer(Self.request(token: nil)) == .missingProviderToken)
            #expect(answer(Self.request(token: token, method: "GET")) == .methodNotAllowed)
            #expect(answer(Self.request(token: token), now: Self.start + 3_601) == .expiredProviderToken)
            let stranger = try ProviderToken(
                key: try PushSigningKey(
                    pem: P256.Signing.PrivateKey().pemRepresentation, keyID: "KEY1234567", teamID: "TEAM123456"),
                issuedAt: Self.start)
            #expect(answer(Self.request(token: stranger)) == .invalidProviderToken, "signed by another key")
            #expect(answer(Self.request(token: token, device: "xyz1")) == .badDeviceToken)
            #expect(answer(Self.request(token: token, headers: [])) == .missingTopic)
            #expect(answer(Self.request(token: token, headers: [("apns-topic", "org.other.app")])) == .topicDisallowed)
            #expect(
                answer(
                    Self.request(
                        token: token, headers: [("apns-topic", "org.example.app"), ("apns-push-type", "voip")]))
                    == .badTopic)
            #expect(
                answer(
                    Self.request(
                        token: token, headers: [("apns-topic", "org.example.app.voip"), ("apns-push-type", "voip")]))
                    == nil)
            #expect(
                answer(
                    Self.request(token: token, headers: [("apns-topic", "org.example.app"), ("apns-priority", "7")]))
                    == .badPriority)
            #expect(
                answer(Self.request(token: token, headers: [("apns-topic", "org.example.app"), ("apns-id", "nope")]))
                    == .badMessageID)
            #expect(
                answer(
                    Self.request(
                        token: token, headers: [("apns-topic", "org.example.app"), ("apns-topic", "org.example.app")]))
                    == .duplicateHeaders)
            #expect(answer(Self.request(token: token, body: [])) == .payloadEmpty)
            #expect(answer(Self.request(token: token, body: Array(repeating: 32, count: 4_097))) == .payloadTooLarge)
            var unregistered = rules
            unregistered.unregistered[Self.device] = 1_699_999_000_000
            var connection = MockAPNsRules.Connection()
            let gone = unregistered.answer(Self.request(token: token), connection: &connection, now: Self.start)
            #expect(gone == MockAPNsRules.Answer(status: 410, reason: .unregistered, timestamp: 1_699_999_000_000))
        }

        @Test("a connection may not switch tokens sooner than 20 minutes, nor teams")
        func tokenUpdates() throws {
            let rules = Self.rules()
            var connection = MockAPNsRules.Connection()
            let first = try ProviderToken(key: Self.signing, issuedAt: Self.start)
            #expect(rules.answer(Self.request(token: first), connection: &connection, now: Self.start) == .accepted)
            #expect(connection.isAuthenticated)
            let soon = try ProviderToken(key: Self.signing, issuedAt: Self.start + 600)
            #expect(
                rules.answer(Self.request(token: soon), connection: &connection, now: Self.start + 600).reason
                    == .tooManyProviderTokenUpdates)
            let later = try ProviderToken(key: Self.signing, issuedAt: Self.start + 1_200)
            #expect(
                rules.answer(Self.request(token: later), connection: &connection, now: Self.start + 1_200) == .accepted)
        }

        @Test(
            "over HTTP/2 and TLS: accepted with its apns-id, errors as JSON, a 503 burst from the script, duplicates counted"
        )
        func overTheNetwork() async throws {
            let certificates = try StubCertificates.generate()
            let mock = try await MockAPNs.start(certificates: certificates, rules: Self.rules())
            var configuration = HTTPClient.Configuration()
            configuration.tlsConfiguration = certificates.clientConfiguration
            configuration.httpVersion = .automatic
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            defer {
                Task {
                    try? await client.shutdown()
                    try? await mock.shutdown()
                }
            }
            let token = try ProviderToken(key: Self.signing, issuedAt: Int(Date().timeIntervalSince1970))

            func send(id: UUID, body: String = #"{"aps":{"alert":"hi"}}"#) async throws -> (Int, String?, String) {
                var request = HTTPClientRequest(url: mock.url + "/3/device/\(Self.device)")
                request.method = .POST
                request.headers.add(name: "authorization", value: "bearer \(token.text)")
                request.headers.add(name: "apns-topic", value: "org.example.app")
                request.headers.add(name: "apns-id", value: id.uuidString)
                request.body = .bytes(ByteBuffer(string: body))
                let response = try await client.execute(request, timeout: .seconds(10))
                let text = String(buffer: try await response.body.collect(upTo: 4_096))
                #expect(response.version == .http2)
                return (Int(response.status.code), response.headers.first(name: "apns-id"), text)
            }
            let id = UUID()
            let (status, echoed, _) = try await send(id: id)
            #expect(status == 200 && echoed == id.uuidString)
            let (large, _, reason) = try await send(
                id: UUID(), body: "{\"a\":\"" + String(repeating: "x", count: 4_100) + "\"}")
            #expect(large == 413 && reason == #"{"reason":"PayloadTooLarge"}"#)
            mock.script([.answer(status: 503, reason: .serviceUnavailable, times: 2)])
            #expect(try await send(id: UUID()).0 == 503)
            #expect(try await send(id: UUID()).0 == 503)
            #expect(try await send(id: id).0 == 200)
            #expect(mock.duplicates == 1, "the same apns-id accepted twice")
            #expect(mock.deliveries.count == 2)
            #expect(mock.answers["ServiceUnavailable"] == 2)
            #expect(mock.connections >= 1)
        }

        @Test("waitForRequests returns early when its task is cancelled, before or while it waits")
        func waitForRequestsCancelled() async throws {
            let mock = try await MockAPNs.start(certificates: try StubCertificates.generate(), rules: Self.rules())
            let waiting = Task { await mock.waitForRequests(count: 1) }
            waiting.cancel()  // before or after it suspended, whichever the scheduler made it
            await waiting.value
            let cancelledFirst = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                await mock.waitForRequests(count: 1)
            }
            await cancelledFirst.value
            #expect(mock.requests == 0, "both returned with no request")
            try await mock.shutdown()
        }
    }
#endif
