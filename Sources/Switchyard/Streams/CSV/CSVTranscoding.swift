/// Decoding of single-byte encodings into UTF-8 (``CSVOptions/TextEncoding``), for fields that are not UTF-8.
enum CSVTranscoding {
    /// Windows-1252's code points for bytes 0x80–0x9F (0xA0–0xFF equal their Latin-1 code points). The five bytes
    /// the code page leaves undefined map to the C1 controls of the same value, as in the WHATWG encoding standard.
    static let windows1252High: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D,
        0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// The most UTF-8 bytes one input byte can become.
    static let maximumExpansion = 3

    /// Writes `bytes`, decoded as `encoding` (Windows-1252 or Latin-1), as UTF-8 at `output`, which has room for
    /// `bytes.count * maximumExpansion` bytes; returns the number of bytes written. O(count).
    static func decode(
        _ bytes: UnsafeRawBufferPointer, windows1252: Bool, into output: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var written = 0
        for byte in bytes {
            if byte < 0x80 {
                output[written] = byte
                written += 1
                continue
            }
            let scalar = windows1252 && byte < 0xA0 ? UInt32(windows1252High[Int(byte - 0x80)]) : UInt32(byte)
            if scalar < 0x800 {
                output[written] = UInt8(0xC0 | (scalar >> 6))
                output[written + 1] = UInt8(0x80 | (scalar & 0x3F))
                written += 2
            } else {
                output[written] = UInt8(0xE0 | (scalar >> 12))
                output[written + 1] = UInt8(0x80 | ((scalar >> 6) & 0x3F))
                output[written + 2] = UInt8(0x80 | (scalar & 0x3F))
                written += 3
            }
        }
        return written
    }
}
