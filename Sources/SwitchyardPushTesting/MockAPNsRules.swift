#if Push
    import Crypto
    import Foundation
    import SwitchyardPush

    /// What APNs checks in a request, as a value: given the request, the connection's provider-token state and the
    /// time, the answer APNs would give. No I/O, so every rule is tested on its own; ``MockAPNs`` applies it to each
    /// stream after its fault script.
    public struct MockAPNsRules: Sendable {
        /// The team whose tokens are accepted, and the public keys of its signing keys by key ID (a signing key's
        /// `PushSigningKey.publicKey`).
        public var teamID: String
        public var keys: [String: P256.Signing.PublicKey]
        /// The apps' bundle IDs: a topic is a bundle ID plus the push type's suffix.
        public var bundleIDs: Set<String>
        /// Device tokens that are no longer valid, with the time (milliseconds since 1970) APNs learned it: answered
        /// `410 Unregistered` with that timestamp.
        public var unregistered: [String: Int] = [:]
        /// How old a token may be before `ExpiredProviderToken` (APNs: one hour).
        public var tokenLifetime = 3_600
        /// How soon a connection may switch to a newer token (APNs: 20 minutes; sooner is `TooManyProviderTokenUpdates`).
        public var tokenUpdateInterval = 1_200

        public init(teamID: String, keys: [String: P256.Signing.PublicKey], bundleIDs: Set<String>) {
            self.teamID = teamID
            self.keys = keys
            self.bundleIDs = bundleIDs
        }

        /// One request as it arrived.
        public struct Request: Sendable {
            public var method: String
            public var path: String
            /// Header names in lower case, in order, repeats kept.
            public var headers: [(name: String, value: String)]
            public var body: [UInt8]

            public init(method: String, path: String, headers: [(name: String, value: String)], body: [UInt8]) {
                self.method = method
                self.path = path
                self.headers = headers
                self.body = body
            }

            func header(_ name: String) -> String? { headers.first { $0.name == name }?.value }
        }

        /// What a connection has shown of its provider token.
        public struct Connection: Sendable {
            /// The token the connection last used successfully, and its `iat`.
            public var token: String?
            public var issuedAt = 0
            public var teamID: String?
            /// Whether a request with a valid token succeeded: until then APNs allows one stream.
            public var isAuthenticated = false

            public init() {}
        }

        /// APNs's answer: a status, and for errors the reason (and for 410 the timestamp).
        public struct Answer: Sendable, Equatable {
            public var status: Int
            public var reason: PushReason?
            public var timestamp: Int?
            /// A body sent as it is instead of the JSON of `reason` and `timestamp`
            /// (``MockAPNsFault/answerBody(status:body:times:)``).
            public var body: [UInt8]?

            public init(status: Int, reason: PushReason?, timestamp: Int? = nil, body: [UInt8]? = nil) {
                self.status = status
                self.reason = reason
                self.timestamp = timestamp
                self.body = body
            }

            public static let accepted = Answer(status: 200, reason: nil, timestamp: nil)
            static func error(_ reason: PushReason, timestamp: Int? = nil) -> Answer {
                Answer(status: reason.status, reason: reason, timestamp: timestamp)
            }
        }

        /// The answer to `request` on `connection` at `now` (seconds since 1970); `connection` records the token.
        public func answer(_ request: Request, connection: inout Connection, now: Int) -> Answer {
            guard request.method == "POST" else { return .error(.methodNotAllowed) }
            guard request.path.hasPrefix("/3/device/") else { return .error(.badPath) }
            let token = String(request.path.dropFirst("/3/device/".count))
            if token.isEmpty { return .error(.missingDeviceToken) }
            if let failure = authenticate(request, connection: &connection, now: now) { return .error(failure) }
            let names = request.headers.map(\.name).filter { $0.hasPrefix("apns-") || $0 == "authorization" }
            if Set(names).count != names.count { return .error(.duplicateHeaders) }
            let type = request.header("apns-push-type").map { PushType(rawValue: $0) } ?? .alert
            guard let type else { return .error(.invalidPushType) }
            guard let topic = request.header("apns-topic") else { return .error(.missingTopic) }
            guard topic.hasSuffix(type.topicSuffix) else { return .error(.badTopic) }
            guard bundleIDs.contains(String(topic.dropLast(type.topicSuffix.count))) else {
                return .error(.topicDisallowed)
            }
            if let text = request.header("apns-priority") {
                guard let value = Int(text), let priority = PushPriority(rawValue: value), type.allows(priority) else {
                    return .error(.badPriority)
                }
            }
            if let text = request.header("apns-expiration"), Int(text) == nil { return .error(.badExpirationDate) }
            if let id = request.header("apns-id"), !Self.isUUID(id) { return .error(.badMessageID) }
            if let collapse = request.header("apns-collapse-id"),
                collapse.utf8.count > PushNotification.longestCollapseID
            {
                return .error(.badCollapseID)
            }
            if token.utf8.count % 2 != 0 || !token.utf8.allSatisfy({ Self.isHex($0) }) {
                return .error(.badDeviceToken)
            }
            if request.body.isEmpty { return .error(.payloadEmpty) }
            if request.body.count > type.payloadLimit { return .error(.payloadTooLarge) }
            if let since = unregistered[token.lowercased()] { return .error(.unregistered, timestamp: since) }
            connection.isAuthenticated = true
            return .accepted
        }

        /// The provider token's checks: present, well formed, signed by a known key of the team, not expired, not
        /// replaced too soon on this connection.
        private func authenticate(_ request: Request, connection: inout Connection, now: Int) -> PushReason? {
            guard let authorization = request.header("authorization") else { return .missingProviderToken }
            guard authorization.hasPrefix("bearer ") else { return .invalidProviderToken }
            let text = String(authorization.dropFirst("bearer ".count))
            if text == connection.token {
                // Verified on this connection already (APNs keeps a connection's token too): only its age can change.
                return now - connection.issuedAt > tokenLifetime ? .expiredProviderToken : nil
            }
            guard let token = Self.parse(text), token.algorithm == "ES256", let key = keys[token.keyID],
                token.issuer == teamID, key.isValidSignature(token.signature, for: Data(token.signed.utf8))
            else {
                return .invalidProviderToken
            }
            if let team = connection.teamID, team != token.issuer { return .invalidProviderToken }
            if now - token.issuedAt > tokenLifetime { return .expiredProviderToken }
            if let current = connection.token, current != text {
                guard token.issuedAt - connection.issuedAt >= tokenUpdateInterval else {
                    return .tooManyProviderTokenUpdates
                }
            }
            connection.token = text
            connection.issuedAt = token.issuedAt
            connection.teamID = token.issuer
            return nil
        }

        struct Token {
            var algorithm: String
            var keyID: String
            var issuer: String
            var issuedAt: Int
            var signed: String
            var signature: P256.Signing.ECDSASignature
        }

        static func parse(_ text: String) -> Token? {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3, let header = base64URL(parts[0]), let claims = base64URL(parts[1]),
                let signatureBytes = base64URL(parts[2]),
                let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
                case .object(let head) = try? JSONDecoder().decode(PushValue.self, from: header),
                case .object(let body) = try? JSONDecoder().decode(PushValue.self, from: claims),
                case .string(let algorithm) = head["alg"], case .string(let keyID) = head["kid"],
                case .string(let issuer) = body["iss"], case .integer(let issuedAt) = body["iat"]
            else {
                return nil
            }
            return Token(
                algorithm: algorithm, keyID: keyID, issuer: issuer, issuedAt: issuedAt,
                signed: parts[0] + "." + parts[1],
                signature: signature)
        }

        private static func base64URL(_ part: String) -> Data? {
            var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while text.count % 4 != 0 { text += "=" }
            return Data(base64Encoded: text)
        }

        /// Whether `text` is a UUID in its canonical 8-4-4-4-12 hexadecimal form (either case).
        static func isUUID(_ text: String) -> Bool {
            let bytes = text.utf8
            guard bytes.count == 36 else { return false }
            for (offset, byte) in bytes.enumerated() {
                if [8, 13, 18, 23].contains(offset) {
                    guard byte == UInt8(ascii: "-") else { return false }
                } else if !isHex(byte) {
                    return false
                }
            }
            return true
        }

        private static func isHex(_ byte: UInt8) -> Bool {
            (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
        }
    }
#endif
