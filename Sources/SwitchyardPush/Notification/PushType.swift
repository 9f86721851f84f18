#if Push
    /// What a notification does, as APNs is told in `apns-push-type`: each type has its own topic (the app's bundle ID
    /// plus ``topicSuffix``), payload limit and allowed priorities.
    public enum PushType: String, Sendable, CaseIterable, Codable {
        /// An alert, sound or badge the user sees.
        case alert
        /// Content for the app to fetch in the background (`content-available`, no alert); priority 5 or 1.
        case background
        /// A location query for a Location Push Service extension.
        case location
        /// A VoIP call (PushKit).
        case voip
        /// A watchOS complication update (PushKit).
        case complication
        /// A File Provider change (PushKit).
        case fileprovider
        /// An MDM wake-up: the topic is the MDM certificate's, with no suffix.
        case mdm
        /// A Live Activity update.
        case liveactivity
        /// A Push to Talk message.
        case pushtotalk
        /// A widget reload.
        case widgets

        /// Appended to the app's bundle ID to make the notification's `apns-topic`.
        public var topicSuffix: String {
            switch self {
            case .alert, .background, .mdm: ""
            case .location: ".location-query"
            case .voip: ".voip"
            case .complication: ".complication"
            case .fileprovider: ".pushkit.fileprovider"
            case .liveactivity: ".push-type.liveactivity"
            case .pushtotalk: ".voip-ptt"
            case .widgets: ".push-type.widgets"
            }
        }

        /// The largest payload APNs accepts for this type, in bytes of JSON: 5,120 for VoIP, 4,096 for the others.
        public var payloadLimit: Int { self == .voip ? 5120 : 4096 }

        /// Whether APNs accepts `priority` for this type: a background notification may not ask for immediate
        /// delivery.
        public func allows(_ priority: PushPriority) -> Bool {
            !(self == .background && priority == .immediate)
        }
    }

    /// How urgently APNs delivers a notification (`apns-priority`).
    public enum PushPriority: Int, Sendable, CaseIterable, Codable {
        /// Delivered at once (10): alerts, sounds, badges. APNs's default for every type but background.
        case immediate = 10
        /// Delivered when it saves the device's power (5): may be grouped and delayed.
        case conserving = 5
        /// Delivered at the device's convenience (1): may be dropped when the device is busy.
        case low = 1
    }
#endif
