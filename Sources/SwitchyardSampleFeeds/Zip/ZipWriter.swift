import CSwitchyardZlib
import SwitchyardTransit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a zip archive front to back, deflating each entry as its bytes arrive.
///
/// Call ``beginEntry(_:)``, `write(_:)` any number of times, ``endEntry()``, and finally ``finish()``, which
/// writes the central directory and closes the file. Each entry's CRC-32 and sizes go into a data descriptor after
/// its data (flag bit 3), so nothing is rewritten and the file is written strictly front to back; ZIP64 records are
/// added where sizes, offsets or the entry count exceed the 32/16-bit fields. The output is readable by
/// `ZipArchive`, Info-ZIP `unzip` and Python's `zipfile`.
///
/// Memory: a 64 KiB output buffer and zlib's deflate state (about 256 KiB at the default memory level), plus
/// about 60 bytes + the path per entry for the central directory. Not thread-safe and not `Sendable`: one caller at a
/// time. Calls block on the file system. I/O and zlib failures throw `ZipError` and leave the writer failed
/// (every later call throws); misuse (no open entry, a duplicate path) throws without harming the archive. An
/// archive released without ``finish()`` is left incomplete. The file is not `fsync`ed.
public final class ZipWriter {
    /// The archive's path, as given to ``init(path:compressionLevel:forceZip64:)``.
    public let path: String

    private struct CentralRecord {
        let name: [UInt8]
        let flags: UInt16
        let method: UInt16
        let time: UInt16
        let date: UInt16
        var crc: UInt32 = 0
        var compressedSize: UInt64 = 0
        var uncompressedSize: UInt64 = 0
        let localHeaderOffset: UInt64
        let isDirectory: Bool
    }

    private struct OpenEntry {
        let path: String
        var record: CentralRecord
        let dataStart: UInt64
    }

    private enum State {
        case open
        case finished
        case failed(ZipError)
    }

    private let file: ZipFileDescriptor
    private let forceZip64: Bool
    /// zlib's stream, reset for each entry. Heap-allocated: zlib keeps a pointer to it, so it must not move.
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer
    private var outputCount = 0
    /// Bytes emitted so far (written or still in `output`): the offset of the next byte.
    private var offset: UInt64 = 0
    private var records: [CentralRecord] = []
    private var paths: Set<String> = []
    private var current: OpenEntry?
    private var state = State.open

    /// Creates (or truncates) the file at `path` and prepares to deflate at `compressionLevel` (0 none … 9 best,
    /// -1 zlib's default; 1, the default, is fastest). With `forceZip64`, every entry gets a ZIP64 extra field and
    /// the archive ZIP64 end records even where the 32/16-bit fields would do: small archives that exercise a
    /// reader's ZIP64 paths. Throws `ZipError` if the level is out of range or the file cannot be created.
    public init(path: String, compressionLevel: Int32 = 1, forceZip64: Bool = false) throws(ZipError) {
        guard (-1...9).contains(compressionLevel) else {
            throw ZipError(archive: path, message: "compression level \(compressionLevel) is not in -1...9")
        }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let result = deflateInit2_(
            stream, compressionLevel, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard result == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw ZipError(archive: path, message: "cannot start zlib deflate (error \(result))")
        }
        let file: ZipFileDescriptor
        do throws(ZipError) {
            file = try ZipFileDescriptor(writingTo: path)
        } catch {
            deflateEnd(stream)
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw error
        }
        self.path = path
        self.file = file
        self.forceZip64 = forceZip64
        self.stream = stream
        self.output = .allocate(byteCount: 64 * 1024, alignment: 16)
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
    }

    /// Starts an entry at `path` (`/`-separated, UTF-8; a path ending in `/` is a directory, which takes no data),
    /// ending the open entry first. Stamped with the current local time.
    ///
    /// Throws `ZipError` if the path is empty, longer than 65,535 UTF-8 bytes or already used, after ``finish()``,
    /// or if writing fails.
    public func beginEntry(_ path: String) throws {
        try checkOpen(entry: path)
        if current != nil { try endEntry() }
        let name = Array(path.utf8)
        guard !name.isEmpty, name.count <= Int(UInt16.max) else {
            throw misuse(path, "entry path must be 1 to 65,535 UTF-8 bytes")
        }
        guard !paths.contains(path) else { throw misuse(path, "an entry with this path was already written") }
        let isDirectory = path.hasSuffix("/")
        let utf8Flag: UInt16 = name.allSatisfy { $0 < 0x80 } ? 0 : 1 << 11
        let (time, date) = Self.dosTimeAndDate()
        let record = CentralRecord(
            name: name, flags: utf8Flag | (isDirectory ? 0 : 1 << 3), method: isDirectory ? 0 : 8, time: time,
            date: date, localHeaderOffset: offset, isDirectory: isDirectory)
        var header = ZipRecord()
        header.u32(ZipSignature.localHeader)
        header.u16(20)  // version needed: 2.0 (deflate)
        header.u16(record.flags)
        header.u16(record.method)
        header.u16(time)
        header.u16(date)
        header.u32(0)  // CRC-32 and sizes: in the data descriptor (or none for a directory)
        header.u32(0)
        header.u32(0)
        header.u16(UInt16(name.count))
        header.u16(0)  // extra field length
        header.append(name)
        try guarded(path) { () throws(ZipError) in
            guard deflateReset(stream) == Z_OK else { throw ZipError(archive: self.path, message: "zlib reset failed") }
            try emit(header.bytes)
        }
        paths.insert(path)
        current = OpenEntry(path: path, record: record, dataStart: offset)
    }

