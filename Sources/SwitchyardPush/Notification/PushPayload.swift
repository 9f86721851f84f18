#if Push
    /// A notification's JSON payload: the `aps` dictionary APNs and the device read, and the app's own keys beside it.
    ///
    /// ```swift
    /// var payload = PushPayload(alert: .init(title: "U2 delayed", body: "10 minutes at Alexanderplatz"))
    /// payload.badge = 3
    /// payload.custom["line"] = "U2"
    /// ```
    ///
    /// Encoded with `JSONEncoder`; keys that are `nil` are left out. ``PushNotification`` checks the encoded size
    /// against the push type's limit before anything is sent.
    public struct PushPayload: Sendable, Hashable, Encodable {
        /// The alert the user sees.
        public var alert: Alert?
        /// The number on the app's icon (0 removes it).
        public var badge: Int?
        /// The name of a sound in the app's bundle, or `default`.
        public var sound: String?
        /// Wakes the app to fetch content in the background (`content-available: 1`; push type
        /// ``PushType/background`` when there is no alert).
        public var contentAvailable = false
        /// Lets a notification service extension change the content first (`mutable-content: 1`).
        public var mutableContent = false
        /// The notification's category (its actions), as the app registered it.
        public var category: String?
        /// Groups notifications in Notification Center.
        public var threadID: String?
        /// How much the notification may interrupt.
        public var interruptionLevel: InterruptionLevel?
        /// Which notification of a group is featured, from 0 to 1.
        public var relevanceScore: Double?
        /// Keys beside `aps`, for the app. A key named `aps` here is ignored.
        public var custom: [String: PushValue] = [:]

        public init(alert: Alert? = nil, badge: Int? = nil, sound: String? = nil, contentAvailable: Bool = false) {
            self.alert = alert
            self.badge = badge
            self.sound = sound
            self.contentAvailable = contentAvailable
        }

        /// An alert: a title, a subtitle and a body, or keys into the app's localized strings.
        public struct Alert: Sendable, Hashable, Encodable {
            public var title: String?
            public var subtitle: String?
            public var body: String?
            /// The key of a localized title in the app, with its arguments.
            public var titleLocKey: String?
            public var titleLocArgs: [String]?
            /// The key of a localized body in the app, with its arguments.
            public var locKey: String?
            public var locArgs: [String]?

            public init(title: String? = nil, subtitle: String? = nil, body: String? = nil) {
                self.title = title
                self.subtitle = subtitle
                self.body = body
            }

            enum CodingKeys: String, CodingKey {
                case title, subtitle, body
                case titleLocKey = "title-loc-key"
                case titleLocArgs = "title-loc-args"
                case locKey = "loc-key"
                case locArgs = "loc-args"
            }
        }

        /// How much a notification may interrupt the user (iOS 15 and later).
        public enum InterruptionLevel: String, Sendable, Hashable, Encodable {
            case passive
            case active
            case timeSensitive = "time-sensitive"
            case critical
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var aps = container.nestedContainer(keyedBy: Key.self, forKey: Key("aps"))
            try aps.encodeIfPresent(alert, forKey: Key("alert"))
            try aps.encodeIfPresent(badge, forKey: Key("badge"))
            try aps.encodeIfPresent(sound, forKey: Key("sound"))
            if contentAvailable { try aps.encode(1, forKey: Key("content-available")) }
            if mutableContent { try aps.encode(1, forKey: Key("mutable-content")) }
            try aps.encodeIfPresent(category, forKey: Key("category"))
            try aps.encodeIfPresent(threadID, forKey: Key("thread-id"))
            try aps.encodeIfPresent(interruptionLevel, forKey: Key("interruption-level"))
            try aps.encodeIfPresent(relevanceScore, forKey: Key("relevance-score"))
            for (key, value) in custom where key != "aps" { try container.encode(value, forKey: Key(key)) }
        }

        /// Any key.
        struct Key: CodingKey {
            let stringValue: String
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }
    }
#endif
