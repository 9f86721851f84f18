#if Push
    import Crypto

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

    /// The provider's token-signing key (Apple's `AuthKey_<KEY ID>.p8`: a P-256 private key in PKCS #8 PEM) with its
    /// key ID and team ID: what signs the provider tokens of every request.
    ///
    /// The key is read from a file only if the file is the user's own and nobody else may read it (as `ssh` treats a
    /// private key), from systemd's credentials folder, or from a file that ``PushKeyFile`` encrypted with a
    /// passphrase. The key never appears in `description`, errors or logs: only its IDs do.
    public struct PushSigningKey: Sendable, CustomStringConvertible {
        /// The key's ID (10 characters, from the developer account): the token's `kid`.
        public let keyID: String
        /// The team's ID (10 characters): the token's `iss`.
        public let teamID: String
        let key: P256.Signing.PrivateKey

        /// The key's public half: what verifies the provider tokens it signs (APNs holds it; a mock APNs's rules
        /// take it).
        public var publicKey: P256.Signing.PublicKey { key.publicKey }

        /// A key from its PEM text.
        /// - Throws: ``PushCredentialError/notAKey(source:)`` if `pem` holds no P-256 private key.
        public init(pem: String, keyID: String, teamID: String) throws {
            try self.init(pem: pem, keyID: keyID, teamID: teamID, source: "the key text")
        }

        init(key: P256.Signing.PrivateKey, keyID: String, teamID: String) {
            self.key = key
            self.keyID = keyID
            self.teamID = teamID
        }

        public var description: String { "PushSigningKey(key ID \(keyID), team \(teamID))" }

        /// Reads the key from the `.p8` file at `path`.
        /// - Throws: ``PushCredentialError/unprotected(path:mode:)`` if the file is not owned by this process's user or
        ///   its group or others may read or write it (`chmod 600` fixes it); ``PushCredentialError/unreadable(path:reason:)``;
        ///   ``PushCredentialError/notAKey(source:)``. Blocks on the file's read: call it off the cooperative pool for
        ///   a slow disk.
        public static func load(file path: String, keyID: String, teamID: String) throws -> PushSigningKey {
            try checkProtected(path)
            return try PushSigningKey(pem: readText(path), keyID: keyID, teamID: teamID, source: path)
        }

        /// Reads the key from systemd's credentials: the file `name` in `$CREDENTIALS_DIRECTORY` (`LoadCredential=` or
        /// `LoadCredentialEncrypted=` in the service's unit), which systemd makes readable by the service alone.
        /// - Throws: ``PushCredentialError/noCredentialsDirectory`` when the variable is not set, and what
        ///   ``load(file:keyID:teamID:)`` throws.
        public static func loadCredential(
            _ name: String, keyID: String, teamID: String,
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) throws -> PushSigningKey {
            guard let folder = environment["CREDENTIALS_DIRECTORY"], !folder.isEmpty else {
                throw PushCredentialError.noCredentialsDirectory
            }
            return try load(file: folder + "/" + name, keyID: keyID, teamID: teamID)
        }

        init(pem: String, keyID: String, teamID: String, source: String) throws {
            guard let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) else {
                throw PushCredentialError.notAKey(source: source)
            }
            self.init(key: key, keyID: keyID, teamID: teamID)
        }

        /// Fails unless `path` is a regular file owned by this process's user, with no permission for group or others.
        static func checkProtected(_ path: String) throws {
            var status = stat()
            guard stat(path, &status) == 0 else {
                throw PushCredentialError.unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw PushCredentialError.unreadable(path: path, reason: "not a regular file")
            }
            let mode = status.st_mode & 0o777
            guard status.st_uid == geteuid(), mode & 0o077 == 0 else {
                throw PushCredentialError.unprotected(path: path, mode: mode)
            }
        }

        static func readText(_ path: String) throws -> String {
            do {
                return try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw PushCredentialError.unreadable(path: path, reason: "cannot be read as text")
            }
        }
    }

    /// Why a signing key could not be had. Messages name files and IDs, never the key or a passphrase.
    public enum PushCredentialError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The key file may be read or written by others, or belongs to another user.
        case unprotected(path: String, mode: mode_t)
        case unreadable(path: String, reason: String)
        /// The text holds no P-256 private key in PEM.
        case notAKey(source: String)
        /// `$CREDENTIALS_DIRECTORY` is not set: the process was not started by systemd with credentials.
        case noCredentialsDirectory
        /// The encrypted key file is not one ``PushKeyFile`` wrote, or was changed.
        case notAKeyFile(path: String)
        /// The passphrase does not open the encrypted key file (or the file was changed).
        case wrongPassphrase(path: String)
        /// The encrypted key file's scrypt cost (or the cost asked of ``PushKeyFile/write(_:to:passphrase:cost:)``)
        /// is outside ``PushKeyFile/Cost``'s limits: `field` (`logRounds`, `blockSize`, `parallelism`, or
        /// `128·N·r·p`, the bytes they amount to) is `value`, and `allowed` says what it may be. Found before any
        /// derivation.
        case costOutOfRange(path: String, field: String, value: Int, allowed: String)

        public var description: String {
            switch self {
            case .unprotected(let path, let mode):
                "\(path): the key file must be yours and readable by you alone (its mode is \(String(mode, radix: 8))); run chmod 600 \(path)"
            case .unreadable(let path, let reason): "\(path): \(reason)"
            case .notAKey(let source): "\(source) holds no P-256 private key in PEM (an APNs AuthKey .p8 file)"
            case .noCredentialsDirectory: "CREDENTIALS_DIRECTORY is not set (systemd sets it for LoadCredential=)"
            case .notAKeyFile(let path): "\(path) is not an encrypted key file written by switchyard push keys import"
            case .wrongPassphrase(let path): "\(path): the passphrase is wrong, or the file was changed"
            case .costOutOfRange(let path, let field, let value, let allowed):
                "\(path): the scrypt cost's \(field) is \(value), outside its limit (\(allowed)); no key was derived"
            }
        }
    }
#endif
