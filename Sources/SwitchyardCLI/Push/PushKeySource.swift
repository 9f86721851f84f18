#if CLI
    import Dispatch
    import Foundation
    import SwitchyardPush

    /// Where `switchyard push` gets its signing key: a `.p8` file (which must be the user's own, mode 0600), a file
    /// written by `switchyard push keys import` (opened with a passphrase), or a systemd credential.
    ///
    /// The passphrase comes from `$SWITCHYARD_PUSH_PASSPHRASE` when set (services, scripts), else it is asked for on
    /// the terminal without echo. Neither the key nor the passphrase is ever printed.
    enum PushKeySource {
        /// The environment variable a passphrase may come from.
        static let passphraseVariable = "SWITCHYARD_PUSH_PASSPHRASE"

        /// The key from `file` (plain or encrypted, told apart by the encrypted file's first line) or from the systemd
        /// credential `credential`. An encrypted file carries its IDs: `keyID` and `teamID` may be omitted, and must
        /// match when given. Blocks on files, scrypt and the terminal: call it on the blocking executor.
        static func load(file: String?, credential: String?, keyID: String?, teamID: String?) throws -> PushSigningKey {
            if let credential {
                let (keyID, teamID) = try ids(keyID, teamID, for: "--credential")
                return try PushSigningKey.loadCredential(credential, keyID: keyID, teamID: teamID)
            }
            guard let file else { throw PushCommandError("name the signing key: --key FILE or --credential NAME") }
            if isEncrypted(file) {
                let key = try PushKeyFile.read(file, passphrase: try passphrase(for: file, confirm: false))
                if let keyID, keyID != key.keyID {
                    throw PushCommandError("\(file) holds key \(key.keyID), not \(keyID)")
                }
                if let teamID, teamID != key.teamID {
                    throw PushCommandError("\(file) holds team \(key.teamID)'s key, not \(teamID)'s")
                }
                return key
            }
            let (keyID, teamID) = try ids(keyID ?? keyIDFromName(file), teamID, for: "--key")
            return try PushSigningKey.load(file: file, keyID: keyID, teamID: teamID)
        }

        /// Whether `path` begins as ``PushKeyFile`` writes its files.
        static func isEncrypted(_ path: String) -> Bool {
            guard let handle = FileHandle(forReadingAtPath: path) else { return false }
            defer { try? handle.close() }
            let start = (try? handle.read(upToCount: 32)) ?? Data()
            return String(decoding: start, as: UTF8.self).hasPrefix("switchyard-push-key ")
        }

        /// The key ID in Apple's file name for a downloaded key, `AuthKey_<KEY ID>.p8`.
        static func keyIDFromName(_ path: String) -> String? {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            guard name.hasPrefix("AuthKey_"), name.count > 8 else { return nil }
            return String(name.dropFirst(8))
        }

        /// The passphrase for `path`: from the environment, else from the terminal (twice when `confirm`).
        static func passphrase(for path: String, confirm: Bool) throws -> String {
            if let given = ProcessInfo.processInfo.environment[passphraseVariable], !given.isEmpty { return given }
            guard let first = TerminalPassphrase.read(prompt: "passphrase for \(path): ") else {
                throw PushCommandError("\(path) needs a passphrase: set \(passphraseVariable) or run on a terminal")
            }
            guard !first.isEmpty else { throw PushCommandError("an empty passphrase is refused") }
            if confirm {
                guard TerminalPassphrase.read(prompt: "the same passphrase again: ") == first else {
                    throw PushCommandError("the passphrases differ")
                }
            }
            return first
        }

        private static func ids(_ keyID: String?, _ teamID: String?, for source: String) throws -> (String, String) {
            guard let keyID, let teamID else {
                throw PushCommandError("\(source) needs --key-id and --team-id (a key from `keys import` carries them)")
            }
            return (keyID, teamID)
        }
    }

    /// A key that could not be had, in words for the command line (never the key or a passphrase).
    struct PushCommandError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Reads a line from the controlling terminal with echo off.
    enum TerminalPassphrase {
        /// The line typed (without its newline), or `nil` when there is no terminal. A stop signal during the prompt
        /// (Ctrl-C, SIGTERM, SIGHUP) restores the terminal's echo first (the default action would leave the terminal
        /// silent), then ends the process with 128 + the signal's number.
        static func read(prompt: String) -> String? {
            let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY)
            guard descriptor >= 0 else { return nil }
            defer { close(descriptor) }
            var saved = termios()
            guard tcgetattr(descriptor, &saved) == 0 else { return nil }
            let restore = saved
            let stops = [SIGINT, SIGTERM, SIGHUP].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    var settings = restore
                    tcsetattr(descriptor, TCSAFLUSH, &settings)
                    _ = write(descriptor, "\n", 1)
                    exit(128 + number)
                }
                source.resume()
                return source
            }
            defer {
                for (number, source) in zip([SIGINT, SIGTERM, SIGHUP], stops) {
                    source.cancel()
                    signal(number, SIG_DFL)
                }
            }
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            _ = prompt.withCString { write(descriptor, $0, strlen($0)) }
            tcsetattr(descriptor, TCSAFLUSH, &quiet)
            defer {
                tcsetattr(descriptor, TCSAFLUSH, &saved)
                _ = write(descriptor, "\n", 1)
            }
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while true {
                let count = Foundation.read(descriptor, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1, byte != UInt8(ascii: "\n") else { break }
                line.append(byte)
            }
            return String(decoding: line, as: UTF8.self)
        }
    }
#endif
