import Foundation

/// One measured case: ours or an anchor, with its comparison to the anchor when it has one.
struct Measurement {
    var suite: String
    var name: String
    var nanosecondsPerOperation: Double
    /// The fastest and slowest repetition, when known.
    var range: (minimum: Double, maximum: Double)?
    /// The anchor this case is compared against, and that anchor's cost in the same run.
    var anchor: (name: String, nanosecondsPerOperation: Double)?
    /// Threads that ran the case at once.
    var threads: Int = 1
    /// The goal, e.g. "ratio <= 1.5", and whether this run met it.
    var goal: (text: String, met: Bool)?
    var peakMemoryBytes: Int?
    /// Further named values (for example `bytes_per_job`), printed as extra JSON keys and after the table row.
    var extra: [(key: String, value: Double)] = []

    var operationsPerSecond: Double { 1e9 / nanosecondsPerOperation }
    /// ours / anchor in time per operation: below 1 means faster than the anchor.
    var ratio: Double? { anchor.map { nanosecondsPerOperation / $0.nanosecondsPerOperation } }
}

/// Prints measurements as a table for people or as JSON lines for machines.
final class Report {
    let json: Bool
    private(set) var missedGoals: [String] = []

    init(json: Bool) { self.json = json }

    func begin(suite: String, description: String) {
        guard !json else { return }
        print("\n== \(suite): \(description)")
        print(
            pad("case", 52) + pad("ns/op", 10, right: true) + pad("±", 6, right: true)
                + pad("Mops/s", 10, right: true) + "  vs anchor")
    }

    func record(_ measurement: Measurement) {
        if let goal = measurement.goal, !goal.met {
            missedGoals.append("\(measurement.suite)/\(measurement.name): \(goal.text)")
        }
        if json { print(jsonLine(measurement)) } else { print(tableLine(measurement)) }
    }

    /// Records a row of named values that are not timings (hit rates): in JSON, one object with `suite`, `name`,
    /// each value under its own key, and the goal if any; in the table, the values in order.
    func recordValues(
        suite: String, name: String, values: [(key: String, value: Double)], goal: (text: String, met: Bool)?
    ) {
        if let goal, !goal.met { missedGoals.append("\(suite)/\(name): \(goal.text)") }
        if json {
            var object: [String: Any] = ["suite": suite, "name": name]
            for (key, value) in values { object[key] = rounded(value, places: 4) }
            if let goal {
                object["goal"] = goal.text
                object["goal_met"] = goal.met
            }
            let data = try! JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        } else {
            var line = pad(name, 52)
            for (key, value) in values { line += String(format: "  %@ %.3f", key, value) }
            if let goal { line += "  [goal \(goal.text): \(goal.met ? "met" : "MISSED")]" }
            print(line)
        }
    }

    func note(_ text: String) {
        if !json { print("   " + text) }
    }

    private func tableLine(_ m: Measurement) -> String {
        var spread = ""
        if let range = m.range, m.nanosecondsPerOperation > 0 {
            spread = String(format: "%.0f%%", 50 * (range.maximum - range.minimum) / m.nanosecondsPerOperation)
        }
        var line =
            pad(m.name, 52) + pad(String(format: "%.2f", m.nanosecondsPerOperation), 10, right: true)
            + pad(spread, 6, right: true) + pad(String(format: "%.2f", m.operationsPerSecond / 1e6), 10, right: true)
        if let anchor = m.anchor, let ratio = m.ratio {
            line += String(format: "  %.2fx %@", ratio, anchor.name)
        }
        for (key, value) in m.extra { line += String(format: "  %@ %.1f", key, value) }
        if let goal = m.goal { line += "  [goal \(goal.text): \(goal.met ? "met" : "MISSED")]" }
        return line
    }

    private func jsonLine(_ m: Measurement) -> String {
        var object: [String: Any] = [
            "suite": m.suite, "name": m.name, "ns_per_op": rounded(m.nanosecondsPerOperation),
            "ops_per_s": rounded(m.operationsPerSecond), "threads": m.threads,
        ]
        if let anchor = m.anchor, let ratio = m.ratio {
            object["anchor"] = anchor.name
            object["anchor_ns_per_op"] = rounded(anchor.nanosecondsPerOperation)
            object["ratio"] = rounded(ratio, places: 3)
        } else {
            object["anchor"] = NSNull()
            object["ratio"] = NSNull()
        }
        if let goal = m.goal {
            object["goal"] = goal.text
            object["goal_met"] = goal.met
        }
        if let peak = m.peakMemoryBytes { object["peak_memory_bytes"] = peak }
        for (key, value) in m.extra { object[key] = rounded(value) }
        if let range = m.range {
            object["min_ns_per_op"] = rounded(range.minimum)
            object["max_ns_per_op"] = rounded(range.maximum)
        }
        let data = try! JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    private func rounded(_ value: Double, places: Int = 2) -> Double {
        let scale = pow(10.0, Double(places))
        return (value * scale).rounded() / scale
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        guard text.count < width else { return text + " " }
        let padding = String(repeating: " ", count: width - text.count)
        return right ? padding + text : text + padding
    }
}
