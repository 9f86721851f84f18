#if Push
    import Foundation
    import SwitchyardPush

    /// A fault script as JSON, for ``MockAPNs`` run outside a test (`switchyard-mock-apns --script FILE`): the faults in
    /// order, and the device tokens to answer `410 Unregistered`.
    ///
    /// ```json
    /// {
    ///   "unregistered": ["3f8a…"],
    ///   "faults": [
    ///     {"goAway": 500},
    ///     {"status": 503, "reason": "ServiceUnavailable", "times": 20},
    ///     {"device": "9c01…", "status": 429, "reason": "TooManyRequests", "times": 2},
    ///     {"drop": 800},
    ///     {"delayMilliseconds": 300, "times": 10}
    ///   ]
    /// }
    /// ```
    ///
    /// Each fault object has exactly one of `goAway` (streams answered before the GOAWAY, ``MockAPNsFault/goAway(afterStreams:)``),
    /// `drop` (``MockAPNsFault/dropConnection(afterStreams:)``), `device` with `status` (``MockAPNsFault/answerDevice(_:status:reason:times:)``),
    /// `status` alone (``MockAPNsFault/answer(status:reason:times:)``) or `delayMilliseconds`
    /// (``MockAPNsFault/delay(_:times:)``); `reason` defaults to the status's usual reason and `times` to 1. Unknown
    /// keys are refused, so a misspelt fault is an error instead of a fault that never happens.
    public struct MockAPNsScript: Sendable, Equatable, Decodable {
        public var faults: [MockAPNsFault]
        public var unregistered: [String]

        public init(faults: [MockAPNsFault] = [], unregistered: [String] = []) {
            self.faults = faults
            self.unregistered = unregistered
        }

        /// Reads a script from JSON.
        /// - Throws: ``MockAPNsScriptError`` naming the fault (by its position, from 1) and what is wrong with it.
        public static func decode(_ json: Data) throws -> MockAPNsScript {
            do {
                return try JSONDecoder().decode(MockAPNsScript.self, from: json)
            } catch let error as MockAPNsScriptError {
                throw error
            } catch {
                throw MockAPNsScriptError(message: "not a fault script: \(error)")
            }
        }

        private enum Keys: String, CodingKey, CaseIterable {
            case faults, unregistered
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            let unknown = container.allKeys.map(\.stringValue).filter { Keys(rawValue: $0) == nil }
            guard unknown.isEmpty else {
                throw MockAPNsScriptError(message: "unknown key \(unknown.sorted()) (known: faults, unregistered)")
            }
            let steps = try container.decodeIfPresent([Step].self, forKey: AnyKey("faults")) ?? []
            faults = try steps.enumerated().map { index, step in
                do {
                    return try step.fault()
                } catch let error as MockAPNsScriptError {
                    throw MockAPNsScriptError(message: "fault \(index + 1): \(error.message)")
                }
            }
            unregistered = try container.decodeIfPresent([String].self, forKey: AnyKey("unregistered")) ?? []
        }

        /// One fault object, every field optional until ``fault()`` checks the combination.
        private struct Step: Decodable {
            static let known: Set = ["goAway", "drop", "device", "status", "reason", "times", "delayMilliseconds"]
            var goAway: Int?
            var drop: Int?
            var device: String?
            var status: Int?
            var reason: String?
            var times: Int?
            var delayMilliseconds: Int?
            var unknown: [String] = []

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                unknown = container.allKeys.map(\.stringValue).filter { !Self.known.contains($0) }.sorted()
                goAway = try container.decodeIfPresent(Int.self, forKey: AnyKey("goAway"))
                drop = try container.decodeIfPresent(Int.self, forKey: AnyKey("drop"))
                device = try container.decodeIfPresent(String.self, forKey: AnyKey("device"))
                status = try container.decodeIfPresent(Int.self, forKey: AnyKey("status"))
                reason = try container.decodeIfPresent(String.self, forKey: AnyKey("reason"))
                times = try container.decodeIfPresent(Int.self, forKey: AnyKey("times"))
                delayMilliseconds = try container.decodeIfPresent(Int.self, forKey: AnyKey("delayMilliseconds"))
            }

            func fault() throws -> MockAPNsFault {
                guard unknown.isEmpty else { throw MockAPNsScriptError(message: "unknown key \(unknown)") }
                let kinds = [goAway != nil, drop != nil, status != nil, delayMilliseconds != nil].filter { $0 }.count
                guard kinds == 1 else {
                    throw MockAPNsScriptError(
                        message: "needs exactly one of goAway, drop, status (with or without device), delayMilliseconds"
                    )
                }
                let count = times ?? 1
                guard count >= 1 else { throw MockAPNsScriptError(message: "times must be at least 1") }
                if let goAway { return .goAway(afterStreams: goAway) }
                if let drop { return .dropConnection(afterStreams: drop) }
                if let delayMilliseconds { return .delay(.milliseconds(delayMilliseconds), times: count) }
                let status = status ?? 0
                guard (400...599).contains(status) else {
                    throw MockAPNsScriptError(message: "status \(status) is not an error status (400–599)")
                }
                let reason = reason.map(PushReason.init(rawValue:)) ?? Self.usualReason(status)
                if let device { return .answerDevice(device, status: status, reason: reason, times: count) }
                return .answer(status: status, reason: reason, times: count)
            }

            /// The reason APNs gives most often with `status`.
            static func usualReason(_ status: Int) -> PushReason {
                switch status {
                case 403: .invalidProviderToken
                case 410: .unregistered
                case 413: .payloadTooLarge
                case 429: .tooManyRequests
                case 500: .internalServerError
                case 503: .serviceUnavailable
                default: .badDeviceToken
                }
            }
        }

        private struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ string: String) { stringValue = string }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    /// Why a fault script was refused.
    public struct MockAPNsScriptError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
#endif
