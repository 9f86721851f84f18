#if CLI
    import SwitchyardTransit

    /// Text from outside the program (feed contents, file and column names, paths, error messages that quote them)
    /// made safe to print on a terminal.
    enum TerminalText {
        /// `text` with every character that could act on a terminal instead of showing (``isActive(_:)``: C0 and C1
        /// controls, DEL, the bidirectional overrides and isolates) written out in Swift's escape notation: `\n`, `\r`,
        /// `\t`, `\0`, and `\u{1B}`-style for the rest. Everything else, including all other non-ASCII text, is kept
        /// as is. A backslash stays a single backslash, so the result is for reading, not for parsing back.
        /// - Complexity: O(n).
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

        /// Whether a terminal may act on `scalar` rather than show it (``SwitchyardTransit/actsOnTerminal(_:)``).
        static func isActive(_ scalar: Unicode.Scalar) -> Bool { actsOnTerminal(scalar) }
    }
#endif
