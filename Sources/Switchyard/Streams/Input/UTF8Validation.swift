#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// UTF-8 validation that reports where the first bad byte is (the standard library only says whether).
enum UTF8Validation {
    /// Whether every byte is ASCII: 32 bytes per step, then one overlapping 8-byte load for the tail. O(count).
    @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        let high: UInt64 = 0x8080_8080_8080_8080
        guard count >= 8 else {
            var index = 0
            while index < count {
                if base.load(fromByteOffset: index, as: UInt8.self) >= 0x80 { return false }
                index += 1
            }
            return true
        }
        var index = 0
        while index + 32 <= count {
            let word =
                base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                | base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                | base.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self)
                | base.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)
            if word & high != 0 { return false }
            index += 32
        }
        while index + 8 <= count {
            if base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & high != 0 { return false }
            index += 8
        }
        return base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) & high == 0
    }

    /// Whether every byte is ASCII, and whether any byte is NUL. One pass of 32 bytes per step that answers both
    /// for the common case (ASCII without NUL); only a record holding either pays for a second look. O(count).
    @inline(__always)
    static func classify(_ bytes: UnsafeRawBufferPointer) -> (isASCII: Bool, hasNUL: Bool) {
        guard let base = bytes.baseAddress else { return (true, false) }
        let count = bytes.count
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        // `((w - 0x01…) & ~w) | w` has a byte's high bit set exactly when some byte of `w` is 0 or above 0x7F (a
        // byte of 1…0x7F minus one never borrows, nor sets its high bit).
        @inline(__always) func special(_ word: UInt64) -> UInt64 { ((word &- ones) & ~word) | word }
        var flags: UInt64 = 0
        if count >= 8 {
            var index = 0
            while index + 32 <= count {
                flags |=
                    special(base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    | special(base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
                    | special(base.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self))
                    | special(base.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self))
                index += 32
            }
            while index + 8 <= count {
                flags |= special(base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                index += 8
            }
            flags |= special(base.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        } else {
            var index = 0
            while index < count {
                let byte = base.load(fromByteOffset: index, as: UInt8.self)
                if byte == 0 || byte >= 0x80 { flags = high }
                index += 1
            }
        }
        if flags & high == 0 { return (true, false) }
        return (isASCII(bytes), memchr(base, 0, count) != nil)
    }

    /// The offset of the first byte that starts an invalid sequence (overlong forms, surrogates, code points past
    /// U+10FFFF and truncated sequences included), or nil if all of `bytes` is valid UTF-8. O(count).
    static func firstInvalidOffset(in bytes: UnsafeRawBufferPointer) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upper = 0x9F
            case 0xF0:
                length = 4
                lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upper = 0x8F
            default: return index
            }
            guard index + length <= count else { return index }
            let second = bytes[index + 1]
            guard second >= lower && second <= upper else { return index }
            for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return index }
            index += length
        }
        return nil
    }
}
