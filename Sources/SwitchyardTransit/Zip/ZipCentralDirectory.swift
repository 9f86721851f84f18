/// Finds and parses a zip archive's central directory (APPNOTE 4.3.12–4.3.16), ZIP64 included.
///
/// Reads the last 64 KiB + 22 bytes of the file once to find the end record, then the central directory through a
/// 64 KiB window: memory is O(1) besides the entries returned.
enum ZipCentralDirectory {
    /// Where the central directory is and how many entries it lists.
    struct Location {
        var offset: UInt64
        var size: UInt64
        var count: UInt64
    }

    /// Locates the central directory from the end-of-central-directory record (and the ZIP64 record when a ZIP64
    /// locator precedes it), checking that it lies inside the file.
    static func locate(in file: ZipFileDescriptor) throws(ZipError) -> Location {
        let archive = file.archive
        let fileSize = try file.size()
        guard fileSize > 0 else { throw ZipError(archive: archive, message: "not a zip archive (empty file)") }
        let tailCount = Int(min(fileSize, UInt64(ZipLimits.endSize + 0xFFFF)))  // end record + longest comment
        let tailStart = fileSize - UInt64(tailCount)
        let tail = try file.readExactly(tailCount, at: tailStart, what: "end of file")
        guard let endIndex = findEndRecord(in: tail) else {
            throw ZipError(
                archive: archive, message: "not a zip archive or truncated (no end-of-central-directory record)")
        }
        let end = ZipFields(tail[endIndex...])
        var location = Location(offset: UInt64(end.u32(16)), size: UInt64(end.u32(12)), count: UInt64(end.u16(10)))
        var singleDisk = end.u16(4) == 0 && end.u16(6) == 0 && end.u16(8) == end.u16(10)
        // The central directory must end where the (ZIP64) end record starts.
        var limit = tailStart + UInt64(endIndex)

        if limit >= UInt64(ZipLimits.zip64LocatorSize) {
            let locatorStart = limit - UInt64(ZipLimits.zip64LocatorSize)
            let locator =
                endIndex >= ZipLimits.zip64LocatorSize
                ? ZipFields(tail[(endIndex - ZipLimits.zip64LocatorSize)..<endIndex])
                : ZipFields(try file.readExactly(ZipLimits.zip64LocatorSize, at: locatorStart, what: "ZIP64 locator"))
            if locator.u32(0) == ZipSignature.zip64Locator {
                let recordStart = locator.u64(8)
                guard locator.u32(16) <= 1,
                    recordStart <= locatorStart,
                    locatorStart - recordStart >= UInt64(ZipLimits.zip64EndSize)
                else {
                    throw corrupt(archive, "ZIP64 end-of-central-directory locator points outside the file")
                }
                let record = ZipFields(
                    try file.readExactly(ZipLimits.zip64EndSize, at: recordStart, what: "ZIP64 end record"))
                guard record.u32(0) == ZipSignature.zip64EndOfCentralDirectory else {
                    throw corrupt(archive, "bad ZIP64 end-of-central-directory signature")
                }
                location = Location(offset: record.u64(48), size: record.u64(40), count: record.u64(32))
                singleDisk = record.u32(16) == 0 && record.u32(20) == 0 && record.u64(24) == record.u64(32)
                limit = recordStart
            }
        }
        guard singleDisk else {
            throw ZipError(archive: archive, message: "split (multi-disk) archives are not supported")
        }
        guard location.offset <= limit, location.size <= limit - location.offset else {
            throw corrupt(
                archive,
                "central directory (\(location.size) bytes at offset \(location.offset)) runs past its end record"
            )
        }
        guard location.count <= location.size / UInt64(ZipLimits.centralHeaderSize) else {
            throw corrupt(archive, "central directory of \(location.size) bytes cannot hold \(location.count) entries")
        }
        return location
    }

    /// The start of the end-of-central-directory record in `tail` (the end of the file): the last signature whose
    /// comment reaches exactly to the end, else the last one whose comment fits (bytes after the archive).
    private static func findEndRecord(in tail: [UInt8]) -> Int? {
        var fallback: Int?
        var index = tail.count - ZipLimits.endSize
        while index >= 0 {
            let fields = ZipFields(tail[index...])
            if tail[index] == 0x50, fields.u32(0) == ZipSignature.endOfCentralDirectory {
                let end = index + ZipLimits.endSize + Int(fields.u16(20))
                if end == tail.count { return index }
                if end < tail.count, fallback == nil { fallback = index }
            }
            index -= 1
        }
        return fallback
    }

