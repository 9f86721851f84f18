#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Switchyard

/// A GTFS feed on disk — a `.zip` archive or a folder — and which of its files Switchyard imports.
///
/// Opening reads only the archive's central directory or the folder's listing; file contents are streamed later,
/// one file at a time, in fixed memory (``input(for:counter:)``). A feed whose files all sit in one sub-folder
/// (`feed.zip/gtfs/stops.txt`) is read from that folder. Files GTFS does not define, and files outside that folder,
/// are listed in ``ignoredFiles`` and not imported. Hidden files of a folder (names starting with `.`) are not
/// listed.
///
/// Immutable and `Sendable`.
public struct GTFSFeed: Sendable {
    /// One file of the feed that will be imported.
    public struct Entry: Sendable, Hashable {
        /// Its path inside the archive or folder, e.g. `gtfs/stops.txt`.
        public let path: String
        /// Its size in bytes (uncompressed).
        public let size: UInt64
        let zipEntry: ZipEntry?
        /// What identifies this version of the file: its CRC-32 in a zip; in a folder, its modification time mixed
        /// with its status-change time and inode number (copying tools can keep a modification time, as
        /// `cp -p`, `rsync -t` and `touch -r` do, but not those two).
        let stamp: UInt64
    }

    /// The path the feed was opened from.
    public let path: String
    /// The sub-folder the feed's files are in (`gtfs/`), or `""` at the top level.
    public let folder: String
    /// The files that will be imported, by GTFS file.
    public let files: [GTFSFile: Entry]
    /// Files present in the feed that are not imported (not defined by GTFS, or outside the feed's folder).
    public let ignoredFiles: [String]
    private let archive: ZipArchive?

    /// Whether the feed is a zip archive (as opposed to a folder).
    public var isArchive: Bool { archive != nil }

