// Which characters of text from outside the program a terminal could act on, and the escapes the JSON output and
// the command-line tool write them as. One definition, so the JSON summaries and what the tool prints never
// disagree on what is safe to show.

/// Whether a terminal may act on `scalar` rather than show it: the C0 controls (`\u{0}`…`\u{1F}`, the escape
/// character included), DEL and the C1 controls (`\u{7F}`…`\u{9F}`), and the bidirectional overrides and isolates
/// (`\u{202A}`…`\u{202E}`, `\u{2066}`…`\u{2069}`) that can make a line read differently from what it holds.
/// - Complexity: O(1).
public func actsOnTerminal(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
}

/// `value` in hexadecimal, zero-padded to at least `width` digits (`paddedHex(0x1B, width: 4)` is `"001b"`).
public func paddedHex(_ value: UInt32, width: Int, uppercase: Bool = false) -> String {
    let digits = String(value, radix: 16, uppercase: uppercase)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// `text` as a JSON string literal. Besides what JSON requires (quotes, backslashes, C0 controls), every other
/// character a terminal could act on (``actsOnTerminal(_:)``) is written as `\uXXXX` too: the JSON is often read
/// on a terminal, and it decodes to the same text.
func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where actsOnTerminal(scalar): out += "\\u" + paddedHex(scalar.value, width: 4)
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
