/// The four-byte signatures that start each zip record (APPNOTE 4.3), as read little-endian.
enum ZipSignature {
    static let localHeader: UInt32 = 0x0403_4B50
    static let centralHeader: UInt32 = 0x0201_4B50
    static let dataDescriptor: UInt32 = 0x0807_4B50
    static let endOfCentralDirectory: UInt32 = 0x0605_4B50
    static let zip64EndOfCentralDirectory: UInt32 = 0x0606_4B50
    static let zip64Locator: UInt32 = 0x0706_4B50
}

/// Record sizes and limits from APPNOTE.
enum ZipLimits {
    /// Fixed part of a local file header.
    static let localHeaderSize = 30
    /// Fixed part of a central directory header.
    static let centralHeaderSize = 46
    /// End-of-central-directory record without its comment.
    static let endSize = 22
    /// ZIP64 end-of-central-directory locator.
    static let zip64LocatorSize = 20
    /// ZIP64 end-of-central-directory record without its extensible data.
    static let zip64EndSize = 56
    /// Header id of the ZIP64 extended information extra field.
    static let zip64ExtraID: UInt16 = 0x0001
    /// A 32-bit field holding this value means "see the ZIP64 record".
    static let marker32: UInt32 = 0xFFFF_FFFF
    /// A 16-bit field holding this value means "see the ZIP64 record".
    static let marker16: UInt16 = 0xFFFF
    /// The most bytes handed to zlib at once (its lengths are 32-bit; `Int` may be 32-bit too).
    static let zlibChunk = Int(clamping: UInt32.max)
}

/// Little-endian fields at byte offsets in a record read from an archive. The caller checks the length first.
struct ZipFields {
    let bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    func u16(_ offset: Int) -> UInt16 {
        let start = bytes.startIndex + offset
        return UInt16(bytes[start]) | UInt16(bytes[start + 1]) << 8
    }

    func u32(_ offset: Int) -> UInt32 {
        UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16
    }

    func u64(_ offset: Int) -> UInt64 {
        UInt64(u32(offset)) | UInt64(u32(offset + 4)) << 32
    }
}

/// Builds a record from little-endian fields, for the writer.
struct ZipRecord {
    private(set) var bytes: [UInt8] = []

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func u32(_ value: UInt32) {
        u16(UInt16(truncatingIfNeeded: value))
        u16(UInt16(truncatingIfNeeded: value >> 16))
    }

    mutating func u64(_ value: UInt64) {
        u32(UInt32(truncatingIfNeeded: value))
        u32(UInt32(truncatingIfNeeded: value >> 32))
    }

    mutating func append(_ other: [UInt8]) { bytes += other }
}
