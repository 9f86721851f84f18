#if Push
    import Foundation
    import SwitchyardPush
    import SwitchyardPushTesting
    import Testing

    /// The README's push example, as written there but for the server (the mock instead of APNs).
    @Suite("The README's push example")
    struct PushReadmeExampleTests {
        @Test("a key from a protected file, a payload, a batch, a summary")
        func example() async throws {
            let mock = try await PushClientTests.start()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("push-readme-\(UUID())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = folder + "/AuthKey_KEY1234567.p8"
            _ = FileManager.default.createFile(
                atPath: path, contents: Data(PushClientTests.key.pemRepresentation.utf8),
                attributes: [.posixPermissions: 0o600])
            let tokens = (0..<20).map { String(format: "%064x", $0) }

            let key = try PushSigningKey.load(file: path, keyID: "KEY1234567", teamID: "TEAM123456")
            let client = PushClient(
                key: key, bundleID: "org.example.app",
                configuration: .init(
                    endpoint: .custom(host: "127.0.0.1", port: mock.port),
                    tls: PushClientTests.certificates.clientConfiguration))
            let payload = PushPayload(alert: .init(title: "Platform change", body: "The 17:42 leaves from platform 4"))
            let summary = try await client.send(
                try tokens.map { try PushNotification(deviceToken: $0, payload: payload) })
            await client.shutdown()

            #expect(summary.delivered == 20)
            #expect(mock.deliveries.count == 20)
            try await mock.shutdown()
        }
    }
#endif
