#if CLI
    import Foundation
    import Switchyard
    import SwitchyardPush
    import Synchronization

    /// What `switchyard push` keeps of a batch's results: the notifications that were not delivered (for the summary's
    /// reasons and `--failed`); delivered ones are only counted.
    final class PushOutcomes: Sendable {
        struct Undelivered: Sendable {
            var deviceToken: String
            /// `nil`: not sent, or sent and unanswered (the batch was stopped first).
            var failure: PushFailure?
            /// Sent, and the batch stopped before APNs answered: it may have been delivered.
            var unconfirmed = false
        }

        private let undelivered = Mutex<[Undelivered]>([])

        func add(_ result: PushResult) {
            switch result.outcome {
            case .delivered: return
            case .failed(let failure):
                undelivered.withLock { $0.append(Undelivered(deviceToken: result.deviceToken, failure: failure)) }
            case .notSent:
                undelivered.withLock { $0.append(Undelivered(deviceToken: result.deviceToken, failure: nil)) }
            case .unconfirmed:
                undelivered.withLock {
                    $0.append(Undelivered(deviceToken: result.deviceToken, failure: nil, unconfirmed: true))
                }
            }
        }

        var all: [Undelivered] { undelivered.withLock { $0 } }
    }

    /// The text and JSON `switchyard push` prints, and the `--failed` file.
    enum PushReport {
        /// What to do about a device token that was not delivered to, as written in `--failed`'s second column.
        static func action(_ entry: PushOutcomes.Undelivered) -> String {
            if entry.unconfirmed { return "check" }
            guard let failure = entry.failure else { return "retry" }
            switch failure.disposition {
            case .unregistered: return "stop"
            case .retry, .credentials: return "retry"
            case .permanent: return "rejected"
            }
        }

        /// The summary for a person: totals and rate, then one line per outcome, largest first.
        static func text(_ summary: PushSummary, seconds: Double, connections: Int) -> String {
            let rate = seconds > 0 ? Int(Double(summary.total) / seconds) : 0
            var lines = [
                "\(summary.total) notifications in \(String(format: "%.2f", seconds)) s (\(rate) pushes/s), "
                    + "\(summary.requests) requests (retries included) on up to \(connections) connection"
                    + (connections == 1 ? "" : "s")
            ]
            var rows: [(String, Int, String)] = [("delivered", summary.delivered, "")]
            for (reason, count) in summary.failed.sorted(by: {
                ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue)
            }) {
                let status = reason.status == 0 ? "found here, not sent" : "\(reason.status)"
                rows.append(("\(reason) (\(status))", count, advice(reason.disposition(status: reason.status))))
            }
            if summary.unconfirmed > 0 {
                rows.append(
                    (
                        "unconfirmed (stopped in flight)", summary.unconfirmed,
                        "may have been delivered: sending again may deliver twice"
                    ))
            }
            if summary.notSent > 0 { rows.append(("not sent (stopped)", summary.notSent, "send again")) }
            let width = rows.map(\.0.count).max() ?? 0
            for (label, count, advice) in rows {
                let padded = label.padding(toLength: width, withPad: " ", startingAt: 0)
                let number = String(count).leftPadded(to: 8)
                lines.append("  \(padded) \(number)" + (advice.isEmpty ? "" : "  \(advice)"))
            }
            return lines.joined(separator: "\n")
        }

        private static func advice(_ disposition: PushReason.Disposition) -> String {
            switch disposition {
            case .unregistered: "stop sending to these devices"
            case .retry: "may succeed later"
            case .credentials: "the signing key or its IDs were refused"
            case .permanent: "the request was wrong"
            }
        }

        /// The summary for a program (`--json`): one object on one line.
        struct JSON: Encodable {
            var notifications: Int
            var delivered: Int
            var failed: [String: Int]
            var notSent: Int
            var unconfirmed: Int
            var requests: Int
            var seconds: Double
            var pushesPerSecond: Double
            var interrupted: Bool
        }

        static func json(_ summary: PushSummary, seconds: Double, interrupted: Bool) -> String {
            let object = JSON(
                notifications: summary.total, delivered: summary.delivered,
                failed: Dictionary(uniqueKeysWithValues: summary.failed.map { ($0.key.rawValue, $0.value) }),
                notSent: summary.notSent, unconfirmed: summary.unconfirmed, requests: summary.requests,
                seconds: seconds,
                pushesPerSecond: seconds > 0 ? Double(summary.total) / seconds : 0, interrupted: interrupted)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return String(decoding: (try? encoder.encode(object)) ?? Data("{}".utf8), as: UTF8.self)
        }

        /// Writes `--failed`: a `#` header line, then per undelivered notification its device token, the action
        /// (`stop`: unregistered, never send again; `retry`: may succeed later, or was not sent; `rejected`: the
        /// request was wrong; `check`: sent when the batch stopped, unanswered, so perhaps delivered), APNs's reason
        /// (`NotSent` when not sent, `Unconfirmed` when unanswered) and, for 410, the time APNs learned the token was
        /// invalid (milliseconds since 1970), tab-separated. Written to a temporary file renamed into place
        /// (``FileWriting/replaceAtomically(_:with:)``). Blocking: call it on a `BlockingExecutor`.
        static func writeFailed(_ undelivered: [PushOutcomes.Undelivered], to path: String) throws {
            var text = "# token\taction\treason\ttimestamp\n"
            for entry in undelivered {
                let reason = entry.failure?.reason.rawValue ?? (entry.unconfirmed ? "Unconfirmed" : "NotSent")
                let timestamp = entry.failure?.timestamp.map(String.init) ?? ""
                text += "\(entry.deviceToken)\t\(action(entry))\t\(reason)\t\(timestamp)\n"
            }
            do throws(FileWriteError) {
                try FileWriting.replaceAtomically(path, with: Array(text.utf8))
            } catch {
                throw PushCommandError("\(path): cannot be written (\(error.step) failed: \(error.reason))")
            }
        }
    }

    extension String {
        fileprivate func leftPadded(to width: Int) -> String {
            count >= width ? self : String(repeating: " ", count: width - count) + self
        }
    }
#endif
