import CSwitchyardZlib

/// Streams one entry's uncompressed bytes out of a zip archive: copies stored data, inflates deflated data.
///
/// Made by ``ZipArchive/openEntry(_:bufferSize:)``. Memory is fixed: one input buffer (deflate only) and zlib's
/// inflate state, whatever the entry's size. When the data ends, the byte count and the CRC-32 are checked against
/// the central directory before the final bytes are handed out, so a damaged entry throws instead of silently
/// returning wrong data (bytes returned by earlier reads cannot be taken back: discard them on error).
///
/// Not thread-safe and not `Sendable`: one caller at a time. Reads block on the file system. Releasing the reader
/// frees zlib's state and closes its descriptor.
public final class ZipEntryReader {
    /// The entry being read.
    public let entry: ZipEntry
    /// Uncompressed bytes returned so far (for progress); equals `entry.uncompressedSize` at the end.
    public private(set) var bytesProduced: UInt64 = 0

    private enum State {
        case reading
        case finished
        case failed(ZipError)
    }

    private let archive: String
    private let file: ZipFileDescriptor
    /// Where the next compressed byte is read from, and how many are left.
    private var inputOffset: UInt64
    private var inputRemaining: UInt64
    private var crc: UInt32 = 0
    private var state = State.reading
    /// zlib's stream (deflate only). Heap-allocated: zlib keeps a pointer to it, so it must not move.
    private let stream: UnsafeMutablePointer<z_stream>?
    /// Compressed input (deflate only; empty for stored entries, which are read straight into the caller's buffer).
    private let input: UnsafeMutableRawBufferPointer

    init(archive: String, entry: ZipEntry, bufferSize: Int) throws(ZipError) {
        precondition(bufferSize > 0, "ZipEntryReader: bufferSize must be positive")
        func failure(_ message: String) -> ZipError { ZipError(archive: archive, entry: entry.path, message: message) }
        guard !entry.isEncrypted else { throw failure("encrypted entries are not supported") }
        guard let method = entry.method else {
            throw failure("unsupported compression method \(entry.methodName) (only stored and deflate can be read)")
        }
        guard method != .stored || entry.compressedSize == entry.uncompressedSize else {
            throw failure("stored entry with different compressed and uncompressed sizes (corrupt central directory)")
        }
        let file = try ZipFileDescriptor(readingFrom: archive)
        let fileSize = try file.size()
        let headerSize = UInt64(ZipLimits.localHeaderSize)
        guard entry.localHeaderOffset <= fileSize, fileSize - entry.localHeaderOffset >= headerSize else {
            throw failure("local header lies past the end of the file (truncated archive)")
        }
        let header = ZipFields(
            try file.readExactly(
                ZipLimits.localHeaderSize, at: entry.localHeaderOffset, what: "local header", entry: entry.path))
        guard header.u32(0) == ZipSignature.localHeader else {
            throw failure("bad local header signature (corrupt archive)")
        }
        let dataStart = entry.localHeaderOffset + headerSize + UInt64(header.u16(26)) + UInt64(header.u16(28))
        guard dataStart <= fileSize, entry.compressedSize <= fileSize - dataStart else {
            throw failure("data runs past the end of the file (truncated archive)")
        }
        file.adviseSequential()
        if method == .deflate {
            stream = try Self.makeInflateStream(failure)
            input = .allocate(byteCount: min(bufferSize, ZipLimits.zlibChunk), alignment: 16)
        } else {
            stream = nil
            input = UnsafeMutableRawBufferPointer(start: nil, count: 0)
        }
        self.archive = archive
        self.entry = entry
        self.file = file
        self.inputOffset = dataStart
        self.inputRemaining = entry.compressedSize
    }

    deinit {
        if let stream {
            inflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
        }
        input.deallocate()
    }

    private static func makeInflateStream(
        _ failure: (String) -> ZipError
    ) throws(ZipError) -> UnsafeMutablePointer<z_stream> {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Negative window bits: raw deflate, no zlib header (the zip format stores bare deflate streams).
        let result = inflateInit2_(stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard result == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw failure("cannot start zlib inflate (error \(result))")
        }
        return stream
    }

