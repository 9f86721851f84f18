#if Push
    import Crypto
    import CryptoExtras
    import Switchyard

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
    ///
    /// **The scrypt cost is bounded before it is trusted.** The header can only be authenticated after the derivation
    /// its `scrypt:` line asks for: the passphrase is the file's only secret, so every check of the header needs the
    /// key scrypt derives from it, and a check cheaper than scrypt (a MAC under a key derived quickly, a hash of the
    /// passphrase) would give whoever holds the file a cheap test of each passphrase guess, undoing scrypt. A crafted
    /// header could therefore ask for any cost (N = 2^24, r = 64, p = 16: gigabytes and minutes) before the file is
    /// found to be forged. So ``read(_:passphrase:)`` first checks the cost against fixed limits (``Cost/isAllowed``)
    /// and refuses the file with ``PushCredentialError/costOutOfRange(path:field:value:allowed:)`` before deriving
    /// anything: opening any file costs at most 256 MiB of memory and eight times ``Cost/standard``'s time, forged or
    /// not. ``write(_:to:passphrase:cost:)`` refuses the same costs, so every file it writes can be read.
    public enum PushKeyFile {
        /// scrypt's cost: N = 2^`logRounds`, block size `blockSize` (r), parallelism `parallelism` (p).
        ///
        /// Allowed costs (the limits every file is checked against before any derivation): `logRounds` in
        /// ``logRoundsRange``, `blockSize` in ``blockSizeRange``, `parallelism` in ``parallelismRange``, and
        /// 128 · N · r · p at most ``maximumBytes`` (256 MiB). 128 · N · r bytes is the memory scrypt fills and p the
        /// passes it makes over it one after another, so that one product bounds the memory (256 MiB) and the time
        /// (eight times ``standard``'s 32 MiB pass, about a second) of opening a file.
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

            /// The allowed `logRounds` (N from 1,024 to 1,048,576).
            public static let logRoundsRange = 10...20
            /// The allowed `blockSize`.
            public static let blockSizeRange = 1...16
            /// The allowed `parallelism`.
            public static let parallelismRange = 1...4
            /// The most 128 · N · r · p may be: 256 MiB (``standard`` is 32 MiB).
            public static let maximumBytes = 256 << 20

            /// Whether the cost is within the limits (see the type).
            public var isAllowed: Bool { violation == nil }

            /// The first limit the cost breaks: the field's name, its value, and what is allowed.
            var violation: (field: String, value: Int, allowed: String)? {
                if !Self.logRoundsRange.contains(logRounds) {
                    return ("logRounds", logRounds, "\(Self.logRoundsRange)")
                }
                if !Self.blockSizeRange.contains(blockSize) {
                    return ("blockSize", blockSize, "\(Self.blockSizeRange)")
                }
                if !Self.parallelismRange.contains(parallelism) {
                    return ("parallelism", parallelism, "\(Self.parallelismRange)")
                }
                // No overflow: each factor is within its range.
                let bytes = (128 << logRounds) * blockSize * parallelism
                guard bytes <= Self.maximumBytes else {
                    return ("128·N·r·p", bytes, "at most \(Self.maximumBytes) (256 MiB)")
                }
                return nil
            }
        }

        static let magic = "switchyard-push-key 1"

        /// Encrypts `key` with `passphrase` into a new file at `path` (mode 0600).
        /// - Throws: ``PushCredentialError/costOutOfRange(path:field:value:allowed:)`` if `cost` is not
        ///   ``Cost/isAllowed`` (nothing is written); ``PushCredentialError/unreadable(path:reason:)`` if the file
        ///   exists or cannot be written.
        public static func write(_ key: PushSigningKey, to path: String, passphrase: String, cost: Cost = .standard)
            throws
        {
            if let violation = cost.violation {
                throw PushCredentialError.costOutOfRange(
                    path: path, field: violation.field, value: violation.value, allowed: violation.allowed)
            }
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
            let written = bytes.withUnsafeBytes { FileWriting.writeAll($0, to: descriptor) }
            guard written == bytes.count else {
                let reason = String(cString: strerror(errno))
                unlink(path)
                throw PushCredentialError.unreadable(path: path, reason: "could not be written (\(reason))")
            }
        }

        /// Opens the key file at `path` with `passphrase`. The file must be protected as a plain key file must
        /// (``PushSigningKey/load(file:keyID:teamID:)``). Its scrypt cost is checked against ``Cost``'s limits before
        /// any derivation, so a file refused for its cost is refused at once; within the limits, opening takes the
        /// cost's time (a tenth of a second for ``Cost/standard``) and blocks the calling thread: call it off the
        /// cooperative pool.
        /// - Throws: ``PushCredentialError/wrongPassphrase(path:)``, ``PushCredentialError/notAKeyFile(path:)``,
        ///   ``PushCredentialError/costOutOfRange(path:field:value:allowed:)``,
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
            guard numbers.count == 3 else { throw PushCredentialError.notAKeyFile(path: path) }
            let cost = Cost(logRounds: numbers[0], blockSize: numbers[1], parallelism: numbers[2])
            // Before anything is derived: the header is not authenticated yet (see the type).
            if let violation = cost.violation {
                throw PushCredentialError.costOutOfRange(
                    path: path, field: violation.field, value: violation.value, allowed: violation.allowed)
            }
            guard let salt = Data(base64Encoded: try field(4, "salt")),
                let combined = Data(base64Encoded: try field(5, "sealed")),
                let box = try? AES.GCM.SealedBox(combined: combined)
            else {
                throw PushCredentialError.notAKeyFile(path: path)
            }
            let header = lines[0..<5].joined(separator: "\n")
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

#endif
