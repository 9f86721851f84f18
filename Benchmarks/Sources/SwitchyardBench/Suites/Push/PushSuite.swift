import Crypto
import Foundation
import SwitchyardHTTPTesting
import SwitchyardPush
import SwitchyardPushTesting

/// `push`: 30,000 notifications to the mock APNs on loopback (in this process), sent by SwitchyardPush's client
/// alone (`switchyard-push-load`), by Python's aioapns (`Benchmarks/Anchors/aioapns-anchor.py`, the anchor) and by the
/// `switchyard push` command, each as a process of its own with two connections, rounds interleaved; and the
/// client alone again against a server that keeps HTTP/2's initial 64 KiB connection window (reported).
///
/// Goals (issue: push): all 30,000 in < 3 s (the process's whole wall time), ≥ 5× aioapns's pushes/s (each timed
/// from its first request to its last answer), peak resident set ≤ 64 MB. The command's row is reported: it also
/// carries the other subcommands' libraries (libvips among them).
struct PushSuite: BenchmarkSuite {
    let name = "push"
    let summary = "30,000 notifications to the mock APNs: SwitchyardPush vs aioapns (Python), 2 connections each"

    static let keyID = "KEY1234567"
    static let teamID = "TEAM123456"
    static let bundleID = "org.example.app"

    func run(runner: Runner, report: Report) {
        let root = NSTemporaryDirectory() + "switchyard-bench-push-\(getpid())"
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        do {
            try compare(root: root, runner: runner, report: report)
        } catch {
            report.note("push suite failed: \(error)")
        }
    }

    private func compare(root: String, runner: Runner, report: Report) throws {
        let count = Int(30_000 * runner.scale)
        let certificates = try StubCertificates.generate()
        let key = P256.Signing.PrivateKey()
        let files = try Self.writeInputs(root: root, count: count, certificates: certificates, key: key)
        let rules = MockAPNsRules(teamID: Self.teamID, keys: [Self.keyID: key.publicKey], bundleIDs: [Self.bundleID])
        // Two servers alike but for the connection's flow-control window: 1 MiB, as large HTTP/2 servers keep it
        // (the goal's), and HTTP/2's initial 64 KiB, which holds about 470 of these requests at once.
        let mock = try blockingRun {
            try await MockAPNs.start(certificates: certificates, rules: rules, connectionWindow: 1 << 20)
        }
        let narrow = try blockingRun { try await MockAPNs.start(certificates: certificates, rules: rules) }
        defer {
            _ = try? blockingRun {
                try await mock.shutdown()
                try await narrow.shutdown()
            }
        }
        let clients = Self.clients(files: files, port: mock.port, narrowPort: narrow.port, report: report)
        var results = [[(send: Double, wall: Double, kilobytes: Int)]](repeating: [], count: clients.count)
        for _ in 0..<(runner.scale < 1 ? 1 : 3) {
            for (index, client) in clients.enumerated() {
                let server = client.name.contains("64 KiB") ? narrow : mock
                let before = (server.deliveryCount, server.duplicates)
                guard let measured = TimedProcess.runCapturing(client.arguments, environment: [:]),
                    let send = Self.sendSeconds(measured.output)
                else {
                    report.note("push: \(client.name) failed to run")
                    continue
                }
                let accepted = server.deliveryCount - before.0
                if accepted != count || server.duplicates != before.1 {
                    report.note(
                        "push: \(client.name) had \(accepted) of \(count) accepted, duplicates \(server.duplicates)")
                    continue
                }
                results[index].append((send, measured.seconds, measured.kilobytes))
            }
        }
        report.note(
            "\(count) notifications per run to the mock APNs on 127.0.0.1 (it allows 1,000 streams per "
                + "connection; a 1 MiB connection window unless the row says 64 KiB), 2 connections; ns/op: send "
                + "time per notification, median of \(results.map(\.count).max() ?? 0) runs")
        record(clients.map(\.name), results, count: count, report: report)
    }

