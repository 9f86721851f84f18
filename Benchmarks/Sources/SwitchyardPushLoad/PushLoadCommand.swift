import ArgumentParser
import NIOSSL
import SwitchyardPush

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `switchyard-push-load`: SwitchyardPush's client alone, without the `switchyard` command's other subsystems, sending
/// one payload to every device token of a file and printing one JSON line: `{"sent": N, "accepted": A,
/// "failed": F, "seconds": S}` (S: from the first request to the last answer). The `push` benchmark runs it beside
/// the same program written with Python's aioapns (`Benchmarks/Anchors/aioapns-anchor.py`, same arguments), each as a
/// process of its own against the same mock APNs.
@main
struct PushLoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchyard-push-load",
        abstract: "Send one payload to every token of a file with SwitchyardPush; print a JSON line.")

    @Option var host: String
    @Option var port: Int
    @Option(help: "The PEM authority to trust for the server.") var caFile: String
    @Option(help: "The .p8 signing key (mode 0600).") var key: String
    @Option var keyID: String
    @Option var teamID: String
    @Option(help: "The app's bundle ID.") var topic: String
    @Option(help: "Device tokens, one per line.") var tokens: String
    @Option(help: "The payload (a JSON object).") var payload: String
    @Option var connections = 2

    func run() async throws {
        let signing = try PushSigningKey.load(file: key, keyID: keyID, teamID: teamID)
        let json = Array(try Data(contentsOf: URL(fileURLWithPath: payload)))
        let devices = try String(contentsOfFile: tokens, encoding: .utf8).split(whereSeparator: \.isNewline)
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(caFile)
        let client = PushClient(
            key: signing, bundleID: topic,
            configuration: .init(endpoint: .custom(host: host, port: port), connections: connections, tls: tls))
        let started = ContinuousClock.now
        let summary = try await client.send(Batch(devices: devices, json: json), total: devices.count)
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        await client.shutdown()
        print(
            #"{"sent": \#(summary.total), "accepted": \#(summary.delivered), "failed": \#(summary.total - summary.delivered), "seconds": \#(seconds)}"#
        )
    }

    /// The notifications, made one at a time as the client asks for them.
    struct Batch: Sequence, Sendable {
        let devices: [Substring]
        let json: [UInt8]

        struct Iterator: IteratorProtocol {
            var devices: IndexingIterator<[Substring]>
            let json: [UInt8]

            mutating func next() -> PushNotification? {
                devices.next().map { PushNotification(deviceToken: String($0), json: json) }
            }
        }

        func makeIterator() -> Iterator { Iterator(devices: devices.makeIterator(), json: json) }
    }
}
