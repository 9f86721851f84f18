#if HTTP
    /// The scheme, host and port of an absolute `http` or `https` URL, read without a full URL parser (the client
    /// library parses the URL again, in full, when it sends the request; this only names the host for its limits).
    enum URLAuthority {
        /// What is wrong with a URL, in words that name it as a log line shows it (see
        /// ``HTTPSession/loggableURL(_:)``: not its user information, query or fragment).
        struct Problem: Error, CustomStringConvertible {
            var description: String

            /// `"<text>" <what>`, `text` shown without its user information, query and fragment.
            init(_ text: String, _ what: String) {
                description = "\"\(HTTPSession.loggableURL(text))\" \(what)"
            }

            init(description: String) {
                self.description = description
            }
        }

        /// The host of `text`, or why it has none a request can go to. Works on the UTF-8 bytes: one pass for spaces
        /// and control characters, one up to the end of the authority; allocates only the host's (lower-cased) copy.
        /// - Complexity: O(length).
        static func parse(_ text: String) -> Result<HostKey, Problem> {
            let bytes = text.utf8
            if bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
                return .failure(
                    Problem(text, "is not a URL (it holds a space or a control character)"))
            }
            guard let separator = schemeSeparator(in: text[...].utf8) else {
                if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), isScheme(bytes[..<colon]) {
                    return .failure(unsupported(text[..<colon]))
                }
                return .failure(Problem(text, "has no scheme (http or https)"))
            }
            let scheme = bytes[..<separator]
            guard isScheme(scheme) else { return .failure(Problem(text, "is not a URL")) }
            let isHTTPS: Bool
            if equalsLowercased(scheme, "https") {
                isHTTPS = true
            } else if equalsLowercased(scheme, "http") {
                isHTTPS = false
            } else {
                return .failure(unsupported(text[..<separator]))
            }
            let rest = bytes[bytes.index(separator, offsetBy: 3)...]
            var authority = rest.prefix {
                $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#")
            }
            if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
                authority = authority[authority.index(after: at)...]
            }
            var host = authority
            var portText: Substring.UTF8View.SubSequence?
            if authority.first == UInt8(ascii: "[") {
                guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else {
                    return .failure(Problem(text, "has an unclosed IPv6 address"))
                }
                host = authority[authority.index(after: authority.startIndex)..<close]
                let after = authority[authority.index(after: close)...]
                if after.first == UInt8(ascii: ":") { portText = after.dropFirst() }
            } else if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
                host = authority[..<colon]
                portText = authority[authority.index(after: colon)...]
            }
            guard !host.isEmpty else { return .failure(Problem(text, "has no host")) }
            var port = isHTTPS ? 443 : 80
            if let portText, !portText.isEmpty {
                // Any number of digits (RFC 3986 §3.2.3: leading zeros are allowed); the sum stops growing past 65,535.
                guard portText.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                    case let number = portText.reduce(0, { min($0 * 10 + Int($1 - UInt8(ascii: "0")), 65_536) }),
                    (1...65_535).contains(number)
                else {
                    return .failure(Problem(text, "has an invalid port \"\(Substring(portText))\""))
                }
                port = number
            }
            let name = Substring(host)
            let lowered =
                name.utf8.contains(where: { ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) || $0 >= 0x80 })
                ? name.lowercased() : String(name)
            return .success(HostKey(scheme: isHTTPS ? "https" : "http", host: lowered, port: port))
        }

        /// The index of the first `://`. - Complexity: O(length).
        static func schemeSeparator(in bytes: Substring.UTF8View) -> String.Index? {
            var index = bytes.startIndex
            while let colon = bytes[index...].firstIndex(of: UInt8(ascii: ":")) {
                let after = bytes[bytes.index(after: colon)...]
                if after.starts(with: "//".utf8) { return colon }
                index = bytes.index(after: colon)
            }
            return nil
        }

        /// Whether the ASCII bytes `text`, lowercased, are `word`.
        private static func equalsLowercased(_ text: Substring.UTF8View.SubSequence, _ word: StaticString) -> Bool {
            guard text.count == word.utf8CodeUnitCount else { return false }
            return zip(text, UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)).allSatisfy {
                ($0 | 0x20) == $1
            }
        }

        /// RFC 3986 §3.1: a letter, then letters, digits, `+`, `-` or `.`.
        private static func isScheme(_ text: Substring.UTF8View.SubSequence) -> Bool {
            func isLetter(_ byte: UInt8) -> Bool {
                (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            }
            guard let first = text.first, isLetter(first) else { return false }
            return text.allSatisfy {
                isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            }
        }

        private static func unsupported(_ scheme: Substring) -> Problem {
            Problem(description: "unsupported scheme \"\(scheme.lowercased())\" (http and https are)")
        }
    }
#endif
