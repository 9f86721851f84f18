#if CLI
    import Foundation

    /// The device tokens of `switchyard push --tokens FILE`: one per line, as apps log them.
    ///
    /// Tolerated, as other providers' tools do: blank lines and `#` comments are skipped; spaces, angle brackets
    /// (`<3f8a 09c1 …>`, as iOS once printed tokens) and a trailing `\r` are removed; hexadecimal digits may be upper
    /// or lower case. A tab or a comma ends the token: the rest of the line is ignored, so a file `--failed` wrote
    /// (token, tab, action, reason) can be sent again as it is, or filtered (`grep retry`). A line that is still not a
    /// token is kept and fails without a request as `BadDeviceToken`, so it appears in the summary and in `--failed`
    /// instead of vanishing.
    ///
    /// A byte-order mark at the start of the file is skipped. The file is held in memory once (its bytes, and two
    /// integers per token); notifications are made from it one at a time as the batch needs them.
    struct PushTokenList: Sendable {
        private let bytes: [UInt8]
        /// Each token's byte range in `bytes`.
        private let ranges: [Range<Int>]

        var count: Int { ranges.count }

        /// Reads `path` ("-" is standard input). Blocks: call it on the blocking executor.
        static func read(_ path: String) throws -> PushTokenList {
            let data: Data
            if path == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            }
            return PushTokenList(Array(data))
        }

        init(_ text: [UInt8]) {
            var cleaned: [UInt8] = []
            cleaned.reserveCapacity(text.count)
            var ranges: [Range<Int>] = []
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            let text = text.starts(with: bom) ? Array(text.dropFirst(3)) : text
            var start = cleaned.count
            var isComment = false
            var isTokenDone = false
            var atLineStart = true
            for byte in text + [UInt8(ascii: "\n")] {
                if atLineStart {
                    start = cleaned.count
                    isComment = false
                    isTokenDone = false
                    atLineStart = false
                }
                switch byte {
                case UInt8(ascii: "\n"):
                    if !isComment, cleaned.count > start { ranges.append(start..<cleaned.count) }
                    if isComment { cleaned.removeSubrange(start...) }
                    atLineStart = true
                case UInt8(ascii: "#") where cleaned.count == start:
                    isComment = true
                case UInt8(ascii: "\t") where cleaned.count > start, UInt8(ascii: ",") where cleaned.count > start:
                    isTokenDone = true
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "<"), UInt8(ascii: ">"):
                    continue
                default:
                    if !isComment, !isTokenDone { cleaned.append(byte) }
                }
            }
            self.bytes = cleaned
            self.ranges = ranges
        }

        /// The token at `index` (in file order).
        func token(at index: Int) -> String {
            String(decoding: bytes[ranges[index]], as: UTF8.self)
        }
    }
#endif
