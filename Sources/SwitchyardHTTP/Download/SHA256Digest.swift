#if HTTP
    #if canImport(CryptoKit)
        import CryptoKit
    #else
        import CLibCrypto
    #endif

    /// A SHA-256 digest fed in pieces: libcrypto's on Linux, CryptoKit's on Apple platforms. One owner at a time (not
    /// `Sendable`).
    final class SHA256Digest {
        #if canImport(CryptoKit)
            private var hasher = SHA256()
        #else
            private let context: OpaquePointer
        #endif

        init() {
            #if canImport(CryptoKit)
            #else
                // Allocation failure is the only way these fail: not recoverable.
                guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
                    fatalError("libcrypto: cannot start a SHA-256 digest")
                }
                self.context = context
            #endif
        }

        deinit {
            #if !canImport(CryptoKit)
                EVP_MD_CTX_free(context)
            #endif
        }

        /// Adds `bytes` to the digest.
        func update(_ bytes: UnsafeRawBufferPointer) {
            guard !bytes.isEmpty else { return }
            #if canImport(CryptoKit)
                hasher.update(bufferPointer: bytes)
            #else
                EVP_DigestUpdate(context, bytes.baseAddress, bytes.count)
            #endif
        }

        /// The digest of everything added, as 64 lower-case hex digits. Call once.
        func finish() -> String {
            #if canImport(CryptoKit)
                let bytes = Array(hasher.finalize())
            #else
                var bytes = [UInt8](repeating: 0, count: 32)
                var length: UInt32 = 0
                EVP_DigestFinal_ex(context, &bytes, &length)
            #endif
            let digits = Array("0123456789abcdef".utf8)
            var text: [UInt8] = []
            text.reserveCapacity(64)
            for byte in bytes {
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0f)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }
#endif
