#if CLI
    import ArgumentParser
    import Foundation
    import NIOSSL
    import Switchyard
    import SwitchyardPush

    /// `switchyard push`: sends one payload to many devices through APNs (`send`, the default), and keeps signing keys
    /// encrypted (`keys import`).
    struct PushCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "push", abstract: "Send push notifications through APNs (HTTP/2), with retries and a summary.",
            subcommands: [PushSendCommand.self, PushKeysCommand.self], defaultSubcommand: PushSendCommand.self)
    }

    /// `switchyard push --key FILE --key-id ID --team-id ID --topic BUNDLE --payload FILE --tokens FILE`: sends the
    /// payload to every device token of the file, over `--connections` HTTP/2 connections, with a live progress bar
    /// (pushes/s), and prints a summary by reason. `--failed FILE` lists the tokens to stop using (410) and those to send
    /// again.
    ///
    /// Exit status: 0 when every notification was delivered; 1 when any failed or was not sent; 2 when an input cannot
    /// be used (the key, the payload, the tokens file, the `--ca-file`: nothing is sent); 64 for a malformed command
    /// line; 130 when stopped by Ctrl-C with notifications not sent (they are reported, and listed by `--failed`).
    struct PushSendCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send",
            abstract: "Send a payload to every device token of a file (the default subcommand of push).",
            discussion: """
                The key is Apple's AuthKey_KEYID.p8, which must be yours and readable by you alone (chmod 600), a file \
                written by `switchyard push keys import` (passphrase from $SWITCHYARD_PUSH_PASSPHRASE or asked on the \
                terminal), or a systemd credential (--credential NAME). Tokens: one per line; blank lines, # comments, \
                spaces and <> are ignored, and a tab or comma ends the token (a --failed file can be sent again). \
                Answers 429, 500 and 503, expired provider tokens, lost connections and GOAWAY are retried with backoff \
                (five requests at most per notification, with the same apns-id); a notification APNs answered 200 is \
                never sent again, but one whose answer was lost (a timeout, a lost connection) is, and may then reach \
                its device twice. Ctrl-C stops sending; answers already received are kept and the rest reported as not \
                sent (those that were in flight may have been delivered).
                """)

        @Option(help: "The signing key: a .p8 file, or a file written by `switchyard push keys import`.")
        var key: String?

        @Option(help: "A systemd credential holding the .p8 key (in $CREDENTIALS_DIRECTORY).")
        var credential: String?

        @Option(help: "The key's ID (default: from a file named AuthKey_KEYID.p8).")
        var keyID: String?

        @Option(help: "The team ID of the Apple developer account.")
        var teamID: String?

        @Option(help: "The app's bundle ID; the push type's suffix is added (.voip, …).")
        var topic: String

        @Flag(help: "Send to APNs's development server (api.sandbox.push.apple.com).")
        var sandbox = false

        @Option(help: "Another server instead of APNs: https://HOST[:PORT] (a mock, a proxy).")
        var endpoint: String?

        @Option(help: "Trust this PEM certificate authority for the server (with --endpoint).")
        var caFile: String?

        @Option(help: "The payload: a JSON object (4 KB at most; 5 KB for voip).")
        var payload: String

        @Option(help: "The device tokens, one per line (- for standard input).")
        var tokens: String

        @Option(help: "The push type: \(PushType.allCases.map(\.rawValue).joined(separator: ", ")).")
        var type: PushType = .alert

        @Option(help: "apns-priority: 10 (at once), 5 (conserving power) or 1 (lowest).")
        var priority: Int?

        @Option(help: "apns-collapse-id: notifications with the same one show as one (64 bytes at most).")
        var collapseID: String?

        @Option(help: "apns-expiration: seconds from now APNs keeps trying (0: now or never).")
        var expiresIn: Int?

        @Option(help: "HTTP/2 connections to use at most.")
        var connections = 2

        @Option(help: "Requests in flight on one connection at most (and at most what the server allows).")
        var streams = 500

        @Option(help: "Write the tokens not delivered to: token, action (stop, retry, rejected), reason, timestamp.")
        var failed: String?

        @Flag(help: "Print the summary as one JSON object instead of text.")
        var json = false

        func validate() throws {
            guard connections >= 1 else { throw ValidationError("--connections must be at least 1") }
            guard streams >= 1 else { throw ValidationError("--streams must be at least 1") }
            if let priority, PushPriority(rawValue: priority) == nil {
                throw ValidationError("--priority must be 10, 5 or 1, got \(priority)")
            }
            guard key != nil || credential != nil else {
                throw ValidationError("name the key: --key FILE or --credential")
            }
            if sandbox, endpoint != nil { throw ValidationError("--sandbox and --endpoint exclude each other") }
            if caFile != nil, endpoint == nil { throw ValidationError("--ca-file is for --endpoint's server") }
            if let endpoint, Self.server(endpoint) == nil {
                throw ValidationError("--endpoint must be https://HOST[:PORT], got \(endpoint)")
            }
        }

        /// The host and port of an `--endpoint` URL.
        static func server(_ endpoint: String) -> (host: String, port: Int)? {
            guard let url = URL(string: endpoint), url.scheme == "https", let host = url.host, !host.isEmpty else {
                return nil
            }
            return (host, url.port ?? 443)
        }

        func run() async throws {
            let inputs: PushInputs
            do {
                inputs = try await BlockingExecutor.shared.run { [self] in try PushInputs.load(self) }
            } catch {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                throw ExitCode(2)
            }
            let client = PushClient(key: inputs.key, bundleID: topic, configuration: clientConfiguration(inputs))
            let progress = PushProgress()
            let outcomes = PushOutcomes()
            let batch = PushBatch(
                tokens: inputs.tokens, payload: inputs.payload, type: type,
                priority: priority.flatMap(PushPriority.init),
                collapseID: collapseID, expiration: expiresIn.map { Date(timeIntervalSinceNow: Double($0)) })
            let started = ContinuousClock.now
            let work = Task {
                try await client.send(batch, total: batch.count) { result in
                    if case .delivered = result.outcome {
                        progress.ended(failed: false)
                    } else {
                        progress.ended(failed: true)
                        outcomes.add(result)
                    }
                }
            }
            let notice = InterruptNotice()
            let interrupts = InterruptHandler(notice: notice, stopping: "stopping: no new requests") { work.cancel() }
            let drawing = Task {
                var display = PushProgressDisplay(progress: progress, total: batch.count, notice: notice)
                await display.run()
            }
            let result = await work.result
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            drawing.cancel()
            await drawing.value
            withExtendedLifetime(interrupts) {}
            await client.shutdown()
            let summary: PushSummary
            do {
                summary = try result.get()
            } catch {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                throw ExitCode(1)
            }
            // A Ctrl-C that came after the last notification ended stopped nothing.
            try await finish(
                summary, outcomes: outcomes, seconds: seconds,
                interrupted: work.isCancelled && summary.notSent + summary.unconfirmed > 0)
        }

        /// Prints the summary, writes `--failed`, and exits with the status the type describes.
        private func finish(
            _ summary: PushSummary, outcomes: PushOutcomes, seconds: Double, interrupted: Bool
        ) async throws {
            print(
                json
                    ? PushReport.json(summary, seconds: seconds, interrupted: interrupted)
                    : PushReport.text(summary, seconds: seconds, connections: connections))
            if let failed {
                let undelivered = outcomes.all
                do {
                    try await BlockingExecutor.shared.run { try PushReport.writeFailed(undelivered, to: failed) }
                } catch {
                    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                    throw ExitCode(1)
                }
                if !json { print("wrote \(undelivered.count) tokens not delivered to \(failed)") }
            }
            if interrupted { throw ExitCode(130) }
            if summary.delivered < summary.total { throw ExitCode(1) }
        }

        private func clientConfiguration(_ inputs: PushInputs) -> PushClient.Configuration {
            var configuration = PushClient.Configuration(
                endpoint: sandbox ? .sandbox : .production, connections: connections, streamsPerConnection: streams)
            if let endpoint, let server = Self.server(endpoint) {
                configuration.endpoint = .custom(host: server.host, port: server.port)
            }
            if let authority = inputs.authority { configuration.tls.trustRoots = .certificates(authority) }
            return configuration
        }
    }

    /// What `switchyard push` reads before sending: the key, the payload (checked once), the tokens.
    struct PushInputs: Sendable {
        var key: PushSigningKey
        var payload: [UInt8]
        var tokens: PushTokenList
        /// `--ca-file`'s certificates.
        var authority: [NIOSSLCertificate]?

        /// Blocks on files, scrypt and a passphrase prompt: run it on the blocking executor.
        static func load(_ command: PushSendCommand) throws -> PushInputs {
            let key = try PushKeySource.load(
                file: command.key, credential: command.credential, keyID: command.keyID, teamID: command.teamID)
            let payload: [UInt8]
            do {
                payload = Array(try Data(contentsOf: URL(fileURLWithPath: command.payload)))
            } catch {
                throw PushCommandError("\(command.payload) cannot be read")
            }
            // The payload is the same for every device: check it once, as APNs would, before any request.
            let sample = PushNotification(
                deviceToken: String(repeating: "0", count: 64), json: payload, type: command.type,
                priority: command.priority.flatMap(PushPriority.init), collapseID: command.collapseID)
            if let problem = sample.problem {
                throw PushCommandError("\(command.payload): \(problem) (\(payload.count) bytes, \(command.type) push)")
            }
            let tokens: PushTokenList
            do {
                tokens = try PushTokenList.read(command.tokens)
            } catch {
                throw PushCommandError("\(command.tokens) cannot be read")
            }
            var authority: [NIOSSLCertificate]?
            if let caFile = command.caFile {
                do {
                    authority = try NIOSSLCertificate.fromPEMFile(caFile)
                } catch {
                    throw PushCommandError("\(caFile) holds no PEM certificate (\(error))")
                }
                if authority?.isEmpty == true { throw PushCommandError("\(caFile) holds no PEM certificate") }
            }
            return PushInputs(key: key, payload: payload, tokens: tokens, authority: authority)
        }
    }

    /// The batch: one notification per token, made as the client asks for the next one.
    struct PushBatch: Sequence, Sendable {
        let tokens: PushTokenList
        let payload: [UInt8]
        let type: PushType
        let priority: PushPriority?
        let collapseID: String?
        let expiration: Date?

        var count: Int { tokens.count }

        struct Iterator: IteratorProtocol {
            let batch: PushBatch
            var index = 0

            mutating func next() -> PushNotification? {
                guard index < batch.tokens.count else { return nil }
                defer { index += 1 }
                return PushNotification(
                    deviceToken: batch.tokens.token(at: index), json: batch.payload, type: batch.type,
                    priority: batch.priority, expiration: batch.expiration, collapseID: batch.collapseID)
            }
        }

        func makeIterator() -> Iterator { Iterator(batch: self) }
    }

    extension PushType: ExpressibleByArgument {}
#endif
