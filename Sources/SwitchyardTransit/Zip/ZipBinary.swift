/// The four-byte signatures that start each zip record (APPNOTE 4.3), as read little-endian.
package enum ZipSignature {
    package static let localHeader: UInt32 = 0x0403_4B50
    package static let centralHeader: UInt32 = 0x0201_4B50
    package static let dataDescriptor: UInt32 = 0x0807_4B50
    package static let endOfCentralDirectory: UInt32 = 0x0605_4B50
    package static let zip64EndOfCentralDirectory: UInt32 = 0x0606_4B50
    package static let zip64Locator: UInt32 = 0x0706_4B50
}

/// Record sizes and limits from APPNOTE.
package enum ZipLimits {
    /// Fixed part of a local file header.
    package static let localHeaderSize = 30
    /// Fixed part of a central directory header.
    package static let centralHeaderSize = 46
    /// End-of-central-directory record without its comment.
    package static let endSize = 22
    /// ZIP64 end-of-central-directory locator.
    package static let zip64LocatorSize = 20
    /// ZIP64 end-of-central-directory record without its extensible data.
    package static let zip64EndSize = 56
    /// Header id of the ZIP64 extended information extra field.
    package static let zip64ExtraID: UInt16 = 0x0001
    /// A 32-bit field holding this value means "see the ZIP64 record".
    package static let marker32: UInt32 = 0xFFFF_FFFF
    /// A 16-bit field holding this value means "see the ZIP64 record".
    package static let marker16: UInt16 = 0xFFFF
    /// The most bytes handed to zlib at once (its lengths are 32-bit; `Int` may be 32-bit too).
    package static let zlibChunk = Int(clamping: UInt32.max)
}

/// Little-endian fields at byte offsets in a record read from an archive. The caller checks the length first.
package struct ZipFields {
    package let bytes: ArraySlice<UInt8>

    package init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
    package init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    package func u16(_ offset: Int) -> UInt16 {
        let start = bytes.startIndex + offset
        return UInt16(bytes[start]) | UInt16(bytes[start + 1]) << 8
    }

    package func u32(_ offset: Int) -> UInt32 {
        UInt32(u16(offset)) | UInt32(u16(offset + 2)) << 16
    }

    package func u64(_ offset: Int) -> UInt64 {
        UInt64(u32(offset)) | UInt64(u32(offset + 4)) << 32
    }
}
