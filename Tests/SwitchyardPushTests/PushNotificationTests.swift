#if Push
    import Foundation
    import SwitchyardPush
    import Testing

    @Suite("Notifications: payloads, and what is refused before a request")
    struct PushNotificationTests {
        static let token = String(repeating: "ab12", count: 16)

        @Test("a payload encodes aps with APNs's key names, custom keys beside it, nil keys left out")
        func payloadKeys() throws {
            var payload = PushPayload(alert: .init(title: "U2 delayed", body: "10 minutes"), badge: 3)
            payload.mutableContent = true
            payload.interruptionLevel = .timeSensitive
            payload.threadID = "lines"
            payload.custom = ["line": "U2", "stops": [1, 2], "aps": "ignored"]
            let notification = try PushNotification(deviceToken: Self.token, payload: payload)
            let decoded = try JSONDecoder().decode(PushValue.self, from: Data(notification.payload))
            let expected: PushValue = [
                "aps": [
                    "alert": ["title": "U2 delayed", "body": "10 minutes"], "badge": 3, "mutable-content": 1,
                    "interruption-level": "time-sensitive", "thread-id": "lines",
                ],
                "line": "U2", "stops": [1, 2],
            ]
            #expect(decoded == expected)
            #expect(notification.problem == nil)
            let again = try PushNotification(deviceToken: Self.token, payload: payload)
            #expect(again.payload == notification.payload, "the same payload is the same bytes")
            #expect(again.id != notification.id, "each notification has its own apns-id")
        }

        @Test("a background notification: content-available, no alert")
        func background() throws {
            let notification = try PushNotification(
                deviceToken: Self.token, payload: PushPayload(contentAvailable: true), type: .background,
                priority: .conserving)
            #expect(String(decoding: notification.payload, as: UTF8.self) == #"{"aps":{"content-available":1}}"#)
            #expect(notification.problem == nil)
        }

        @Test(
            "refused before any request, with APNs's reasons",
            arguments: [
                ("", 10, PushType.alert, nil, nil, PushReason.badDeviceToken),
                ("abc", 10, .alert, nil, nil, .badDeviceToken),
                ("zz" + String(repeating: "0", count: 62), 10, .alert, nil, nil, .badDeviceToken),
                (String(repeating: "0", count: 202), 10, .alert, nil, nil, .badDeviceToken),
                (token, 4_097, .alert, nil, nil, .payloadTooLarge),
                (token, 5_121, .voip, nil, nil, .payloadTooLarge),
                (token, 10, .alert, String(repeating: "c", count: 65), nil, .badCollapseID),
                (token, 10, .background, nil, PushPriority.immediate, .badPriority),
            ] as [(String, Int, PushType, String?, PushPriority?, PushReason)])
        func refused(
            token: String, size: Int, type: PushType, collapseID: String?, priority: PushPriority?,
            reason: PushReason
        ) {
            let notification = PushNotification(
                deviceToken: token, json: Self.json(size: size), type: type, priority: priority, collapseID: collapseID)
            #expect(notification.problem == reason)
            #expect(reason.disposition(status: reason.status) == .permanent)
        }

        @Test("at the limits: accepted")
        func limits() {
            #expect(PushNotification(deviceToken: Self.token, json: Self.json(size: 4_096)).problem == nil)
            #expect(PushNotification(deviceToken: Self.token, json: Self.json(size: 5_120), type: .voip).problem == nil)
            let collapse = String(repeating: "é", count: 32)  // 64 bytes
            #expect(
                PushNotification(deviceToken: Self.token, json: Self.json(size: 10), collapseID: collapse).problem
                    == nil)
            #expect(PushNotification(deviceToken: Self.token.uppercased(), json: Self.json(size: 10)).problem == nil)
        }

        @Test("a payload that is not a JSON object, or empty")
        func notJSON() {
            #expect(PushNotification(deviceToken: Self.token, json: Array("[1]".utf8)).problem == .payloadNotJSON)
            #expect(PushNotification(deviceToken: Self.token, json: Array("{".utf8)).problem == .payloadNotJSON)
            #expect(PushNotification(deviceToken: Self.token, json: []).problem == .payloadEmpty)
        }

        @Test("every reason APNs documents has its status and what to do about it")
        func reasons() {
            #expect(PushReason.unregistered.disposition(status: 410) == .unregistered)
            #expect(PushReason.expiredToken.disposition(status: 410) == .unregistered)
            #expect(PushReason.tooManyRequests.disposition(status: 429) == .retry)
            #expect(PushReason.expiredProviderToken.disposition(status: 403) == .retry)
            #expect(PushReason.invalidProviderToken.disposition(status: 403) == .credentials)
            #expect(PushReason.serviceUnavailable.status == 503)
            #expect(PushReason.payloadTooLarge.status == 413)
            #expect(PushReason(rawValue: "SomethingNew").disposition(status: 503) == .retry)
            #expect(PushReason(rawValue: "SomethingNew").disposition(status: 400) == .permanent)
            #expect(PushReason.table.count >= 30)
        }

        @Test("topics and limits per push type")
        func pushTypes() {
            #expect(PushType.voip.topicSuffix == ".voip")
            #expect(PushType.liveactivity.topicSuffix == ".push-type.liveactivity")
            #expect(PushType.alert.topicSuffix.isEmpty)
            #expect(PushType.voip.payloadLimit == 5_120 && PushType.alert.payloadLimit == 4_096)
        }

        /// A JSON object of exactly `size` bytes.
        static func json(size: Int) -> [UInt8] {
            let frame = #"{"a":""}"#.utf8.count
            return Array(#"{"a":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: max(0, size - frame))
                + Array(#""}"#.utf8)
        }
    }
#endif
