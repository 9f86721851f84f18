#if CLI
    import ArgumentParser
    import Foundation
    import Switchyard
    import SwitchyardPush

    /// `switchyard push keys`: signing keys kept encrypted at rest.
    struct PushKeysCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys", abstract: "Signing keys kept encrypted with a passphrase.",
            subcommands: [PushKeysImportCommand.self])
    }

    /// `switchyard push keys import AuthKey_KEYID.p8 --team-id TEAM [--key-id ID] [--output FILE]`: encrypts a `.p8`
    /// key with a passphrase (scrypt, AES-GCM) into a new file readable by its owner alone, which `switchyard push
    /// --key` opens with the passphrase. The `.p8` file is left as it was: delete it once the encrypted file is kept
    /// safe.
    ///
    /// Exit status: 0 when written; 1 when the key cannot be read or the output exists; 64 for a malformed command line;
    /// 130 when Ctrl-C ends the passphrase prompt (the terminal's echo restored).
    struct PushKeysImportCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Encrypt a .p8 signing key with a passphrase (asked twice, or $SWITCHYARD_PUSH_PASSPHRASE).",
            discussion: """
                The encrypted file records the key ID and team ID, authenticated with the key: `switchyard push --key \
                FILE` then needs neither. An existing output file is never overwritten.
                """)

        @Argument(help: "The .p8 file downloaded from Apple (AuthKey_KEYID.p8).")
        var key: String

        @Option(help: "The key's ID (default: from the file name AuthKey_KEYID.p8).")
        var keyID: String?

        @Option(help: "The team ID of the Apple developer account the key belongs to.")
        var teamID: String

        @Option(help: "The encrypted file to write (default: the key's path with the extension .pushkey).")
        var output: String?

        func run() async throws {
            guard let keyID = keyID ?? PushKeySource.keyIDFromName(key) else {
                throw ValidationError("--key-id is needed: \(key) is not named AuthKey_KEYID.p8")
            }
            let source = key
            let team = teamID
            let target = output ?? (URL(fileURLWithPath: key).deletingPathExtension().path + ".pushkey")
            do {
                try await BlockingExecutor.shared.run {
                    let pem: String
                    do {
                        pem = try String(contentsOfFile: source, encoding: .utf8)
                    } catch {
                        throw PushCommandError("\(source) cannot be read")
                    }
                    guard let signingKey = try? PushSigningKey(pem: pem, keyID: keyID, teamID: team) else {
                        throw PushCredentialError.notAKey(source: source)
                    }
                    let passphrase = try PushKeySource.passphrase(for: target, confirm: true)
                    try PushKeyFile.write(signingKey, to: target, passphrase: passphrase)
                }
            } catch {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                throw ExitCode(1)
            }
            print("wrote \(target) (key \(keyID), team \(team)); delete \(source) once it is kept safe")
        }
    }
#endif
