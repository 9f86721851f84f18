#if Push
    import Logging
    import NIOHTTP2

    /// What the client logs and counts (the tables are in ``PushClient``'s description). Each function returns at
    /// once when the client has no logger: no metadata is built, no text formatted.
    extension PushClient {
        /// The first 8 hexadecimal digits of a device token, for log lines.
        static func shortened(_ deviceToken: String) -> String {
            String(deviceToken.prefix(8))
        }

        /// Counts `result` in the metrics and logs it. Called exactly once per notification that ended.
        func observe(_ result: PushResult) {
            metrics.record(result.outcome)
            guard let logger else { return }
            switch result.outcome {
            case .delivered:
                logger.trace("notification delivered", metadata: Self.metadata(result))
            case .failed(let failure) where failure.disposition == .unregistered:
                logger.debug("device token unregistered", metadata: Self.metadata(result, failure))
            case .failed(let failure):
                logger.debug("notification failed", metadata: Self.metadata(result, failure))
            case .unconfirmed:
                logger.debug("notification unconfirmed", metadata: Self.metadata(result))
            case .notSent:
                break
            }
        }

        /// A notification's request failed in a way a retry may mend (`failure`), and it is sent again.
        func logRetry(_ notification: PushNotification, after failure: PushFailure, attempts: Int) {
            logger?.trace(
                "request failed; retrying",
                metadata: [
                    "apns_id": "\(notification.id.uuidString)",
                    "device_token": "\(Self.shortened(notification.deviceToken))",
                    "reason": "\(failure.reason)", "attempts": "\(attempts)",
                ])
        }

        /// A batch ended with `summary`: a warning if a notification failed for another reason than an unregistered
        /// device, or is unconfirmed; else a debug line.
        func logBatch(_ summary: PushSummary, name: String) {
            guard let logger else { return }
            let serious =
                summary.unconfirmed > 0
                || summary.failed.keys.contains { $0.disposition(status: $0.status) != .unregistered }
            logger.log(
                level: serious ? .warning : .debug, "push batch finished",
                metadata: [
                    "batch": "\(name)", "delivered": "\(summary.delivered)", "failed": "\(summary.failedCount)",
                    "not_sent": "\(summary.notSent)", "unconfirmed": "\(summary.unconfirmed)",
                    "requests": "\(summary.requests)", "failures": "\(Self.failures(summary))",
                ])
        }

        /// Connection `number` reported `event`.
        func log(connection number: Int, _ event: PushConnection.Event) {
            guard let logger else { return }
            switch event {
            case .opened:
                logger.debug("connection opened", metadata: ["connection": "\(number)"])
            case .closed:
                logger.debug("connection closed", metadata: ["connection": "\(number)"])
            case .goAway(let lastStreamID, let errorCode, let debugData):
                logger.notice(
                    "GOAWAY received",
                    metadata: [
                        "connection": "\(number)", "last_stream_id": "\(lastStreamID)",
                        "error_code": "0x\(String(errorCode.networkCode, radix: 16))",
                        "reason": "\(debugData ?? "none")",
                    ])
            case .limit:
                break
            }
        }

        /// Opening connection `number` failed with `error`: an error for a certificate the client does not trust
        /// (it will not change by itself), else a warning.
        func log(connection number: Int, failedToOpen error: any Error) {
            guard let logger else { return }
            let failure = PushFailure(
                openError: error, isShutDown: false, host: configuration.endpoint.host,
                port: configuration.endpoint.port)
            let detail = failure.detail ?? String(describing: error)
            logger.log(
                level: failure.reason == .untrustedCertificate ? .error : .warning, "connection failed to open",
                metadata: ["connection": "\(number)", "reason": "\(failure.reason)", "error": "\(detail)"])
        }

        /// `result`'s `apns_id`, `device_token` and `attempts`.
        private static func metadata(_ result: PushResult) -> Logger.Metadata {
            [
                "apns_id": "\(result.id.uuidString)", "device_token": "\(shortened(result.deviceToken))",
                "attempts": "\(result.attempts)",
            ]
        }

        /// `result`'s metadata with `failure`'s `reason`, `status`, `timestamp` (when APNs gave one: an unregistered
        /// device's) and `error` (its detail, when it has one).
        private static func metadata(_ result: PushResult, _ failure: PushFailure) -> Logger.Metadata {
            var metadata = Self.metadata(result)
            metadata["reason"] = "\(failure.reason)"
            metadata["status"] = "\(failure.status)"
            if let timestamp = failure.timestamp { metadata["timestamp"] = "\(timestamp)" }
            if let detail = failure.detail { metadata["error"] = "\(detail)" }
            return metadata
        }

        /// `Unregistered=12, BadDeviceToken=3`: failures by reason, the most first (then by name); `none` if none.
        private static func failures(_ summary: PushSummary) -> String {
            guard !summary.failed.isEmpty else { return "none" }
            return summary.failed.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }
                .map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: ", ")
        }
    }
#endif
