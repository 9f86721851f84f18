#if CLI
    import Crypto
    import Foundation
    import SwitchyardHTTPTesting
    import SwitchyardPush
    import SwitchyardPushTesting
    import Testing

    /// `switchyard push` as a user runs it, against the mock APNs: faults, the summary, `--failed`, keys, Ctrl-C.
    @Suite("switchyard push", .serialized, .timeLimit(.minutes(2)))
    struct PushCommandTests {
        static let key = P256.Signing.PrivateKey()
        static let certificates = try! StubCertificates.generate()

        /// A folder with the authority, the key (mode 0600), the payload and `tokens`.
        struct Files {
            let folder: String
            var ca: String { folder + "/ca.pem" }
            var key: String { folder + "/AuthKey_KEY1234567.p8" }
            var payload: String { folder + "/payload.json" }
            var tokens: String { folder + "/tokens.txt" }
            var failed: String { folder + "/failed.tsv" }

            init(tokens: String, payload: String = #"{"aps":{"alert":{"title":"Platform change","body":"Now 4"}}}"#)
                throws
            {
                folder = FileManager.default.temporaryDirectory.appendingPathComponent("push-cli-\(UUID())").path
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try PushCommandTests.certificates.authorityPEM.write(toFile: ca, atomically: true, encoding: .utf8)
                _ = FileManager.default.createFile(
                    atPath: key, contents: Data(PushCommandTests.key.pemRepresentation.utf8),
                    attributes: [.posixPermissions: 0o600])
                try payload.write(toFile: self.payload, atomically: true, encoding: .utf8)
                try tokens.write(toFile: self.tokens, atomically: true, encoding: .utf8)
            }

            func arguments(_ mock: MockAPNs, key: String? = nil, extra: [String] = []) -> [String] {
                [
                    "push", "--endpoint", mock.url, "--ca-file", ca, "--key", key ?? self.key, "--team-id",
                    "TEAM123456",
                    "--topic", "org.example.app", "--payload", payload, "--tokens", tokens,
                ] + extra
            }

            func remove() { try? FileManager.default.removeItem(atPath: folder) }
        }

        static func token(_ index: Int) -> String { String(format: "%064x", index) }

        static func start(maximumStreams: Int = 100) async throws -> MockAPNs {
            try await MockAPNs.start(
                certificates: certificates,
                rules: MockAPNsRules(
                    teamID: "TEAM123456", keys: ["KEY1234567": key.publicKey], bundleIDs: ["org.example.app"]),
                maximumStreams: maximumStreams)
        }

        struct Summary: Decodable {
            var notifications: Int
            var delivered: Int
            var failed: [String: Int]
            var notSent: Int
            var interrupted: Bool
        }

        @Test("faults scripted: the summary counts every reason, --failed lists what to stop and retry, no duplicates")
        func faults() async throws {
            let mock = try await Self.start()
            // 500 tokens as apps log them: a comment, blank lines, brackets and spaces, upper case; one that is no
            // token at all.
            var lines = ["# tokens of the evening run", ""]
            for index in 0..<500 {
                let token = Self.token(index)
                lines.append(index == 7 ? "<" + token.uppercased().chunked() + ">" : token)
            }
            lines.append("not-a-token")
            let files = try Files(tokens: lines.joined(separator: "\n") + "\n")
            defer { files.remove() }
            mock.run(
                MockAPNsScript(
                    faults: [
                        .goAway(afterStreams: 120), .answer(status: 503, reason: .serviceUnavailable, times: 10),
                        // The last token: sent after the faults before it have run. Five answers: every attempt.
                        .answerDevice(Self.token(499), status: 429, reason: .tooManyRequests, times: 5),
                    ],
                    unregistered: [Self.token(3), Self.token(4)]))
            let output = try await SwitchyardProcess.run(
                files.arguments(mock, extra: ["--json", "--failed", files.failed]))
            #expect(output.status == 1, "not all delivered: \(output.standardError)")
            let summary = try JSONDecoder().decode(Summary.self, from: Data(output.standardOutput.utf8))
            #expect(summary.notifications == 501)
            #expect(summary.delivered == 497)
            #expect(summary.failed == ["Unregistered": 2, "BadDeviceToken": 1, "TooManyRequests": 1])
            #expect(mock.duplicates == 0)
            #expect(Set(mock.deliveries.map(\.deviceToken)).count == 497)
            let failed = try String(contentsOfFile: files.failed, encoding: .utf8).split(separator: "\n")
            #expect(failed.first == "# token\taction\treason\ttimestamp")
            let rows = Set(
                failed.dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).prefix(3) })
            #expect(rows.contains([Substring(Self.token(3)), "stop", "Unregistered"]))
            #expect(rows.contains([Substring(Self.token(499)), "retry", "TooManyRequests"]))
            #expect(rows.contains(["not-a-token", "rejected", "BadDeviceToken"]))
            #expect(rows.count == 4)
            try await mock.shutdown()
        }

        @Test("the text summary names each reason with its status and what to do")
        func textSummary() async throws {
            let mock = try await Self.start()
            let files = try Files(tokens: (0..<20).map(Self.token).joined(separator: "\n"))
            defer { files.remove() }
            mock.run(MockAPNsScript(unregistered: [Self.token(1)]))
            let output = try await SwitchyardProcess.run(files.arguments(mock, extra: ["--connections", "1"]))
            #expect(output.status == 1)
            #expect(output.standardOutput.contains("20 notifications in"))
            #expect(output.standardOutput.contains("delivered"))
            #expect(output.standardOutput.contains("Unregistered (410)"))
            #expect(output.standardOutput.contains("stop sending to these devices"))
            try await mock.shutdown()
        }

        @Test("a key readable by others is refused, like ssh does, and nothing is sent")
        func unprotectedKey() async throws {
            let mock = try await Self.start()
            let files = try Files(tokens: Self.token(1))
            defer { files.remove() }
            #expect(chmod(files.key, 0o644) == 0)
            let output = try await SwitchyardProcess.run(files.arguments(mock))
            #expect(output.status == 2)
            #expect(output.standardError.contains("chmod 600"))
            #expect(!output.standardError.contains("PRIVATE KEY"))
            #expect(mock.requests == 0)
            try await mock.shutdown()
        }

        @Test("a payload APNs would refuse stops the run before any request")
        func payloadTooLarge() async throws {
            let mock = try await Self.start()
            let large = #"{"aps":{"alert":""# + String(repeating: "x", count: 4_100) + #""}}"#
            let files = try Files(tokens: Self.token(1), payload: large)
            defer { files.remove() }
            let output = try await SwitchyardProcess.run(files.arguments(mock))
            #expect(output.status == 2)
            #expect(output.standardError.contains("PayloadTooLarge"))
            #expect(mock.requests == 0)
            try await mock.shutdown()
        }

        @Test("a tokens file with a byte-order mark, a header comment and a line that is no token")
        func tokensFileShapes() async throws {
            let mock = try await Self.start()
            let text =
                "\u{FEFF}# devices\r\n" + (0..<5).map { Self.token($0) + "\r\n" }.joined() + ",\(Self.token(9))\r\n"
            let files = try Files(tokens: text)
            defer { files.remove() }
            let output = try await SwitchyardProcess.run(files.arguments(mock, extra: ["--json"]))
            #expect(output.status == 1)
            let summary = try JSONDecoder().decode(Summary.self, from: Data(output.standardOutput.utf8))
            #expect(summary.delivered == 5)
            #expect(summary.failed == ["BadDeviceToken": 1], "the line beginning with a comma is kept, and refused")
            try await mock.shutdown()
        }

        @Test(
            "an unusable --ca-file stops the run before any request (2); a malformed --endpoint is a usage error (64)")
        func badServerArguments() async throws {
            let mock = try await Self.start()
            let files = try Files(tokens: Self.token(1))
            defer { files.remove() }
            try "not a certificate".write(toFile: files.ca, atomically: true, encoding: .utf8)
            let badAuthority = try await SwitchyardProcess.run(files.arguments(mock))
            #expect(badAuthority.status == 2)
            #expect(badAuthority.standardError.contains("holds no PEM certificate"))
            var arguments = files.arguments(mock)
            arguments[arguments.firstIndex(of: "--endpoint")! + 1] = "http://127.0.0.1:1"
            let badEndpoint = try await SwitchyardProcess.run(arguments)
            #expect(badEndpoint.status == 64)
            #expect(mock.requests == 0)
            try await mock.shutdown()
        }

        @Test("keys import: an encrypted key sends with its passphrase; a wrong one is refused")
        func encryptedKey() async throws {
            let mock = try await Self.start()
            let files = try Files(tokens: (0..<5).map(Self.token).joined(separator: "\n"))
            defer { files.remove() }
            let sealed = files.folder + "/key.pushkey"
            let passphrase = ["SWITCHYARD_PUSH_PASSPHRASE": "correct horse battery staple"]
            let imported = try await SwitchyardProcess.run(
                ["push", "keys", "import", files.key, "--team-id", "TEAM123456", "--output", sealed],
                environment: passphrase)
            #expect(imported.status == 0, "\(imported.standardError)")
            let text = try String(contentsOfFile: sealed, encoding: .utf8)
            #expect(text.hasPrefix("switchyard-push-key 1\nkey-id: KEY1234567\nteam-id: TEAM123456\n"))
            #expect(!text.contains("PRIVATE KEY"))
            var arguments = files.arguments(mock, key: sealed, extra: ["--json"])
            arguments.removeSubrange(
                arguments.firstIndex(of: "--team-id")!...arguments.firstIndex(of: "--team-id")! + 1)
            let sent = try await SwitchyardProcess.run(arguments, environment: passphrase)
            #expect(sent.status == 0, "\(sent.standardError)")
            #expect(mock.deliveries.count == 5)
            let wrong = try await SwitchyardProcess.run(arguments, environment: ["SWITCHYARD_PUSH_PASSPHRASE": "wrong"])
            #expect(wrong.status == 2)
            #expect(wrong.standardError.contains("passphrase is wrong"))
            let again = try await SwitchyardProcess.run(
                ["push", "keys", "import", files.key, "--team-id", "TEAM123456", "--output", sealed],
                environment: passphrase)
            #expect(again.status == 1, "an existing key file is never overwritten")
            try await mock.shutdown()
        }

        @Test("Ctrl-C stops the batch: exit 130; those in flight listed as unconfirmed, the rest as not sent")
        func interrupted() async throws {
            let mock = try await Self.start()
            let files = try Files(tokens: (0..<300).map(Self.token).joined(separator: "\n"))
            defer { files.remove() }
            mock.script([.delay(.seconds(20), times: 1_000)])
            let (pid, exit) = try SwitchyardProcess.start(files.arguments(mock, extra: ["--failed", files.failed]))
            await SwitchyardProcess.waitUntil("requests arrive") { mock.requests >= 1 }
            kill(pid, SIGINT)
            #expect(await exit.value == 130)
            let failed = try String(contentsOfFile: files.failed, encoding: .utf8).split(separator: "\n").dropFirst()
            #expect(failed.count == 300)
            // The requests the mock holds were sent: perhaps delivered, not to be sent again blindly.
            let unconfirmed = failed.filter { $0.contains("\tcheck\tUnconfirmed") }.count
            #expect(unconfirmed >= 1 && unconfirmed < 300, "\(unconfirmed) unconfirmed")
            #expect(failed.allSatisfy { $0.contains("\tretry\tNotSent") || $0.contains("\tcheck\tUnconfirmed") })
            try await mock.shutdown()
        }
    }

    extension String {
        /// The string in groups of eight characters separated by spaces, as iOS once printed device tokens.
        fileprivate func chunked() -> String {
            stride(from: 0, to: count, by: 8).map { offset in
                let start = index(startIndex, offsetBy: offset)
                return String(self[start..<(index(start, offsetBy: 8, limitedBy: endIndex) ?? endIndex)])
            }.joined(separator: " ")
        }
    }
#endif
