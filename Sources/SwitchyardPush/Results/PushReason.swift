#if Push
    /// Why APNs refused a notification (the `reason` of its JSON answer), or why it was never sent: APNs's reasons, and
    /// a few of the client's own for notifications it fails before any request.
    ///
    /// Unknown reasons from the server are kept as they are (``init(rawValue:)`` accepts any text), with the
    /// ``disposition(status:)`` of their HTTP status.
    public struct PushReason: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        /// What the sender should do about a notification that ended with this reason.
        public enum Disposition: String, Sendable, Hashable, Codable {
            /// The request was wrong (a bad token, topic, header or payload): sending it again fails again.
            case permanent
            /// The device token is no longer valid for the topic (410): stop sending to it.
            case unregistered
            /// A passing condition (429, 500, 503, an expired provider token, a lost connection): sending it again
            /// later may succeed. The client does, within its retry policy.
            case retry
            /// The provider's credentials were refused (403): nothing sent with them will succeed.
            case credentials
        }

        /// What to do about it: from the reason when it is known, else from `status`.
        public func disposition(status: Int) -> Disposition {
            if let known = Self.table[rawValue] { return known.disposition }
            switch status {
            case 410: return .unregistered
            case 403: return .credentials
            case 429, 500...599: return .retry
            default: return .permanent
            }
        }

        /// The HTTP status APNs answers this reason with (0 for the client's own reasons and unknown ones).
        public var status: Int { Self.table[rawValue]?.status ?? 0 }

        // 400
        public static let badCollapseID = PushReason(rawValue: "BadCollapseId")
        public static let badDeviceToken = PushReason(rawValue: "BadDeviceToken")
        public static let badExpirationDate = PushReason(rawValue: "BadExpirationDate")
        public static let badMessageID = PushReason(rawValue: "BadMessageId")
        public static let badPriority = PushReason(rawValue: "BadPriority")
        public static let badTopic = PushReason(rawValue: "BadTopic")
        public static let deviceTokenNotForTopic = PushReason(rawValue: "DeviceTokenNotForTopic")
        public static let duplicateHeaders = PushReason(rawValue: "DuplicateHeaders")
        public static let idleTimeout = PushReason(rawValue: "IdleTimeout")
        public static let invalidPushType = PushReason(rawValue: "InvalidPushType")
        public static let missingDeviceToken = PushReason(rawValue: "MissingDeviceToken")
        public static let missingTopic = PushReason(rawValue: "MissingTopic")
        public static let payloadEmpty = PushReason(rawValue: "PayloadEmpty")
        public static let topicDisallowed = PushReason(rawValue: "TopicDisallowed")
        // 403
        public static let badCertificate = PushReason(rawValue: "BadCertificate")
        public static let badCertificateEnvironment = PushReason(rawValue: "BadCertificateEnvironment")
        public static let expiredProviderToken = PushReason(rawValue: "ExpiredProviderToken")
        public static let forbidden = PushReason(rawValue: "Forbidden")
        public static let invalidProviderToken = PushReason(rawValue: "InvalidProviderToken")
        public static let missingProviderToken = PushReason(rawValue: "MissingProviderToken")
        public static let unrelatedKeyIDInToken = PushReason(rawValue: "UnrelatedKeyIdInToken")
        // 404, 405
        public static let badPath = PushReason(rawValue: "BadPath")
        public static let methodNotAllowed = PushReason(rawValue: "MethodNotAllowed")
        // 410
        public static let expiredToken = PushReason(rawValue: "ExpiredToken")
        public static let unregistered = PushReason(rawValue: "Unregistered")
        // 413
        public static let payloadTooLarge = PushReason(rawValue: "PayloadTooLarge")
        // 429
        public static let tooManyProviderTokenUpdates = PushReason(rawValue: "TooManyProviderTokenUpdates")
        public static let tooManyRequests = PushReason(rawValue: "TooManyRequests")
        // 500, 503
        public static let internalServerError = PushReason(rawValue: "InternalServerError")
        public static let serviceUnavailable = PushReason(rawValue: "ServiceUnavailable")
        public static let shutdown = PushReason(rawValue: "Shutdown")

        /// The client's own: the payload is not a JSON object.
        public static let payloadNotJSON = PushReason(rawValue: "PayloadNotJSON")
        /// The client's own: no connection to APNs could be opened (the error says why).
        public static let unreachable = PushReason(rawValue: "Unreachable")
        /// The client's own: the server's TLS certificate was refused (signed by no authority the client trusts,
        /// expired, or not issued to the server's name), so no connection opened; the failure's detail has NIOSSL's
        /// reason. Permanent: retrying reaches the same certificate, until the server's certificate or the client's
        /// trust roots (``PushClient/Configuration/tls``) change.
        public static let untrustedCertificate = PushReason(rawValue: "UntrustedCertificate")
        /// The client's own: no answer came, within the request timeout or before the connection closed, on any
        /// attempt.
        public static let noAnswer = PushReason(rawValue: "NoAnswer")

        /// Every reason APNs documents, with its status and disposition.
        public static let table: [String: (status: Int, disposition: Disposition)] = {
            var table: [String: (status: Int, disposition: Disposition)] = [:]
            for reason in [
                badCollapseID, badDeviceToken, badExpirationDate, badMessageID, badPriority, badTopic,
                deviceTokenNotForTopic, duplicateHeaders, invalidPushType, missingDeviceToken, missingTopic,
                payloadEmpty, topicDisallowed,
            ] {
                table[reason.rawValue] = (400, .permanent)
            }
            table[idleTimeout.rawValue] = (400, .retry)  // the connection was idle too long: a new one will do
            for reason in [
                badCertificate, badCertificateEnvironment, forbidden, invalidProviderToken, missingProviderToken,
                unrelatedKeyIDInToken,
            ] {
                table[reason.rawValue] = (403, .credentials)
            }
            table[expiredProviderToken.rawValue] = (403, .retry)  // with a new token
            table[badPath.rawValue] = (404, .permanent)
            table[methodNotAllowed.rawValue] = (405, .permanent)
            table[expiredToken.rawValue] = (410, .unregistered)
            table[unregistered.rawValue] = (410, .unregistered)
            table[payloadTooLarge.rawValue] = (413, .permanent)
            table[tooManyProviderTokenUpdates.rawValue] = (429, .retry)
            table[tooManyRequests.rawValue] = (429, .retry)
            table[internalServerError.rawValue] = (500, .retry)
            table[serviceUnavailable.rawValue] = (503, .retry)
            table[shutdown.rawValue] = (503, .retry)
            table[payloadNotJSON.rawValue] = (0, .permanent)
            table[unreachable.rawValue] = (0, .retry)
            table[untrustedCertificate.rawValue] = (0, .permanent)
            table[noAnswer.rawValue] = (0, .retry)
            return table
        }()
    }
#endif
