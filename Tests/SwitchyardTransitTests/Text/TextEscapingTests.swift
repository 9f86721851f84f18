import Testing

@_spi(ImportDestinations) @testable import SwitchyardTransit

@Suite("Text escaping: what a terminal could act on, and its JSON form")
struct TextEscapingTests {
    @Test("exactly the C0 and C1 controls, DEL and the bidirectional overrides and isolates act on a terminal")
    func activeCharacters() {
        let active: [ClosedRange<UInt32>] = [0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069]
        for value in UInt32(0)...0x2100 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(actsOnTerminal(scalar) == active.contains { $0.contains(value) }, "U+\(paddedHex(value, width: 4))")
        }
        #expect(!actsOnTerminal("é"))
        #expect(!actsOnTerminal("\u{1F68C}"))
    }

    @Test("hex digits are padded to the width asked for, and never cut")
    func paddedDigits() {
        #expect(paddedHex(0x1B, width: 4) == "001b")
        #expect(paddedHex(0x1B, width: 2, uppercase: true) == "1B")
        #expect(paddedHex(0x7, width: 2, uppercase: true) == "07")
        #expect(paddedHex(0x1F68C, width: 4) == "1f68c")
    }

    @Test("JSON strings escape what JSON requires and every character a terminal could act on, nothing else")
    func json() {
        #expect(jsonString("a\"b\\c\nd\re\tf") == #""a\"b\\c\nd\re\tf""#)
        #expect(jsonString("\u{1B}[2J\u{7F}\u{9B}\u{202E}\u{2066}") == #""\u001b[2J\u007f\u009b\u202e\u2066""#)
        #expect(jsonString("Zürich Hbf 🚌") == "\"Zürich Hbf 🚌\"")
    }
}