    /// Reads up to `buffer.count` uncompressed bytes into the start of `buffer` and returns how many; 0 only at the
    /// end of the entry (or for an empty `buffer`).
    ///
    /// At the end, checks the byte count and CRC-32 against the central directory. Throws ``ZipError`` naming the
    /// entry on a mismatch, truncated data, invalid deflate data (with zlib's message) or a read failure; once it
    /// has thrown, every later call throws the same error. Blocks on the file system.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch state {
        case .finished: return 0
        case .failed(let error): throw error
        case .reading: break
        }
        guard !buffer.isEmpty else { return 0 }
        do throws(ZipError) {
            return stream == nil ? try readStored(into: buffer) : try readDeflated(into: buffer)
        } catch {
            // Failures of the descriptor name only the archive; name the entry too.
            let named = ZipError(archive: archive, entry: entry.path, message: error.message)
            state = .failed(named)
            throw named
        }
    }

    private func readStored(into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
        let wanted = Int(min(UInt64(buffer.count), inputRemaining))
        guard wanted > 0 else {
            try verifyEnd()
            return 0
        }
        let target = UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted])
        let count = try file.readFully(into: target, at: inputOffset)
        guard count == wanted else { throw failure("data is cut short (truncated archive)") }
        inputOffset += UInt64(count)
        inputRemaining -= UInt64(count)
        try account(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        if inputRemaining == 0 { try verifyEnd() }
        return count
    }

    private func readDeflated(into buffer: UnsafeMutableRawBufferPointer) throws(ZipError) -> Int {
        guard let stream, let output = buffer.baseAddress else { return 0 }
        let capacity = UInt32(min(buffer.count, ZipLimits.zlibChunk))
        stream.pointee.next_out = output.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = capacity
        while true {
            if stream.pointee.avail_in == 0, inputRemaining > 0 { try refillInput(stream) }
            let result = inflate(stream, Z_NO_FLUSH)
            let count = Int(capacity - stream.pointee.avail_out)
            switch result {
            case Z_STREAM_END:
                try account(UnsafeRawBufferPointer(start: output, count: count))
                guard stream.pointee.avail_in == 0, inputRemaining == 0 else {
                    throw failure("deflate stream ends before the compressed size is used up (corrupt entry)")
                }
                try verifyEnd()
                return count
            case Z_OK where count > 0:
                try account(UnsafeRawBufferPointer(start: output, count: count))
                return count
            case Z_OK:
                continue  // consumed input without output yet
            case Z_BUF_ERROR where stream.pointee.avail_in == 0 && inputRemaining == 0:
                throw failure("compressed data ends before the deflate stream does (truncated or corrupt entry)")
            default:
                let detail = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(result)"
                throw failure("invalid deflate data: \(detail) (corrupt entry)")
            }
        }
    }

    private func refillInput(_ stream: UnsafeMutablePointer<z_stream>) throws(ZipError) {
        let wanted = Int(min(UInt64(input.count), inputRemaining))
        let target = UnsafeMutableRawBufferPointer(rebasing: input[..<wanted])
        let count = try file.readFully(into: target, at: inputOffset)
        guard count == wanted else { throw failure("compressed data is cut short (truncated archive)") }
        inputOffset += UInt64(count)
        inputRemaining -= UInt64(count)
        stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = UInt32(count)
    }

    /// Counts and checksums bytes about to be returned; throws as soon as there are more than declared.
    private func account(_ bytes: UnsafeRawBufferPointer) throws(ZipError) {
        crc = ZipCRC32.update(crc, with: bytes)
        bytesProduced += UInt64(bytes.count)
        guard bytesProduced <= entry.uncompressedSize else {
            throw failure(
                "more data than the \(entry.uncompressedSize) bytes the central directory states (corrupt entry)")
        }
    }

    private func verifyEnd() throws(ZipError) {
        guard bytesProduced == entry.uncompressedSize else {
            throw failure(
                "size mismatch: \(bytesProduced) bytes, but the central directory states \(entry.uncompressedSize)"
                    + " (corrupt entry)")
        }
        guard crc == entry.crc32 else { throw failure("CRC-32 mismatch (corrupt entry)") }
        state = .finished
    }

    private func failure(_ message: String) -> ZipError {
        ZipError(archive: archive, entry: entry.path, message: message)
    }
}
