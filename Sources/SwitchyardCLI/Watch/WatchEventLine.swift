#if CLI
    import Foundation
    import SwitchyardWatch
    import SystemPackage

    /// One change as `switchyard watch --json` prints it: a JSON object on a line of its own, keys sorted.
    ///
    /// `{"event":"modified","path":"/abs/file"}`. `event` is `created`, `modified`, `removed`, `renamed` (with
    /// `from`, the old path), `rescan_needed` (`path` is the watched root) or `watch_limit_reached` (`path` is the
    /// first unwatched directory, with `unwatched`, how many are unwatched, and `setting`, the sysctl to raise).
    /// A path that is not valid UTF-8 is given with U+FFFD for its invalid bytes in `path`, and exactly, as base64
    /// of its bytes, in `path_base64` (`from_base64` for `from`); the `_base64` keys appear only then.
    struct WatchEventLine: Encodable {
        let event: String
        let path: String
        let pathBase64: String?
        let from: String?
        let fromBase64: String?
        let unwatched: Int?
        let setting: String?

        enum CodingKeys: String, CodingKey {
            case event, path, from, unwatched, setting
            case pathBase64 = "path_base64"
            case fromBase64 = "from_base64"
        }

        init(_ change: FileEvent) {
            var from: FilePath?
            var report: WatchLimitReport?
            switch change {
            case .created: event = "created"
            case .modified: event = "modified"
            case .removed: event = "removed"
            case .renamed(let old, _):
                event = "renamed"
                from = old
            case .rescanNeeded: event = "rescan_needed"
            case .watchLimitReached(let limit):
                event = "watch_limit_reached"
                report = limit
            }
            let text = Self.text(change.path)
            path = text.string
            pathBase64 = text.base64
            let fromText = from.map(Self.text)
            self.from = fromText?.string
            fromBase64 = fromText?.base64
            unwatched = report?.unwatchedDirectories
            setting = report?.setting
        }

        /// `path` as text (invalid UTF-8 repaired with U+FFFD) and, when it is not valid UTF-8, its exact bytes in
        /// base64.
        static func text(_ path: FilePath) -> (string: String, base64: String?) {
            if let valid = String(validating: path) { return (valid, nil) }
            let bytes = path.withPlatformString { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
            return (String(decoding: bytes, as: UTF8.self), Data(bytes).base64EncodedString())
        }
    }

    /// Prints each change of each batch as a ``WatchEventLine`` on standard output (one write per batch, unbuffered:
    /// every line is out when the write returns), until a stop signal or the end of the watch.
    struct WatchEventPrinter {
        /// Prints until SIGINT, SIGTERM or SIGHUP (returning 128 + its number) or a failed watch (1).
        func run(_ inputs: AsyncStream<WatchInput>, output: WatchOutput) async -> Int32 {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for await input in inputs {
                switch input {
                case .batch(let events):
                    var lines = Data()
                    for change in events {
                        guard let line = try? encoder.encode(WatchEventLine(change)) else { continue }
                        lines.append(line)
                        lines.append(UInt8(ascii: "\n"))
                    }
                    FileHandle.standardOutput.write(lines)
                case .signal(let number):
                    return 128 + number
                case .watchEnded(let reason):
                    output.error(reason)
                    return 1
                case .exited, .stopped:
                    continue
                }
            }
            return 1
        }
    }
#endif
