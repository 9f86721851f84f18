#if Push
    import Crypto
    import Foundation
    import SwitchyardPush
    import Testing

    @Suite("Signing keys: files only their owner can read, systemd credentials, encrypted files, provider tokens")
    struct PushCredentialTests {
        let folder: String
        let pem: String
        let key: P256.Signing.PrivateKey

        init() throws {
            folder = NSTemporaryDirectory() + "switchyard-push-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            key = P256.Signing.PrivateKey()
            pem = key.pemRepresentation  // PKCS #8, as Apple's AuthKey .p8 files are
        }

        private func write(_ text: String, _ name: String, mode: Int16) throws -> String {
            let path = folder + "/" + name
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            return path
        }

        @Test("a key file readable by its owner alone loads; its description shows the IDs only")
        func protectedFile() throws {
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = try write(pem, "AuthKey.p8", mode: 0o600)
            let loaded = try PushSigningKey.load(file: path, keyID: "KEY1234567", teamID: "TEAM123456")
            #expect(loaded.description == "PushSigningKey(key ID KEY1234567, team TEAM123456)")
            #expect(loaded.publicKey.rawRepresentation == key.publicKey.rawRepresentation, "its public half")
            let body = pem.split(separator: "\n")[1]
            #expect(!"\(loaded)".contains(body) && !String(reflecting: loaded).contains(body))
        }

        @Test("a key file others may read is refused, as ssh refuses one", arguments: [0o644, 0o640, 0o604, 0o660])
        func unprotectedFile(mode: Int) throws {
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = try write(pem, "AuthKey.p8", mode: Int16(mode))
            #expect(throws: PushCredentialError.unprotected(path: path, mode: mode_t(mode))) {
                try PushSigningKey.load(file: path, keyID: "K", teamID: "T")
            }
            let message = "\(PushCredentialError.unprotected(path: path, mode: mode_t(mode)))"
            #expect(message.contains("chmod 600"))
        }

        @Test("not a key, a missing file, a folder: clear errors without the file's content")
        func badFiles() throws {
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let text = try write(
                "-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----\n", "bad.p8", mode: 0o600)
            #expect(throws: PushCredentialError.notAKey(source: text)) {
                try PushSigningKey.load(file: text, keyID: "K", teamID: "T")
            }
            #expect(throws: PushCredentialError.self) {
                try PushSigningKey.load(file: folder + "/missing.p8", keyID: "K", teamID: "T")
            }
            #expect(throws: PushCredentialError.unreadable(path: folder, reason: "not a regular file")) {
                try PushSigningKey.load(file: folder, keyID: "K", teamID: "T")
            }
        }

        @Test("systemd credentials: the file in $CREDENTIALS_DIRECTORY; without it, a clear error")
        func credentialsDirectory() throws {
            defer { try? FileManager.default.removeItem(atPath: folder) }
            _ = try write(pem, "apns-key", mode: 0o400)
            let loaded = try PushSigningKey.loadCredential(
                "apns-key", keyID: "K", teamID: "T", environment: ["CREDENTIALS_DIRECTORY": folder])
            #expect(loaded.keyID == "K")
            #expect(throws: PushCredentialError.noCredentialsDirectory) {
                try PushSigningKey.loadCredential("apns-key", keyID: "K", teamID: "T", environment: [:])
            }
        }

        @Test("an encrypted key file: round trip, wrong passphrase, a changed header, not a key file")
        func encryptedFile() throws {
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let cheap = PushKeyFile.Cost(logRounds: 10, blockSize: 8, parallelism: 1)  // fast enough for a test
            let original = try PushSigningKey(pem: pem, keyID: "KEY1234567", teamID: "TEAM123456")
            let path = folder + "/key.sealed"
            try PushKeyFile.write(original, to: path, passphrase: "correct horse", cost: cheap)
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!text.contains(pem.split(separator: "\n")[1]))

            let opened = try PushKeyFile.read(path, passphrase: "correct horse")
            #expect(opened.keyID == "KEY1234567" && opened.teamID == "TEAM123456")
            let token = try ProviderToken(key: opened, issuedAt: 1_700_000_000)
            #expect(try Self.verifies(token.text, with: key.publicKey), "the opened key is the original")
            #expect(try Self.verifies(token.text, with: opened.publicKey))

            #expect(throws: PushCredentialError.wrongPassphrase(path: path)) {
                try PushKeyFile.read(path, passphrase: "wrong horse")
            }
            #expect(throws: PushCredentialError.self, "an existing file is never overwritten") {
                try PushKeyFile.write(original, to: path, passphrase: "other", cost: cheap)
            }
            let changed = folder + "/changed.sealed"
            try text.replacingOccurrences(of: "key-id: KEY1234567", with: "key-id: OTHER12345")
                .write(toFile: changed, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: changed)
            #expect(throws: PushCredentialError.wrongPassphrase(path: changed), "the header is authenticated") {
                try PushKeyFile.read(changed, passphrase: "correct horse")
            }
            let plain = try write(pem, "plain.p8", mode: 0o600)
            #expect(throws: PushCredentialError.notAKeyFile(path: plain)) {
                try PushKeyFile.read(plain, passphrase: "correct horse")
            }
        }

        /// A crafted `scrypt:` line, and the limit it breaks.
        struct CraftedCost: Sendable, CustomTestStringConvertible {
            var scrypt: String
            var field: String
            var value: Int
            var allowed: String
            var testDescription: String { "scrypt: \(scrypt)" }
        }

        static let craftedCosts = [
            CraftedCost(scrypt: "24 64 16", field: "logRounds", value: 24, allowed: "10...20"),
            CraftedCost(scrypt: "21 8 1", field: "logRounds", value: 21, allowed: "10...20"),
            CraftedCost(scrypt: "9 8 1", field: "logRounds", value: 9, allowed: "10...20"),
            CraftedCost(scrypt: "15 17 1", field: "blockSize", value: 17, allowed: "1...16"),
            CraftedCost(scrypt: "15 8 5", field: "parallelism", value: 5, allowed: "1...4"),
            CraftedCost(
                scrypt: "16 16 4", field: "128·N·r·p", value: 536_870_912, allowed: "at most 268435456 (256 MiB)"),
        ]

        @Test("a crafted scrypt cost is refused before any derivation, at once", arguments: craftedCosts)
        func craftedCost(crafted: CraftedCost) throws {
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let original = try PushSigningKey(pem: pem, keyID: "KEY1234567", teamID: "TEAM123456")
            let genuine = folder + "/key.sealed"
            try PushKeyFile.write(
                original, to: genuine, passphrase: "correct horse",
                cost: PushKeyFile.Cost(logRounds: 10, blockSize: 8, parallelism: 1))
            let text = try String(contentsOfFile: genuine, encoding: .utf8)
            #expect(text.contains("\nscrypt: 10 8 1\n"))
            let path = try write(
                text.replacingOccurrences(of: "\nscrypt: 10 8 1\n", with: "\nscrypt: \(crafted.scrypt)\n"),
                "crafted.sealed", mode: 0o600)
            var thrown: (any Error)?
            // A bound, not a speed measurement: deriving with any refused cost takes seconds to minutes.
            let elapsed = ContinuousClock().measure {
                do {
                    _ = try PushKeyFile.read(path, passphrase: "correct horse")
                } catch {
                    thrown = error
                }
            }
            #expect(
                thrown as? PushCredentialError
                    == .costOutOfRange(
                        path: path, field: crafted.field, value: crafted.value, allowed: crafted.allowed))
            #expect(elapsed < .milliseconds(100), "refused before scrypt ran")
            if let thrown { #expect("\(thrown)".contains(crafted.field), "the message names the field") }
        }

        @Test("the standard cost is within the limits; a cost outside them is refused when writing, nothing written")
        func costLimitsWhenWriting() throws {
            defer { try? FileManager.default.removeItem(atPath: folder) }
            #expect(PushKeyFile.Cost.standard.isAllowed)
            #expect(PushKeyFile.Cost(logRounds: 20, blockSize: 2, parallelism: 1).isAllowed, "256 MiB exactly")
            #expect(!PushKeyFile.Cost(logRounds: 20, blockSize: 2, parallelism: 2).isAllowed)
            let original = try PushSigningKey(pem: pem, keyID: "KEY1234567", teamID: "TEAM123456")
            let path = folder + "/expensive.sealed"
            #expect(
                throws: PushCredentialError.costOutOfRange(
                    path: path, field: "logRounds", value: 21, allowed: "10...20")
            ) {
                try PushKeyFile.write(
                    original, to: path, passphrase: "correct horse",
                    cost: PushKeyFile.Cost(logRounds: 21, blockSize: 8, parallelism: 1))
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }

        @Test("a provider token: ES256 over the header and claims APNs reads, verifiable with the public key")
        func providerToken() throws {
            let signing = try PushSigningKey(pem: pem, keyID: "KEY1234567", teamID: "TEAM123456")
            let token = try ProviderToken(key: signing, issuedAt: 1_700_000_000)
            let parts = token.text.split(separator: ".").map(String.init)
            #expect(parts.count == 3)
            #expect(try Self.decoded(parts[0]) == #"{"alg":"ES256","kid":"KEY1234567"}"#)
            #expect(try Self.decoded(parts[1]) == #"{"iss":"TEAM123456","iat":1700000000}"#)
            #expect(!token.text.contains("=") && !token.text.contains("+") && !token.text.contains("/"))
            #expect(try Self.verifies(token.text, with: key.publicKey))
            #expect(!(try Self.verifies(token.text, with: P256.Signing.PrivateKey().publicKey)))
            #expect(!token.description.contains(parts[2]), "the description leaves the signature out")
        }

        @Test("the token schedule: used until 50 minutes, replaced after ExpiredProviderToken only when 20 minutes old")
        func schedule() throws {
            let signing = try PushSigningKey(pem: pem, keyID: "K", teamID: "T")
            var schedule = ProviderTokenSchedule()
            let minute = Duration.seconds(60)
            #expect(schedule.decide(at: .zero) == .sign)
            let first = try ProviderToken(key: signing, issuedAt: 0)
            schedule.issued(first, at: .zero)
            #expect(schedule.decide(at: minute * 49 + .seconds(59)) == .use(first))
            var later = schedule
            #expect(later.decide(at: minute * 50) == .sign)
            #expect(schedule.expired(first, at: minute * 5) == .wait(after: minute * 15), "too young to replace")
            #expect(schedule.decide(at: minute * 5) == .use(first))
            #expect(schedule.expired(first, at: minute * 20) == .replaced)
            #expect(schedule.decide(at: minute * 20) == .sign)
            let second = try ProviderToken(key: signing, issuedAt: 1_200)
            schedule.issued(second, at: minute * 20)
            #expect(schedule.expired(first, at: minute * 21) == .alreadyReplaced, "an answer about the old token")
            #expect(schedule.decide(at: minute * 21) == .use(second))
        }

        @Test("one signer at a time: the others use the token in force until it is an hour old, or wait for the signer")
        func oneSigner() throws {
            let signing = try PushSigningKey(pem: pem, keyID: "K", teamID: "T")
            var schedule = ProviderTokenSchedule()
            let minute = Duration.seconds(60)
            #expect(schedule.decide(at: .zero) == .sign)
            #expect(schedule.isSigning)
            #expect(schedule.decide(at: .zero) == .wait, "no token yet: wait for the signer, do not sign a second")
            schedule.signingFailed()
            #expect(!schedule.isSigning)
            #expect(schedule.decide(at: .seconds(1)) == .sign, "after a failure, the next caller signs")
            let first = try ProviderToken(key: signing, issuedAt: 1)
            schedule.issued(first, at: .seconds(1))
            #expect(!schedule.isSigning)
            #expect(schedule.decide(at: minute * 30) == .use(first))

            #expect(schedule.decide(at: minute * 51) == .sign, "50 minutes old: one caller re-signs")
            #expect(schedule.decide(at: minute * 51) == .use(first), "the others keep the token in force meanwhile")
            #expect(schedule.decide(at: minute * 60) == .use(first))
            #expect(schedule.decide(at: minute * 60 + .seconds(1)) == .wait, "an hour old: APNs would refuse it")
            let second = try ProviderToken(key: signing, issuedAt: 3_601)
            schedule.issued(second, at: minute * 60 + .seconds(1))
            #expect(schedule.decide(at: minute * 61) == .use(second))

            // After ExpiredProviderToken drops the token, callers wait for the one signer.
            #expect(schedule.expired(second, at: minute * 81) == .replaced)
            #expect(schedule.decide(at: minute * 81) == .sign)
            #expect(schedule.decide(at: minute * 81) == .wait)
        }

        static func decoded(_ part: String) throws -> String {
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            return String(decoding: try #require(Data(base64Encoded: base64)), as: UTF8.self)
        }

        static func verifies(_ token: String, with publicKey: P256.Signing.PublicKey) throws -> Bool {
            let parts = token.split(separator: ".").map(String.init)
            var base64 = parts[2].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            let signature = try P256.Signing.ECDSASignature(
                rawRepresentation: try #require(Data(base64Encoded: base64)))
            return publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
        }
    }
#endif
