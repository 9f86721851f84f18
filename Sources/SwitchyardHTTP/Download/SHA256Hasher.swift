#if HTTP
    import Crypto

    /// A SHA-256 fed in pieces and finished as lower-case hex: swift-crypto's `SHA256` (BoringSSL, vendored by
    /// swift-crypto, on Linux; CryptoKit on Apple platforms). A value: one owner at a time.
    ///
    /// ```swift
    /// var hasher = SHA256Hasher()
    /// buffer.withUnsafeBytes { hasher.update($0) }
    /// let hex = hasher.finish()   // 64 lower-case hex digits
    /// ```
    struct SHA256Hasher {
        private var hasher = SHA256()

        init() {}

        /// Adds `bytes` to the digest. Pieces of any size, empty ones included, give the digest of their
        /// concatenation. - Complexity: O(`bytes.count`).
        mutating func update(_ bytes: UnsafeRawBufferPointer) {
            guard !bytes.isEmpty else { return }
            hasher.update(bufferPointer: bytes)
        }

        /// The digest of everything added so far, as 64 lower-case hex digits. - Complexity: O(1).
        func finish() -> String {
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(2 * SHA256.byteCount)
            for byte in hasher.finalize() {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }
#endif
