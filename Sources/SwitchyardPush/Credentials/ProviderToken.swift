#if Push
    import Crypto

    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif

    /// A provider authentication token: the JSON Web Token APNs reads from `authorization: bearer …`, signed ES256 with
    /// the team's key. `{"alg":"ES256","kid":KEY ID}` . `{"iss":TEAM ID,"iat":SECONDS SINCE 1970}` . signature.
    public struct ProviderToken: Sendable, Hashable, CustomStringConvertible {
        /// The token's text (header, claims and signature, base64url, joined by dots).
        public let text: String
        /// Its `iat`: when it was issued, in seconds since 1970.
        public let issuedAt: Int
        /// Its `kid`.
        public let keyID: String
        /// The `authorization` header's value, `bearer <text>` (made once: every request sends it).
        let authorization: String

        /// Signs a token issued at `issuedAt` with `key`.
        public init(key: PushSigningKey, issuedAt: Int) throws {
            let header = Self.base64URL(Array(#"{"alg":"ES256","kid":"\#(Self.escaped(key.keyID))"}"#.utf8))
            let claims = Self.base64URL(Array(#"{"iss":"\#(Self.escaped(key.teamID))","iat":\#(issuedAt)}"#.utf8))
            let signed = header + "." + claims
            let signature = try key.key.signature(for: Data(signed.utf8))
            self.text = signed + "." + Self.base64URL(Array(signature.rawRepresentation))
            self.authorization = "bearer " + text
            self.issuedAt = issuedAt
            self.keyID = key.keyID
        }

        /// The token without its signature, which authenticates the requests.
        public var description: String { "ProviderToken(key ID \(keyID), issued at \(issuedAt))" }

        /// Base64url without padding (RFC 7515).
        static func base64URL(_ bytes: [UInt8]) -> String {
            let standard = Data(bytes).base64EncodedString()
            return String(
                standard.compactMap { character -> Character? in
                    switch character {
                    case "+": "-"
                    case "/": "_"
                    case "=": nil
                    default: character
                    }
                })
        }

        /// `text` as the inside of a JSON string (the IDs are letters and digits; anything else is escaped anyway).
        private static func escaped(_ text: String) -> String {
            var result = ""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": result += "\\\""
                case "\\": result += "\\\\"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result
        }
    }
#endif
