#if Push
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    /// How one notification ended.
    public struct PushResult: Sendable, Hashable {
        /// The notification's `apns-id`.
        public var id: UUID
        public var deviceToken: String
        public var outcome: Outcome
        /// Requests begun for it (0 when it was refused before any request, or never sent).
        public var attempts: Int

        public init(id: UUID, deviceToken: String, outcome: Outcome, attempts: Int) {
            self.id = id
            self.deviceToken = deviceToken
            self.outcome = outcome
            self.attempts = attempts
        }

        /// `notification`'s result when it was never sent (its batch was cancelled first).
        init(notSent notification: PushNotification) {
            self.init(id: notification.id, deviceToken: notification.deviceToken, outcome: .notSent, attempts: 0)
        }

        /// How it ended. After a cancellation, ``notSent`` and ``unconfirmed`` tell apart what may be sent again from
        /// what may already have been delivered.
        public enum Outcome: Sendable, Hashable {
            /// APNs accepted it (200).
            case delivered
            /// It failed: APNs's answer after the last attempt, or the client's own reason.
            case failed(PushFailure)
            /// The batch was cancelled before any request of it left: none was written to a connection (not begun,
            /// or its write failed). APNs never saw it; sending it again delivers it once.
            case notSent
            /// The batch was cancelled after a request of it was written (or was being written) to a connection, and
            /// before any answer to it: APNs may or may not have delivered it, and the client cannot tell. Sending it
            /// again may deliver it twice (a collapse ID makes a device show one of the two).
            case unconfirmed
        }
    }

    /// Why a notification failed.
    public struct PushFailure: Error, Sendable, Hashable, CustomStringConvertible {
        public var reason: PushReason
        /// APNs's HTTP status; 0 when no request was made or none was answered.
        public var status: Int
        /// For ``PushReason/unregistered`` and ``PushReason/expiredToken``: when APNs learned the token was invalid
        /// (milliseconds since 1970).
        public var timestamp: Int?
        /// More about the failure: why no connection opened (an untrusted certificate's reason), the last error of
        /// a request left unanswered, or that the answer's body was cut (past 4 KiB).
        public var detail: String?

        public init(reason: PushReason, status: Int, timestamp: Int? = nil, detail: String? = nil) {
            self.reason = reason
            self.status = status
            self.timestamp = timestamp
            self.detail = detail
        }

        /// What to do about it.
        public var disposition: PushReason.Disposition { reason.disposition(status: status) }

        public var description: String {
            let text = status == 0 ? reason.rawValue : "\(status) \(reason.rawValue)"
            return detail.map { text + ": " + $0 } ?? text
        }
    }

    /// What a batch did: counts by outcome and by reason.
    public struct PushSummary: Sendable, Hashable {
        public var delivered = 0
        /// Failures by reason.
        public var failed: [PushReason: Int] = [:]
        /// Notifications never written to a connection (``PushResult/Outcome/notSent``).
        public var notSent = 0
        /// Notifications written but unanswered when the batch was cancelled (``PushResult/Outcome/unconfirmed``).
        public var unconfirmed = 0
        /// Requests begun, retries included.
        public var requests = 0

        public init() {}

        public var total: Int { delivered + failedCount + notSent + unconfirmed }
        public var failedCount: Int { failed.values.reduce(0, +) }

        /// Adds `result`.
        public mutating func add(_ result: PushResult) {
            requests += result.attempts
            switch result.outcome {
            case .delivered: delivered += 1
            case .failed(let failure): failed[failure.reason, default: 0] += 1
            case .notSent: notSent += 1
            case .unconfirmed: unconfirmed += 1
            }
        }
    }
#endif
