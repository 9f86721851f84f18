#if Push
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    /// One notification for one device: what `POST /3/device/<token>` carries.
    ///
    /// The payload is kept as the JSON bytes that will be sent, so its size is known exactly; ``problem`` checks what
    /// APNs would refuse (the token's form, the payload's size for the push type, the collapse ID's length, the
    /// priority for the type) so that such a notification fails without a request.
    public struct PushNotification: Sendable, Hashable, Identifiable {
        /// The `apns-id` (a UUID chosen here): APNs answers with it, so each answer, and each retry, is matched to its
        /// notification; a notification APNs accepted is never sent again under it.
        public var id: UUID
        /// The device token, in hexadecimal, as the device reported it.
        public var deviceToken: String
        /// The payload: a JSON object, as sent.
        public var payload: [UInt8]
        public var type: PushType
        /// `nil`: APNs's default (immediate, or conserving for ``PushType/background``).
        public var priority: PushPriority?
        /// When APNs may stop trying to deliver it (`apns-expiration`): `nil` lets APNs choose; a date at or before 1970
        /// means "deliver now or never".
        public var expiration: Date?
        /// Notifications with the same collapse ID show as one (`apns-collapse-id`, at most 64 bytes).
        public var collapseID: String?

        /// A notification with `payload` encoded to JSON.
        /// - Throws: `EncodingError` if the payload cannot be encoded.
        public init(
            deviceToken: String, payload: PushPayload, type: PushType = .alert, priority: PushPriority? = nil,
            expiration: Date? = nil, collapseID: String? = nil, id: UUID = UUID()
        ) throws {
            self.init(
                deviceToken: deviceToken, json: Array(try Self.encoder.encode(payload)), type: type, priority: priority,
                expiration: expiration, collapseID: collapseID, id: id)
        }

        /// A notification whose payload is `json`, as is (checked by ``problem``, not here).
        public init(
            deviceToken: String, json: [UInt8], type: PushType = .alert, priority: PushPriority? = nil,
            expiration: Date? = nil, collapseID: String? = nil, id: UUID = UUID()
        ) {
            self.id = id
            self.deviceToken = deviceToken
            self.payload = json
            self.type = type
            self.priority = priority
            self.expiration = expiration
            self.collapseID = collapseID
        }

        /// The longest collapse ID APNs accepts, in bytes of UTF-8.
        public static let longestCollapseID = 64
        /// The longest device token accepted, in hexadecimal digits (tokens are 32 bytes today; APNs allows longer).
        public static let longestDeviceToken = 200

        /// Why APNs would refuse this notification, found without asking it; `nil` if nothing is wrong that can be
        /// seen here. Reasons are APNs's own (``PushReason/badDeviceToken``, ``PushReason/payloadTooLarge``,
        /// ``PushReason/payloadEmpty``, ``PushReason/badCollapseID``, ``PushReason/badPriority``), and
        /// ``PushReason/payloadNotJSON`` when the payload is not a JSON object. O(payload size).
        public var problem: PushReason? { problem(checkingJSON: true) }

        /// ``problem``, with the JSON check left out when `checkingJSON` is false (a batch checks each distinct payload
        /// once).
        func problem(checkingJSON: Bool) -> PushReason? {
            let token = deviceToken.utf8
            if token.isEmpty || token.count > Self.longestDeviceToken || token.count % 2 != 0
                || !token.allSatisfy({ $0.isHexDigit })
            {
                return .badDeviceToken
            }
            if payload.isEmpty { return .payloadEmpty }
            if payload.count > type.payloadLimit { return .payloadTooLarge }
            if let collapseID, collapseID.utf8.count > Self.longestCollapseID { return .badCollapseID }
            if let priority, !type.allows(priority) { return .badPriority }
            if checkingJSON, !Self.isJSONObject(payload) { return .payloadNotJSON }
            return nil
        }

        /// Whether `payload` is a JSON object. O(payload size).
        static func isJSONObject(_ payload: [UInt8]) -> Bool {
            guard case .object = try? JSONDecoder().decode(PushValue.self, from: Data(payload)) else { return false }
            return true
        }

        /// Keys in a fixed order, so the same payload is always the same bytes.
        private static let encoder: JSONEncoder = {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return encoder
        }()
    }

    extension UInt8 {
        fileprivate var isHexDigit: Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
        }
    }
#endif
