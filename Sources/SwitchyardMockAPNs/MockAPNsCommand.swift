#if CLI
    import ArgumentParser
    import Crypto
    import Dispatch
    import Foundation
    import SwitchyardHTTPTesting
    import SwitchyardPush
    import SwitchyardPushTesting

    /// `switchyard-mock-apns`: a local APNs (``MockAPNs``) for trying `switchyard push` or another provider without
    /// Apple's servers. It writes what a client needs into a folder (the certificate authority to trust, a signing key,
    /// device tokens and a payload), prints the `switchyard push` line that uses them, and answers until stopped with
    /// Ctrl-C (or SIGTERM); then it prints what it received, by answer, and the duplicates it saw by `apns-id`.
    @main
    struct MockAPNsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "switchyard-mock-apns",
            abstract: "A local APNs with APNs's checks and answers, and scripted faults (for tests and trials).",
            discussion: """
                The folder receives ca.pem (the authority that signed the server's certificate: pass it to \
                `switchyard push --ca-file`), AuthKey_KEYID.p8 (mode 0600; the mock accepts tokens signed with it), \
                tokens.txt (--devices random device tokens), payload.json, and endpoint (the URL, written once the \
                mock listens). A fault script (--script) is JSON: \
                {"unregistered": [TOKEN…], "faults": [{"goAway": 500}, {"drop": 800}, \
                {"status": 503, "reason": "ServiceUnavailable", "times": 20}, \
                {"device": TOKEN, "status": 429, "times": 2}, {"delayMilliseconds": 300, "times": 10}]}: each fault \
                happens once, in order. --unregistered K answers the first K tokens of tokens.txt 410 Unregistered.
                """)

        @Option(help: "The folder to write the files into (created if missing).")
        var folder: String

        @Option(help: "A fault script (JSON).")
        var script: String?

        @Option(help: "How many device tokens to write to tokens.txt.")
        var devices = 1_000

        @Option(help: "How many of those (the first ones) are answered 410 Unregistered.")
        var unregistered = 0

        @Option(help: "The port to listen on (0: any free port).")
        var port = 0

        @Option(help: "The most streams a connection may have open at once, once authenticated.")
        var maximumStreams = 1_000

        @Option(help: "The connection's flow-control window it keeps open for requests (HTTP/2's default: 65535).")
        var connectionWindow = 65_535

        @Option(help: "The app's bundle ID (topics are it plus each push type's suffix).")
        var bundleID = "org.example.app"

        @Option(help: "The team ID tokens must be issued by.")
        var teamID = "TEAM123456"

        @Option(help: "The signing key's ID.")
        var keyID = "KEY1234567"

        func validate() throws {
            guard devices >= 0, unregistered >= 0, unregistered <= devices else {
                throw ValidationError("--unregistered must be between 0 and --devices")
            }
            guard maximumStreams >= 1 else { throw ValidationError("--maximum-streams must be at least 1") }
        }

        func run() async throws {
            var faults = MockAPNsScript()
            if let script {
                do {
                    faults = try MockAPNsScript.decode(try Data(contentsOf: URL(fileURLWithPath: script)))
                } catch {
                    throw ValidationError("\(script): \(error)")
                }
            }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let certificates = try StubCertificates.generate()
            try certificates.authorityPEM.write(toFile: folder + "/ca.pem", atomically: true, encoding: .utf8)
            let key = P256.Signing.PrivateKey()
            let keyPath = folder + "/AuthKey_\(keyID).p8"
            try? FileManager.default.removeItem(atPath: keyPath)
            guard
                FileManager.default.createFile(
                    atPath: keyPath, contents: Data(key.pemRepresentation.utf8),
                    attributes: [.posixPermissions: 0o600])
            else { throw ValidationError("cannot write \(keyPath)") }
            let tokens = (0..<devices).map { _ in Self.randomToken() }
            try (tokens.joined(separator: "\n") + "\n").write(
                toFile: folder + "/tokens.txt", atomically: true, encoding: .utf8)
            try Self.payload.write(toFile: folder + "/payload.json", atomically: true, encoding: .utf8)
            faults.unregistered += tokens.prefix(unregistered)

            let rules = MockAPNsRules(teamID: teamID, keys: [keyID: key.publicKey], bundleIDs: [bundleID])
            let mock = try await MockAPNs.start(
                certificates: certificates, rules: rules, maximumStreams: maximumStreams,
                connectionWindow: connectionWindow, port: port)
            mock.run(faults)
            try mock.url.write(toFile: folder + "/endpoint", atomically: true, encoding: .utf8)
            print(
                """
                mock APNs listening on \(mock.url) (\(faults.faults.count) faults scripted, \
                \(faults.unregistered.count) devices unregistered); Ctrl-C stops it and prints what it received.
                send to it with:
                  switchyard push --endpoint \(mock.url) --ca-file \(folder)/ca.pem \\
                    --key \(keyPath) --key-id \(keyID) --team-id \(teamID) --topic \(bundleID) \\
                    --payload \(folder)/payload.json --tokens \(folder)/tokens.txt
                """)
            await Self.waitForStopSignal()
            try? await mock.shutdown()
            report(mock)
        }

        /// Prints what the mock received: requests, answers by reason, duplicates, connections.
        private func report(_ mock: MockAPNs) {
            var lines = ["received \(mock.requests) requests on \(mock.connections) connections"]
            for (reason, count) in mock.answers.sorted(by: { $0.value > $1.value }) {
                lines.append("  \(reason): \(count)")
            }
            lines.append("duplicates (an apns-id accepted twice): \(mock.duplicates)")
            print(lines.joined(separator: "\n"))
        }

        /// Suspends until SIGINT or SIGTERM.
        private static func waitForStopSignal() async {
            let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
            let sources = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { continuation.yield() }
                source.resume()
                return source
            }
            for await _ in stream { break }
            for source in sources { source.cancel() }
        }

        /// 32 random bytes in hexadecimal, as devices report their tokens.
        private static func randomToken() -> String {
            var generator = SystemRandomNumberGenerator()
            return (0..<32).map { _ in
                let byte = UInt8.random(in: 0...255, using: &generator)
                return (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }.joined()
        }

        private static let payload = """
            {"aps": {"alert": {"title": "Platform change", "body": "The 17:42 now leaves from platform 4."}, \
            "sound": "default"}, "trip": "17:42"}

            """
    }
#endif
