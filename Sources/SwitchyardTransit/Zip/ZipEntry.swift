/// How an entry's bytes are stored in a zip archive: the methods this package reads and writes.
///
/// Other methods (bzip2, LZMA, Zstandard, …) are listed by ``ZipArchive`` with a `nil` ``ZipEntry/method`` and
/// rejected by ``ZipArchive/openEntry(_:bufferSize:)``.
public enum CompressionMethod: UInt16, Sendable, Hashable {
    /// Method 0: the bytes as they are.
    case stored = 0
    /// Method 8: raw deflate (RFC 1951).
    case deflate = 8
}

/// One file or directory listed in a zip archive's central directory.
///
/// A plain value (`Sendable`, `Hashable`): sizes, CRC-32 and method are as the central directory states them, with
/// ZIP64 values applied. They are checked only when the entry is read: ``ZipEntryReader`` verifies the byte count and
/// the CRC-32 at the end of the data.
public struct ZipEntry: Sendable, Hashable {
    /// The path inside the archive, `/`-separated, decoded as UTF-8 (invalid bytes become U+FFFD).
    /// Directories end with `/`.
    public let path: String
    /// Bytes of stored data in the archive (after compression).
    public let compressedSize: UInt64
    /// Bytes the entry holds once decompressed.
    public let uncompressedSize: UInt64
    /// The CRC-32 of the uncompressed bytes, as recorded in the central directory.
    public let crc32: UInt32
    /// The compression method, or `nil` when it is one this package cannot read (see ``methodCode``).
    public let method: CompressionMethod?
    /// The raw method number from the central directory (0 stored, 8 deflate, 12 bzip2, 14 LZMA, …).
    public let methodCode: UInt16
    /// The general-purpose flags (bit 0: encrypted, bit 3: data descriptor, bit 11: UTF-8 name).
    let flags: UInt16
    /// Where the entry's local file header starts.
    let localHeaderOffset: UInt64

    init(
        path: String, compressedSize: UInt64, uncompressedSize: UInt64, crc32: UInt32, methodCode: UInt16,
        flags: UInt16, localHeaderOffset: UInt64
    ) {
        self.path = path
        self.compressedSize = compressedSize
        self.uncompressedSize = uncompressedSize
        self.crc32 = crc32
        self.method = CompressionMethod(rawValue: methodCode)
        self.methodCode = methodCode
        self.flags = flags
        self.localHeaderOffset = localHeaderOffset
    }

    /// Whether the entry is a directory (its path ends with `/`). Directories hold no data.
    public var isDirectory: Bool { path.hasSuffix("/") }

    /// Whether the entry is encrypted (flag bit 0); encrypted entries cannot be opened.
    public var isEncrypted: Bool { flags & 1 != 0 }

    /// A readable name for ``methodCode``, for error messages.
    var methodName: String {
        switch methodCode {
        case 0: "stored"
        case 8: "deflate"
        case 9: "deflate64"
        case 12: "bzip2"
        case 14: "LZMA"
        case 93: "Zstandard"
        case 95: "xz"
        case 99: "AES-encrypted"
        default: "method \(methodCode)"
        }
    }
}
