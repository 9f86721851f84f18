#if CLI
    import Foundation
    import SwitchyardWatch
    import SystemPackage

    /// What `switchyard watch` tells the user on standard error: lines prefixed `[switchyard watch]` (a batch of
    /// changes, each start of the command, a failed run) and `error: …` lines, each written at once (unbuffered) in
    /// one write. Paths and the command are shown with terminal control characters escaped.
    struct WatchOutput: Sendable {
        /// How many paths a batch's line lists.
        static let listedPaths = 5

        /// Paths below it are shown relative to it.
        let workingDirectory: FilePath

        /// Writes `[switchyard watch] TEXT` (TEXT as given: escape what comes from outside first).
        func notice(_ text: String) {
            FileHandle.standardError.write(Data("[switchyard watch] \(text)\n".utf8))
        }

        /// Writes `error: TEXT`, with TEXT's control characters escaped.
        func error(_ text: String) {
            FileHandle.standardError.write(Data("error: \(TerminalText.visible(text))\n".utf8))
        }

        /// `N changes: PATH, PATH, … (+K more)`: the batch's size and its first ``listedPaths`` paths.
        func summary(of events: [FileEvent]) -> String {
            let noun = events.count == 1 ? "change" : "changes"
            var line = "\(events.count) \(noun): "
            line += events.prefix(Self.listedPaths).map { display($0.path) }.joined(separator: ", ")
            if events.count > Self.listedPaths { line += " (+\(events.count - Self.listedPaths) more)" }
            return line
        }

        /// `path` relative to the working directory when it is below it (`.` for the directory itself), else as
        /// is; escaped for the terminal.
        func display(_ path: FilePath) -> String {
            var relative = path
            guard relative.removePrefix(workingDirectory) else { return TerminalText.visible(String(decoding: path)) }
            return relative.isEmpty ? "." : TerminalText.visible(String(decoding: relative))
        }

        /// `words` as a shell would take them back: plain words as they are, others in single quotes; escaped for
        /// the terminal.
        static func shellWords(_ words: [String]) -> String {
            let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%")
            let quoted = words.map { word in
                guard word.isEmpty || !word.allSatisfy(plain.contains) else { return word }
                return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
            }
            return TerminalText.visible(quoted.joined(separator: " "))
        }
    }
#endif