    /// Parses every central directory header at `location`, in order.
    static func readEntries(in file: ZipFileDescriptor, at location: Location) throws(ZipError) -> [ZipEntry] {
        let archive = file.archive
        var cursor = Cursor(file: file, position: location.offset, end: location.offset + location.size)
        var entries: [ZipEntry] = []
        entries.reserveCapacity(Int(location.count))
        // The end record's count is where to stop, except that headers beyond it within the directory's stated
        // size are read too: a writer without ZIP64 wraps the count at 65,536, and an entry is never silently
        // dropped. Past the count, anything that is not a central header ends the directory.
        var index: UInt64 = 0
        while index < location.count || cursor.end - cursor.position >= UInt64(ZipLimits.centralHeaderSize) {
            let header = ZipFields(try cursor.take(ZipLimits.centralHeaderSize))
            guard header.u32(0) == ZipSignature.centralHeader else {
                if index >= location.count { break }
                throw corrupt(archive, "bad signature in central directory entry \(index + 1) of \(location.count)")
            }
            index += 1
            let name = try cursor.take(Int(header.u16(28)))
            let path = String(decoding: name, as: UTF8.self)
            let extra = try cursor.take(Int(header.u16(30)))
            _ = try cursor.take(Int(header.u16(32)))  // comment
            var sizes = Sizes(
                uncompressed: UInt64(header.u32(24)), compressed: UInt64(header.u32(20)),
                offset: UInt64(header.u32(42)))
            if sizes.needsZip64 {
                guard let resolved = sizes.resolvingZip64(from: ZipFields(extra)) else {
                    throw ZipError(archive: archive, entry: path, message: "missing or short ZIP64 extra field")
                }
                sizes = resolved
            }
            // Sizes are handled as Int64 (file offsets, progress); a ZIP64 size past that range is a lie.
            guard sizes.uncompressed <= UInt64(Int64.max), sizes.compressed <= UInt64(Int64.max) else {
                throw ZipError(
                    archive: archive, entry: path,
                    message: "declared size \(max(sizes.uncompressed, sizes.compressed)) bytes is out of range")
            }
            entries.append(
                ZipEntry(
                    path: path, compressedSize: sizes.compressed, uncompressedSize: sizes.uncompressed,
                    crc32: header.u32(16), methodCode: header.u16(10), flags: header.u16(8),
                    localHeaderOffset: sizes.offset))
        }
        return entries
    }

    /// The 64-bit fields of a central directory header, which may be deferred to the ZIP64 extra field.
    private struct Sizes {
        var uncompressed: UInt64
        var compressed: UInt64
        var offset: UInt64

        private static let marker = UInt64(ZipLimits.marker32)

        var needsZip64: Bool { uncompressed == Self.marker || compressed == Self.marker || offset == Self.marker }

        /// Replaces the fields marked `0xFFFFFFFF` by the values of the ZIP64 extra field (0x0001), which holds
        /// only the marked ones, in this order (APPNOTE 4.5.3). `nil` if the field is missing or too short.
        func resolvingZip64(from extra: ZipFields) -> Sizes? {
            var position = 0
            while position + 4 <= extra.bytes.count {
                let id = extra.u16(position)
                let end = position + 4 + Int(extra.u16(position + 2))
                guard end <= extra.bytes.count else { return nil }
                defer { position = end }
                guard id == ZipLimits.zip64ExtraID else { continue }
                var result = self
                var field = position + 4
                let fields: [WritableKeyPath<Sizes, UInt64>] = [\.uncompressed, \.compressed, \.offset]
                for keyPath in fields where self[keyPath: keyPath] == Self.marker {
                    guard field + 8 <= end else { return nil }
                    result[keyPath: keyPath] = extra.u64(field)
                    field += 8
                }
                return result
            }
            return nil
        }
    }

    private static func corrupt(_ archive: String, _ what: String) -> ZipError {
        ZipError(archive: archive, message: "corrupt central directory: \(what)")
    }

    /// Sequential reads of the central directory through a 64 KiB window.
    private struct Cursor {
        let file: ZipFileDescriptor
        var position: UInt64
        let end: UInt64
        var window: [UInt8] = []
        var index = 0

        mutating func take(_ count: Int) throws(ZipError) -> ArraySlice<UInt8> {
            if window.count - index < count {
                guard UInt64(count) <= end - position else {
                    throw ZipError(
                        archive: file.archive,
                        message: "corrupt central directory: entries run past its stated size (truncated or corrupt)")
                }
                let length = Int(min(end - position, UInt64(max(count, 64 * 1024))))
                window = try file.readExactly(length, at: position, what: "central directory")
                index = 0
            }
            defer {
                index += count
                position += UInt64(count)
            }
            return window[index..<(index + count)]
        }
    }
}