    /// Deflates `bytes` into the open entry. Throws `ZipError` if no entry is open, the entry is a directory, or
    /// writing fails. O(`bytes.count`); does not keep `bytes`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        try checkOpen(entry: current?.path)
        guard let entry = current else { throw misuse(nil, "no entry is open (call beginEntry first)") }
        guard !entry.record.isDirectory else { throw misuse(entry.path, "a directory entry cannot hold data") }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        try guarded(entry.path) { () throws(ZipError) in
            var done = 0
            while done < bytes.count {  // zlib takes 32-bit lengths
                let chunk = min(bytes.count - done, ZipLimits.zlibChunk)
                let next = (base + done).assumingMemoryBound(to: Bytef.self)
                stream.pointee.next_in = UnsafeMutablePointer(mutating: next)  // zlib only reads it
                stream.pointee.avail_in = UInt32(chunk)
                try runDeflate(flush: Z_NO_FLUSH)
                done += chunk
            }
        }
        current?.record.crc = ZipCRC32.update(entry.record.crc, with: bytes)
        current?.record.uncompressedSize += UInt64(bytes.count)
    }

    /// Deflates `bytes` into the open entry; see `write(_:)`.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Ends the open entry: finishes its deflate stream and writes its data descriptor. Does nothing when no entry
    /// is open. Throws `ZipError` if writing fails or after ``finish()``.
    public func endEntry() throws {
        try checkOpen(entry: current?.path)
        guard let entry = current else { return }
        try guarded(entry.path) { () throws(ZipError) in
            if entry.record.isDirectory {
                records.append(entry.record)
            } else {
                stream.pointee.avail_in = 0
                try runDeflate(flush: Z_FINISH)
                var record = entry.record
                record.compressedSize = offset - entry.dataStart
                let zip64 =
                    record.compressedSize >= UInt64(ZipLimits.marker32)
                    || record.uncompressedSize >= UInt64(ZipLimits.marker32)
                var descriptor = ZipRecord()
                descriptor.u32(ZipSignature.dataDescriptor)
                descriptor.u32(record.crc)
                if zip64 {
                    descriptor.u64(record.compressedSize)
                    descriptor.u64(record.uncompressedSize)
                } else {
                    descriptor.u32(UInt32(record.compressedSize))
                    descriptor.u32(UInt32(record.uncompressedSize))
                }
                try emit(descriptor.bytes)
                records.append(record)
            }
        }
        current = nil
    }

    /// Ends the open entry, writes the central directory and end records (ZIP64 ones when needed), and closes the
    /// file. Throws `ZipError` if writing or closing fails, or when called twice. O(number of entries).
    public func finish() throws {
        try endEntry()
        try guarded(nil) { () throws(ZipError) in
            let directoryStart = offset
            for record in records { try emit(centralHeader(for: record)) }
            let directorySize = offset - directoryStart
            let count = UInt64(records.count)
            let marker = UInt64(ZipLimits.marker32)
            let zip64 =
                forceZip64 || count >= UInt64(ZipLimits.marker16) || directoryStart >= marker
                || directorySize >= marker
            if zip64 {
                let recordStart = offset
                var end64 = ZipRecord()
                end64.u32(ZipSignature.zip64EndOfCentralDirectory)
                end64.u64(UInt64(ZipLimits.zip64EndSize - 12))  // size of the rest of the record
                end64.u16(0x032D)  // made by: Unix, 4.5
                end64.u16(45)  // version needed: 4.5 (ZIP64)
                end64.u32(0)  // this disk
                end64.u32(0)  // disk with the central directory
                end64.u64(count)
                end64.u64(count)
                end64.u64(directorySize)
                end64.u64(directoryStart)
                var locator = ZipRecord()
                locator.u32(ZipSignature.zip64Locator)
                locator.u32(0)  // disk with the ZIP64 end record
                locator.u64(recordStart)
                locator.u32(1)  // total disks
                try emit(end64.bytes + locator.bytes)
            }
            var end = ZipRecord()
            end.u32(ZipSignature.endOfCentralDirectory)
            end.u16(0)  // this disk
            end.u16(0)  // disk with the central directory
            let count16 = forceZip64 ? ZipLimits.marker16 : UInt16(min(count, UInt64(ZipLimits.marker16)))
            end.u16(count16)
            end.u16(count16)
            end.u32(forceZip64 ? ZipLimits.marker32 : UInt32(min(directorySize, marker)))
            end.u32(forceZip64 ? ZipLimits.marker32 : UInt32(min(directoryStart, marker)))
            end.u16(0)  // comment length
            try emit(end.bytes)
            try flushOutput()
            try file.closeReportingErrors()
        }
        state = .finished
    }

    // MARK: - Output

    /// Throws if the writer is finished or failed.
    private func checkOpen(entry: String?) throws(ZipError) {
        switch state {
        case .open: return
        case .finished: throw misuse(entry, "the archive is already finished")
        case .failed(let error): throw error
        }
    }

    private func misuse(_ entry: String?, _ message: String) -> ZipError {
        ZipError(archive: path, entry: entry, message: message)
    }

    /// Runs `body`; if it throws, names `entry` in the error and leaves the writer failed.
    private func guarded(_ entry: String?, _ body: () throws(ZipError) -> Void) throws(ZipError) {
        do {
            try body()
        } catch {
            let named = ZipError(archive: path, entry: error.entry ?? entry, message: error.message)
            state = .failed(named)
            throw named
        }
    }

    /// Appends `bytes` to the output buffer, writing it out whenever it fills.
    private func emit(_ bytes: [UInt8]) throws(ZipError) {
        var done = 0
        while done < bytes.count {
            if outputCount == output.count { try flushOutput() }
            let count = min(bytes.count - done, output.count - outputCount)
            bytes.withUnsafeBytes { source in
                (output.baseAddress! + outputCount).copyMemory(from: source.baseAddress! + done, byteCount: count)
            }
            outputCount += count
            done += count
        }
        offset += UInt64(bytes.count)
    }

    private func flushOutput() throws(ZipError) {
        try file.writeAll(UnsafeRawBufferPointer(rebasing: output[..<outputCount]))
        outputCount = 0
    }

    /// Runs zlib's deflate over the stream's pending input into the output buffer: with `Z_NO_FLUSH` until the
    /// input is used up, with `Z_FINISH` until the deflate stream is complete.
    private func runDeflate(flush: Int32) throws(ZipError) {
        while true {
            if outputCount == output.count { try flushOutput() }
            let space = output.count - outputCount
            stream.pointee.next_out = (output.baseAddress! + outputCount).assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = UInt32(space)
            let result = deflate(stream, flush)
            let produced = space - Int(stream.pointee.avail_out)
            outputCount += produced
            offset += UInt64(produced)
            if result == Z_STREAM_END { return }
            guard result == Z_OK || result == Z_BUF_ERROR else {
                throw ZipError(archive: path, message: "zlib deflate failed (error \(result))")
            }
            // Room to spare: without flushing, all input was taken; when finishing, zlib must not be stuck.
            if stream.pointee.avail_out > 0 {
                if flush == Z_NO_FLUSH { return }
                guard result == Z_OK else { throw ZipError(archive: path, message: "zlib deflate made no progress") }
            }
        }
    }

    // MARK: - Records

    private func centralHeader(for record: CentralRecord) -> [UInt8] {
        let marker = UInt64(ZipLimits.marker32)
        // The ZIP64 extra field holds, in this order, only the values too large for their 32-bit fields.
        let large = [record.uncompressedSize, record.compressedSize, record.localHeaderOffset].filter {
            forceZip64 || $0 >= marker
        }
        var header = ZipRecord()
        header.u32(ZipSignature.centralHeader)
        header.u16(large.isEmpty ? 0x0314 : 0x032D)  // made by: Unix, 2.0 or 4.5
        header.u16(large.isEmpty ? 20 : 45)  // version needed
        header.u16(record.flags)
        header.u16(record.method)
        header.u16(record.time)
        header.u16(record.date)
        header.u32(record.crc)
        header.u32(forceZip64 ? ZipLimits.marker32 : UInt32(min(record.compressedSize, marker)))
        header.u32(forceZip64 ? ZipLimits.marker32 : UInt32(min(record.uncompressedSize, marker)))
        header.u16(UInt16(record.name.count))
        header.u16(large.isEmpty ? 0 : UInt16(4 + 8 * large.count))
        header.u16(0)  // comment length
        header.u16(0)  // disk number start
        header.u16(0)  // internal attributes
        // External attributes: Unix mode in the high half, MS-DOS directory bit in the low byte.
        header.u32(record.isDirectory ? 0o40755 << 16 | 0x10 : 0o100644 << 16)
        header.u32(forceZip64 ? ZipLimits.marker32 : UInt32(min(record.localHeaderOffset, marker)))
        header.append(record.name)
        if !large.isEmpty {
            header.u16(ZipLimits.zip64ExtraID)
            header.u16(UInt16(8 * large.count))
            for value in large { header.u64(value) }
        }
        return header.bytes
    }

    /// The current local time as MS-DOS time and date fields (2-second resolution, 1980 at the earliest).
    private static func dosTimeAndDate() -> (time: UInt16, date: UInt16) {
        var now = time(nil)
        var parts = tm()
        guard localtime_r(&now, &parts) != nil, parts.tm_year >= 80 else { return (0, 0x21) }  // 1980-01-01
        let time = parts.tm_hour << 11 | parts.tm_min << 5 | parts.tm_sec / 2
        let date = (parts.tm_year - 80) << 9 | (parts.tm_mon + 1) << 5 | parts.tm_mday
        return (UInt16(truncatingIfNeeded: time), UInt16(truncatingIfNeeded: date))
    }
}
