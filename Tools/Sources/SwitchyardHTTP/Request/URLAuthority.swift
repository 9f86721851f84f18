/// The scheme, host and port of an absolute `http` or `https` URL, read without a full URL parser (the client
/// library parses the URL again, in full, when it sends the request; this only names the host for its limits).
enum URLAuthority {
    /// What is wrong with a URL, in words that name it.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The host of `text`, or why it has none a request can go to.
    static func parse(_ text: String) -> Result<HostKey, Problem> {
        if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return .failure(Problem(description: "\"\(text)\" is not a URL (it holds a space or a control character)"))
        }
        guard let separator = schemeSeparator(in: text) else {
            if let colon = text.firstIndex(of: ":"), isScheme(text[..<colon]) {
                return .failure(unsupported(text[..<colon]))
            }
            return .failure(Problem(description: "\"\(text)\" has no scheme (http or https)"))
        }
        let scheme = text[..<separator.lowerBound]
        guard isScheme(scheme) else { return .failure(Problem(description: "\"\(text)\" is not a URL")) }
        let lowered = scheme.lowercased()
        guard lowered == "http" || lowered == "https" else { return .failure(unsupported(scheme)) }
        let rest = text[separator.upperBound...]
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                return .failure(Problem(description: "\"\(text)\" has an unclosed IPv6 address"))
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { return .failure(Problem(description: "\"\(text)\" has no host")) }
        var port = lowered == "https" ? 443 : 80
        if let portText, !portText.isEmpty {
            guard portText.allSatisfy(\.isASCIIDigit), let number = Int(portText), (1...65_535).contains(number)
            else { return .failure(Problem(description: "\"\(text)\" has an invalid port \"\(portText)\"")) }
            port = number
        }
        return .success(HostKey(scheme: lowered, host: host.lowercased(), port: port))
    }

    /// The range of the first `://`.
    private static func schemeSeparator(in text: String) -> Range<String.Index>? {
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("://") { return index..<text.index(index, offsetBy: 3) }
            index = text.index(after: index)
        }
        return nil
    }

    /// RFC 3986 §3.1: a letter, then letters, digits, `+`, `-` or `.`.
    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }

    private static func unsupported(_ scheme: Substring) -> Problem {
        Problem(description: "unsupported scheme \"\(scheme.lowercased())\" (http and https are)")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