    private func record(
        _ names: [String], _ results: [[(send: Double, wall: Double, kilobytes: Int)]], count: Int, report: Report
    ) {
        let anchor = results[0].isEmpty ? nil : Clockwork.median(results[0].map(\.send)) / Double(count) * 1e9
        for (index, name) in names.enumerated() where !results[index].isEmpty {
            let send = Clockwork.median(results[index].map(\.send))
            let wall = Clockwork.median(results[index].map(\.wall))
            let peak = results[index].map(\.kilobytes).max()!
            var measurement = Measurement(
                suite: self.name, name: name, nanosecondsPerOperation: send / Double(count) * 1e9)
            let perNotification = results[index].map { $0.send / Double(count) * 1e9 }
            measurement.range = (perNotification.min()!, perNotification.max()!)
            measurement.peakMemoryBytes = peak * 1024
            measurement.extra = [
                ("pushes_per_second", Double(count) / send), ("wall_seconds", wall),
                ("peak_rss_mb", Double(peak) / 1024),
            ]
            if index > 0, let anchor { measurement.anchor = ("aioapns", anchor) }
            if index == 1 {
                let fastEnough = anchor.map { measurement.nanosecondsPerOperation * 5 <= $0 } ?? false
                let scaled = 3.0 * Double(count) / 30_000
                measurement.goal = (
                    "all in < \(String(format: "%.1f", scaled)) s, >= 5x aioapns's pushes/s, peak RSS <= 64 MB",
                    fastEnough && wall < scaled && peak <= 64 * 1024
                )
            }
            report.record(measurement)
        }
        if results[0].isEmpty {
            report.note("push: no aioapns run (Scripts/install-aioapns.sh installs it): the ratio goal cannot be met")
        }
    }

    struct Inputs {
        var ca: String
        var key: String
        var tokens: String
        var payload: String
    }

    private static func writeInputs(
        root: String, count: Int, certificates: StubCertificates, key: P256.Signing.PrivateKey
    ) throws -> Inputs {
        let inputs = Inputs(
            ca: root + "/ca.pem", key: root + "/AuthKey_\(keyID).p8", tokens: root + "/tokens.txt",
            payload: root + "/payload.json")
        try certificates.authorityPEM.write(toFile: inputs.ca, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(
            atPath: inputs.key, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600])
        let tokens = (0..<count).map {
            String(format: "%016llx", 0x5157_0000 + $0) + String(repeating: "ab", count: 24)
        }
        try (tokens.joined(separator: "\n") + "\n").write(toFile: inputs.tokens, atomically: true, encoding: .utf8)
        try
            #"{"aps":{"alert":{"title":"Platform change","body":"The 17:42 now leaves from platform 4."},"sound":"default"}}"#
            .write(toFile: inputs.payload, atomically: true, encoding: .utf8)
        return inputs
    }

    /// The three programs, with their arguments; the anchor first. A missing one is left out with a note.
    private static func clients(
        files: Inputs, port: Int, narrowPort: Int, report: Report
    ) -> [(name: String, arguments: [String])] {
        let bench = URL(fileURLWithPath: ChildProcess.ownExecutable).resolvingSymlinksInPath()
        let folder = bench.deletingLastPathComponent()
        // Benchmarks/.build/<triple>/release → Benchmarks: the folder above the build folder.
        var tools = folder
        while tools.path != "/", tools.lastPathComponent != ".build" { tools.deleteLastPathComponent() }
        tools.deleteLastPathComponent()
        let python =
            ProcessInfo.processInfo.environment["SWITCHYARD_AIOAPNS_PYTHON"]
            ?? tools.appendingPathComponent(".build/aioapns-venv/bin/python").path
        let common = [
            "--ca-file", files.ca, "--key", files.key, "--key-id", keyID, "--team-id", teamID, "--topic", bundleID,
            "--tokens", files.tokens, "--payload", files.payload, "--connections", "2",
        ]
        let load = folder.appendingPathComponent("switchyard-push-load").path
        let command = folder.appendingPathComponent("switchyard").path
        var clients: [(name: String, arguments: [String])] = [
            (
                "aioapns, 2 connections (anchor)",
                [
                    python, tools.appendingPathComponent("Anchors/aioapns-anchor.py").path, "--host", "127.0.0.1",
                    "--port", "\(port)",
                ]
                    + common
            ),
            (
                "PushClient (switchyard-push-load), 2 connections",
                [load, "--host", "127.0.0.1", "--port", "\(port)"] + common
            ),
            (
                "switchyard push --json, 2 connections",
                [command, "push", "--endpoint", "https://127.0.0.1:\(port)", "--json"] + common
            ),
        ]
        clients.append(
            (
                "PushClient (switchyard-push-load), 2 connections, 64 KiB window",
                [load, "--host", "127.0.0.1", "--port", "\(narrowPort)"] + common
            ))
        if !FileManager.default.isExecutableFile(atPath: python) {
            report.note("push: \(python) not found (Scripts/install-aioapns.sh)")
            clients[0].arguments = ["/bin/false"]
        }
        for path in [load, command] where !FileManager.default.isExecutableFile(atPath: path) {
            report.note("push: \(path) not built (swift build -c release --package-path Benchmarks)")
        }
        return clients
    }

    /// The send time a client printed: `"seconds"` of its JSON line.
    private static func sendSeconds(_ output: String) -> Double? {
        guard let line = output.split(separator: "\n").last,
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { return nil }
        return (object["seconds"] as? Double) ?? (object["seconds"] as? Int).map(Double.init)
    }
}
