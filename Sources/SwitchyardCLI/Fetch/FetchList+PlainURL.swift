#if CLI
    extension FetchList {
        /// A URL of the common plain shape read from its bytes, with the path and identity `URLComponents` gives it:
        /// `http://` or `https://`, a host of lower-case letters, digits, `-` and `.` (labels not empty, none starting
        /// with `-`), a port of 1–5 digits (1–65535) or none, then a path and query of unreserved characters,
        /// sub-delimiters, `:`, `@` and `/` (and `?` in the query). Nil for anything else (no `%`, user, fragment,
        /// upper case or other byte), which `URLComponents` reads: a list of thousands of URLs is read in a few
        /// milliseconds less. - Complexity: O(length).
        static func plainParse(_ text: String) -> Parsed? {
            let bytes = Array(text.utf8)
            var index: Int
            let isHTTPS: Bool
            if bytes.starts(with: "https://".utf8) {
                (index, isHTTPS) = (8, true)
            } else if bytes.starts(with: "http://".utf8) {
                (index, isHTTPS) = (7, false)
            } else {
                return nil
            }
            let hostStart = index
            var labelStart = index
            while index < bytes.count, isHostByte(bytes[index]) {
                if bytes[index] == UInt8(ascii: ".") {
                    guard index > labelStart else { return nil }  // an empty label
                    labelStart = index + 1
                } else if bytes[index] == UInt8(ascii: "-"), index == labelStart {
                    return nil
                }
                index += 1
            }
            guard index > labelStart else { return nil }  // an empty host, or an empty last label
            let host = String(decoding: bytes[hostStart..<index], as: UTF8.self)
            var port: Int?
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
                index += 1
                let digitsStart = index
                var value = 0
                while index < bytes.count, index - digitsStart < 6, let digit = hexDigit(bytes[index]), digit < 10 {
                    value = value * 10 + Int(digit)
                    index += 1
                }
                guard (1...5).contains(index - digitsStart), (1...65_535).contains(value) else { return nil }
                port = value
            }
            let pathStart = index
            while index < bytes.count, isPathByte(bytes[index]) { index += 1 }
            guard pathStart == index || bytes[pathStart] == UInt8(ascii: "/") else { return nil }
            let path = String(decoding: bytes[pathStart..<index], as: UTF8.self)
            var query: String?
            if index < bytes.count, bytes[index] == UInt8(ascii: "?") {
                index += 1
                let queryStart = index
                while index < bytes.count, isPathByte(bytes[index]) || bytes[index] == UInt8(ascii: "?") { index += 1 }
                query = String(decoding: bytes[queryStart..<index], as: UTF8.self)
            }
            guard index == bytes.count else { return nil }
            let scheme = isHTTPS ? "https" : "http"
            return Parsed(
                path: path, identity: identity(scheme: scheme, host: host, port: port, path: path, query: query))
        }

        private static func isHostByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"),
                UInt8(ascii: "."):
                true
            default: false
            }
        }

        /// An unreserved character, a sub-delimiter, `:`, `@` or `/` (RFC 3986's `pchar` without escapes, and `/`).
        private static func isPathByte(_ byte: UInt8) -> Bool {
            if isUnreserved(byte) { return true }
            return switch byte {
            case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
                UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
                UInt8(ascii: "="), UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"):
                true
            default: false
            }
        }
    }
#endif
