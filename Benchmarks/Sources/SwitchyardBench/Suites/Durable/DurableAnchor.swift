import Foundation

/// A Python queue's run (`Benchmarks/Anchors/NAME-anchor.py`) in the venv `Scripts/install-durable-anchors.sh`
/// makes: enqueue `jobs` no-op jobs in bulk, drain them with `workers` concurrent consumers.
struct DurableAnchor {
    var name: String
    var version: String
    var enqueueSeconds: Double
    var drainSeconds: Double

    static let venv = "Benchmarks/.build/durable-venv"

    /// Runs the anchor; nil (with a note) when it is not installed or fails.
    static func run(_ name: String, url: String, jobs: Int, workers: Int, note: (String) -> Void) -> DurableAnchor? {
        let python = venv + "/bin/python"
        let script = "Benchmarks/Anchors/\(name)-anchor.py"
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script)
        else {
            note("durable: \(name) is not installed (Scripts/install-durable-anchors.sh), run from the repository root")
            return nil
        }
        let arguments = [
            script, "--url", ImportSuite.withoutSchema(url), "--schema", "bench_\(name)", "--jobs", "\(jobs)",
            "--workers", "\(workers)",
        ]
        guard let output = ChildProcess.output(python, arguments: arguments),
            let line = output.split(separator: "\n").last,
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let enqueue = object["enqueue_seconds"] as? Double, let drain = object["drain_seconds"] as? Double
        else {
            note("durable: the \(name) anchor failed")
            return nil
        }
        return DurableAnchor(
            name: name, version: object["version"] as? String ?? "?", enqueueSeconds: enqueue, drainSeconds: drain)
    }
}
