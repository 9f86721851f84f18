#if Images
    import Crypto

    /// An encoded image held in memory (``ImageSource/bytes(_:identity:)``), with what identifies it: the caller's
    /// identity, if any, and the SHA-256 digest of the bytes, computed once when the value is made.
    ///
    /// Two values are equal when their identities are equal (both nil, or the same text) and their digests are:
    /// for all practical purposes, the same bytes (finding two byte strings with one SHA-256 digest is out of
    /// reach). The bytes themselves are never compared.
    /// - Complexity: O(`bytes.count`) to make (the digest); `==` and `hash(into:)` O(the identity's length).
    public struct EncodedBytes: Sendable, Hashable, CustomStringConvertible {
        /// The encoded image.
        public let bytes: [UInt8]
        /// The caller's name for the image (a file name, a URL with its ETag), or nil.
        public let identity: String?
        /// The SHA-256 digest of ``bytes``, as 64 lower-case hexadecimal digits.
        public let digest: String

        /// `bytes` named `identity`; computes their digest. - Complexity: O(`bytes.count`).
        public init(_ bytes: [UInt8], identity: String? = nil) {
            self.bytes = bytes
            self.identity = identity
            var hasher = SHA256()
            if !bytes.isEmpty { bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) } }
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(2 * SHA256.byteCount)
            for byte in hasher.finalize() {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
            digest = String(decoding: text, as: UTF8.self)
        }

        /// The identity; without one, `"<count> bytes, sha256 <the digest's first 16 digits>"`.
        public var description: String { identity ?? "\(bytes.count) bytes, sha256 \(digest.prefix(16))" }

        public static func == (left: EncodedBytes, right: EncodedBytes) -> Bool {
            left.digest == right.digest && left.identity == right.identity
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(identity)
            hasher.combine(digest)
        }
    }
#endif
