#if Images
    /// The file format of one disk cache entry:
    ///
    /// ```
    /// "SYTHUMB1"                      8 bytes
    /// key length, key (UTF-8)         UInt32 little-endian, then the bytes
    /// format, width, height           UInt8 (ImageFormat's index), UInt32, UInt32
    /// payload length, payload         UInt64, then the encoded thumbnail
    /// checksum                        UInt64: FNV-1a over every byte before it
    /// ```
    enum ThumbnailEntry {
        static let magic = Array("SYTHUMB1".utf8)

        static func encode(_ thumbnail: Thumbnail, key: String) -> [UInt8] {
            let keyBytes = Array(key.utf8)
            var bytes = magic
            bytes.reserveCapacity(magic.count + 4 + keyBytes.count + 9 + 8 + thumbnail.bytes.count + 8)
            append(UInt64(keyBytes.count), width: 4, to: &bytes)
            bytes += keyBytes
            bytes.append(UInt8(ImageFormat.allCases.firstIndex(of: thumbnail.format)!))
            append(UInt64(thumbnail.width), width: 4, to: &bytes)
            append(UInt64(thumbnail.height), width: 4, to: &bytes)
            append(UInt64(thumbnail.bytes.count), width: 8, to: &bytes)
            bytes += thumbnail.bytes
            append(hashes(bytes).0, width: 8, to: &bytes)
            return bytes
        }

        /// The thumbnail in `bytes` if they are a whole entry for `key` (nil for another key, or a torn file).
        static func decode(_ bytes: [UInt8], key: String) -> Thumbnail? {
            guard !isTorn(bytes), bytes.count >= magic.count + 4 + 17 + 8 else { return nil }
            var offset = magic.count
            let keyLength = Int(read(bytes, &offset, width: 4))
            guard offset + keyLength + 17 <= bytes.count, Array(bytes[offset..<(offset + keyLength)]) == Array(key.utf8)
            else { return nil }
            offset += keyLength
            let formatIndex = Int(bytes[offset])
            offset += 1
            guard formatIndex < ImageFormat.allCases.count else { return nil }
            let width = Int(read(bytes, &offset, width: 4))
            let height = Int(read(bytes, &offset, width: 4))
            guard let length = Int(exactly: read(bytes, &offset, width: 8)), length == bytes.count - offset - 8 else {
                return nil  // a crafted entry with a valid checksum must not crash the reader
            }
            return Thumbnail(
                bytes: Array(bytes[offset..<(offset + length)]), format: ImageFormat.allCases[formatIndex],
                width: width, height: height)
        }

        /// Whether `bytes` fail the entry's checks: too short, not the magic, or a checksum that does not match.
        static func isTorn(_ bytes: [UInt8]) -> Bool {
            guard bytes.count >= magic.count + 8, bytes.starts(with: magic) else { return true }
            var offset = bytes.count - 8
            return read(bytes, &offset, width: 8) != hashes(bytes[..<(bytes.count - 8)]).0
        }

        /// Two 64-bit FNV-1a hashes of `bytes`, with different offset bases (for file names; the first is the
        /// checksum). - Complexity: O(n).
        static func hashes(_ bytes: some Collection<UInt8>) -> (UInt64, UInt64) {
            var first: UInt64 = 0xcbf2_9ce4_8422_2325
            var second: UInt64 = 0x6c62_272e_07bb_0142
            for byte in bytes {
                first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
                second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            return (first, second)
        }

        private static func append(_ value: UInt64, width: Int, to bytes: inout [UInt8]) {
            for index in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
        }

        private static func read(_ bytes: [UInt8], _ offset: inout Int, width: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in 0..<width { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
            offset += width
            return value
        }
    }
#endif
