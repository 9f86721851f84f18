/// Text from outside the program (feed contents, file and column names, paths, error messages that quote them)
/// made safe to print on a terminal.
enum TerminalText {
    /// `text` with every character that could act on a terminal instead of showing written out in Swift's
    /// escape notation: C0 controls (`\n`, `\r`, `\t`, `\0` and `\u{1B}`-style for the rest, the escape
    /// character included), DEL and the C1 controls (`\u{7F}`…`\u{9F}`), and the bidirectional overrides and
    /// isolates (`\u{202A}`…`\u{202E}`, `\u{2066}`…`\u{2069}`) that can make a line read differently from what it
    /// holds. Everything else, including all other non-ASCII text, is kept as is. A backslash stays a single
    /// backslash, so the result is for reading, not for parsing back. - Complexity: O(n).
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isActive) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard isActive(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\0": out += "\\0"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// Whether a terminal may act on `scalar` rather than show it.
    static func isActive(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