    /// Opens the feed at `path`: a folder, or a zip archive.
    ///
    /// - Throws: ``ImportError`` — `.unreadableFeed` (no such path, unreadable), `.corruptArchive` (a damaged zip),
    ///   `.missingFile` (a required file is missing, or both calendar files are).
    public static func open(_ path: String) throws -> GTFSFeed {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ImportError(.unreadableFeed, "\(path): cannot open the feed (\(systemMessage(errno)))")
        }
        let feed: GTFSFeed
        if (status.st_mode & S_IFMT) == S_IFDIR {
            feed = try openFolder(path)
        } else {
            guard access(path, R_OK) == 0 else {  // a permission problem is not a damaged archive
                throw ImportError(.unreadableFeed, "\(path): cannot open the feed (\(systemMessage(errno)))")
            }
            let archive: ZipArchive
            do {
                archive = try ZipArchive(path: path)
            } catch let error as ZipError {
                throw ImportError(.corruptArchive, "\(error)")
            }
            let listing = archive.entries.filter { !$0.isDirectory }.map {
                (path: $0.path, size: $0.uncompressedSize, stamp: UInt64($0.crc32), zip: Optional($0))
            }
            feed = GTFSFeed(path: path, listing: listing, archive: archive)
        }
        try feed.checkRequiredFiles()
        return feed
    }

    /// The bytes of `file` as a stream input (decompressed on the fly for a zip), counting bytes into `counter`.
    func input(for file: GTFSFile, counter: ByteCounter) -> ByteInput {
        let entry = files[file]!
        let name = archive == nil ? joined(path, entry.path) : "\(path)/\(entry.path)"
        if let archive, let zipEntry = entry.zipEntry {
            return .source(name: name) {
                let reader: ZipEntryReader
                do {
                    reader = try archive.openEntry(zipEntry)
                } catch let error as ZipError {
                    throw ImportError(.corruptArchive, "\(error)")
                }
                return CountingByteSource(ArchiveErrorMapping(reader), counter: counter)
            }
        }
        return .source(name: name) { CountingByteSource(try PlainFileSource(path: name), counter: counter) }
    }

    /// For a zip feed: reads `file`'s whole entry and returns the error its length or checksum check gives, if
    /// any (nil for a folder feed, or an entry that checks out). A reader that failed on the entry's content (a
    /// record too long, invalid UTF-8) may have met corrupt bytes before the entry's end, where the checksum is.
    /// Blocking (file I/O).
    func corruption(of file: GTFSFile) -> ImportError? {
        guard let archive, let zipEntry = files[file]?.zipEntry else { return nil }
        do {
            let reader = try archive.openEntry(zipEntry)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
            defer { buffer.deallocate() }
            while try reader.read(into: buffer) > 0 {}
            return nil
        } catch let error as ZipError {
            return ImportError(.corruptArchive, "\(error)")
        } catch {
            return nil
        }
    }

    /// A digest of the imported files' names, sizes and stamps: equal for an unchanged feed (resume checks it).
    var fingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ bytes: some Sequence<UInt8>) {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        for file in files.keys.sorted() {
            let entry = files[file]!
            mix(entry.path.utf8)
            mix(String(entry.size).utf8)
            mix(String(entry.stamp).utf8)
        }
        return String(hash, radix: 16)
    }

    // MARK: Opening

    private init(
        path: String, listing: [(path: String, size: UInt64, stamp: UInt64, zip: ZipEntry?)], archive: ZipArchive?
    ) {
        self.path = path
        self.archive = archive
        // The feed's folder: the top level if it holds any GTFS file, else the one folder that does.
        func folderOf(_ entryPath: String) -> String {
            guard let slash = entryPath.lastIndex(of: "/") else { return "" }
            return String(entryPath[...slash])
        }
        let known = listing.filter { GTFSFile(fileName: lastComponent($0.path)) != nil }
        let folders = Set(known.map { folderOf($0.path) })
        let folder = folders.contains("") ? "" : (folders.count == 1 ? folders.first! : "")
        self.folder = folder
        var files: [GTFSFile: Entry] = [:]
        var ignored: [String] = []
        var seen = Set<String>()
        var repeated = Set<String>()
        for item in listing {
            // A zip may hold two entries of one name (an archive appended to): the first is used, as
            // `ZipArchive` does, and the repeat is listed once.
            guard seen.insert(item.path).inserted else {
                if repeated.insert(item.path).inserted {
                    ignored.append("\(item.path) (repeated in the archive; the first entry is used)")
                }
                continue
            }
            if folderOf(item.path) == folder, let file = GTFSFile(fileName: lastComponent(item.path)) {
                files[file] = Entry(path: item.path, size: item.size, zipEntry: item.zip, stamp: item.stamp)
            } else {
                ignored.append(item.path)
            }
        }
        self.files = files
        ignoredFiles = ignored.sorted()
    }

    private static func openFolder(_ path: String) throws -> GTFSFeed {
        var listing: [(path: String, size: UInt64, stamp: UInt64, zip: ZipEntry?)] = []
        var unreadable: [(path: String, reason: String)] = []
        func scan(_ relative: String, depth: Int) throws {
            let absolute = relative.isEmpty ? path : joined(path, relative)
            guard let directory = opendir(absolute) else {
                throw ImportError(.unreadableFeed, "\(absolute): cannot list the folder (\(systemMessage(errno)))")
            }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if !name.hasPrefix(".") { names.append(name) }     // hidden files (and . and ..) are not the feed's
            }
            for name in names.sorted() {
                let child = relative.isEmpty ? name : relative + "/" + name
                var status = stat()
                guard stat(joined(path, child), &status) == 0 else {
                    // A broken link, a name that is not UTF-8, a file removed meanwhile: never dropped silently.
                    // Listed (so it is ignored like any other file), and an error if it turns out to be the feed's.
                    unreadable.append((child, systemMessage(errno)))
                    listing.append((child, 0, 0, nil))
                    continue
                }
                if (status.st_mode & S_IFMT) == S_IFDIR {
                    if depth < 1 { try scan(child, depth: depth + 1) } else { listing.append((child + "/", 0, 0, nil)) }
                } else {
                    #if canImport(Darwin)
                    let modified = UInt64(bitPattern: Int64(status.st_mtimespec.tv_sec)) &* 1_000_000_000 &+ UInt64(bitPattern: Int64(status.st_mtimespec.tv_nsec))
                    let changed = UInt64(bitPattern: Int64(status.st_ctimespec.tv_sec)) &* 1_000_000_000 &+ UInt64(bitPattern: Int64(status.st_ctimespec.tv_nsec))
                    #else
                    let modified = UInt64(bitPattern: Int64(status.st_mtim.tv_sec)) &* 1_000_000_000 &+ UInt64(bitPattern: Int64(status.st_mtim.tv_nsec))
                    let changed = UInt64(bitPattern: Int64(status.st_ctim.tv_sec)) &* 1_000_000_000 &+ UInt64(bitPattern: Int64(status.st_ctim.tv_nsec))
                    #endif
                    // Bit patterns: a time before 1970 is negative (files unpacked with odd timestamps).
                    let stamp = modified ^ (changed &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(status.st_ino) &* 0xC2B2_AE3D_27D4_EB4F)
                    listing.append((child, UInt64(status.st_size), stamp, nil))
                }
            }
        }
        try scan("", depth: 0)
        let feed = GTFSFeed(path: path, listing: listing, archive: nil)
        let used = Set(feed.files.values.map(\.path))
        if let (child, reason) = unreadable.first(where: { used.contains($0.path) }) {
            throw ImportError(.unreadableFeed, "\(joined(path, child)): cannot read (\(reason))")
        }
        return feed
    }

    private func checkRequiredFiles() throws {
        // A GTFS file this package cannot read stops the import before it begins, not halfway through.
        for file in GTFSFile.allCases {
            guard let entry = files[file]?.zipEntry else { continue }
            if entry.flags & 1 != 0 {
                throw ImportError(.corruptArchive, "\(path): \(entry.path): encrypted entries are not supported")
            }
            if entry.method == nil {
                throw ImportError(
                    .corruptArchive,
                    "\(path): \(entry.path): compression method \(entry.methodCode) is not supported (only stored and deflate)")
            }
        }
        let missing = GTFSFile.allCases.filter { $0.isRequired && files[$0] == nil }.map(\.fileName)
        let where_ = folder.isEmpty ? path : "\(path) (folder \(folder))"
        guard missing.isEmpty else {
            throw ImportError(
                .missingFile, "\(where_): not a complete GTFS feed: missing \(missing.joined(separator: ", "))")
        }
        guard files[.calendar] != nil || files[.calendarDates] != nil else {
            throw ImportError(.missingFile, "\(where_): not a complete GTFS feed: missing calendar.txt and calendar_dates.txt (one is required)")
        }
    }
}

/// Turns the zip reader's errors into ``ImportError/Kind/corruptArchive``.
private final class ArchiveErrorMapping: ByteSource {
    private let reader: ZipEntryReader

    init(_ reader: ZipEntryReader) { self.reader = reader }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        do {
            return try reader.read(into: buffer)
        } catch let error as ZipError {
            throw ImportError(.corruptArchive, "\(error)")
        }
    }
}

private func lastComponent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
}

func joined(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
}
