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
        /// Requests made for it (0 when it was refused before any request, or never sent).
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

        public enum Outcome: Sendable, Hashable {
            /// APNs accepted it (200).
            case delivered
            /// It failed: APNs's answer after the last attempt, or the client's own reason.
            case failed(PushFailure)
            /// The batch was cancelled before it was sent (or while its request was in flight, unanswered).
            case notSent
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
        /// More about a client-side reason (why a connection could not open).
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
        public var notSent = 0
        /// Requests made, retries included.
        public var requests = 0

        public init() {}

        public var total: Int { delivered + failedCount + notSent }
        public var failedCount: Int { failed.values.reduce(0, +) }

        /// Adds `result`.
        public mutating func add(_ result: PushResult) {
            requests += result.attempts
            switch result.outcome {
            case .delivered: delivered += 1
            case .failed(let failure): failed[failure.reason, default: 0] += 1
            case .notSent: notSent += 1
            }
        }
    }
#endif
