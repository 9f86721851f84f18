#if Push
    import Crypto
    import CryptoExtras

    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A signing key encrypted with a passphrase, in a file of its own (`switchyard push keys import`): scrypt derives
    /// a 256-bit key from the passphrase and a random salt, and AES-GCM seals the key's PEM. The file is text:
    ///
    /// ```
    /// switchyard-push-key 1
    /// key-id: ABC123DEFG
    /// team-id: DEF123GHIJ
    /// scrypt: 15 8 1
    /// salt: <base64>
    /// sealed: <base64 of the nonce, the ciphertext and the tag>
    /// ```
    ///
    /// Every line before `sealed:` is authenticated with the ciphertext, so a changed ID or scrypt cost makes the file
    /// fail to open, like a wrong passphrase. The file is written readable by its owner alone.
    public enum PushKeyFile {
        /// scrypt's cost: N = 2^`logRounds`, block size `blockSize`, parallelism `parallelism`.
        public struct Cost: Sendable, Hashable {
            public var logRounds: Int
            public var blockSize: Int
            public var parallelism: Int

            public init(logRounds: Int, blockSize: Int, parallelism: Int) {
                self.logRounds = logRounds
                self.blockSize = blockSize
                self.parallelism = parallelism
            }

            /// N = 2^15, r = 8, p = 1: 32 MiB and about a tenth of a second to open, as OWASP recommends for scrypt.
            public static let standard = Cost(logRounds: 15, blockSize: 8, parallelism: 1)
        }

        static let magic = "switchyard-push-key 1"

        /// Encrypts `key` with `passphrase` into a new file at `path` (mode 0600).
        /// - Throws: ``PushCredentialError/unreadable(path:reason:)`` if the file exists or cannot be written.
        public static func write(_ key: PushSigningKey, to path: String, passphrase: String, cost: Cost = .standard)
            throws
        {
            let salt = (0..<16).map { _ in UInt8.random(in: 0...255) }
            let header = [
                magic, "key-id: \(key.keyID)", "team-id: \(key.teamID)",
                "scrypt: \(cost.logRounds) \(cost.blockSize) \(cost.parallelism)",
                "salt: \(Data(salt).base64EncodedString())",
            ].joined(separator: "\n")
            let sealed = try AES.GCM.seal(
                Data(key.key.pemRepresentation.utf8), using: try derive(passphrase, salt: salt, cost: cost),
                authenticating: Data(header.utf8))
            guard let combined = sealed.combined else { throw PushCredentialError.notAKeyFile(path: path) }
            let text = header + "\nsealed: \(combined.base64EncodedString())\n"
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw PushCredentialError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            defer { close(descriptor) }
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            guard written == bytes.count else {
                unlink(path)
                throw PushCredentialError.unreadable(path: path, reason: "could not be written")
            }
        }

        /// Opens the key file at `path` with `passphrase`. The file must be protected as a plain key file must
        /// (``PushSigningKey/load(file:keyID:teamID:)``).
        /// - Throws: ``PushCredentialError/wrongPassphrase(path:)``, ``PushCredentialError/notAKeyFile(path:)``,
        ///   ``PushCredentialError/unprotected(path:mode:)``, ``PushCredentialError/unreadable(path:reason:)``.
        public static func read(_ path: String, passphrase: String) throws -> PushSigningKey {
            try PushSigningKey.checkProtected(path)
            let lines = try PushSigningKey.readText(path).split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.count >= 6, lines[0] == magic else { throw PushCredentialError.notAKeyFile(path: path) }
            func field(_ index: Int, _ name: String) throws -> String {
                guard lines[index].hasPrefix(name + ": ") else { throw PushCredentialError.notAKeyFile(path: path) }
                return String(lines[index].dropFirst(name.count + 2))
            }
            let keyID = try field(1, "key-id")
            let teamID = try field(2, "team-id")
            let numbers = try field(3, "scrypt").split(separator: " ").compactMap { Int($0) }
            guard numbers.count == 3, (1...24).contains(numbers[0]), (1...64).contains(numbers[1]),
                (1...16).contains(numbers[2]),
                let salt = Data(base64Encoded: try field(4, "salt")),
                let combined = Data(base64Encoded: try field(5, "sealed")),
                let box = try? AES.GCM.SealedBox(combined: combined)
            else {
                throw PushCredentialError.notAKeyFile(path: path)
            }
            let header = lines[0..<5].joined(separator: "\n")
            let cost = Cost(logRounds: numbers[0], blockSize: numbers[1], parallelism: numbers[2])
            guard
                let pem = try? AES.GCM.open(
                    box, using: try derive(passphrase, salt: Array(salt), cost: cost), authenticating: Data(header.utf8)
                )
            else {
                throw PushCredentialError.wrongPassphrase(path: path)
            }
            return try PushSigningKey(
                pem: String(decoding: pem, as: UTF8.self), keyID: keyID, teamID: teamID, source: path)
        }

        private static func derive(_ passphrase: String, salt: [UInt8], cost: Cost) throws -> SymmetricKey {
            try KDF.Scrypt.deriveKey(
                from: Array(passphrase.utf8), salt: salt, outputByteCount: 32, rounds: 1 << cost.logRounds,
                blockSize: cost.blockSize, parallelism: cost.parallelism)
        }
    }

    /// The system's `write(2)` (inside ``PushKeyFile`` the name means its own `write`).
    private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        write(descriptor, bytes, count)
    }
#endif
