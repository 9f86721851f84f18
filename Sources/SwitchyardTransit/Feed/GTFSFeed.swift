import Switchyard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A GTFS feed on disk — a `.zip` archive or a folder — and which of its files Switchyard imports.
///
/// Opening reads only the archive's central directory or the folder's listing; file contents are streamed later,
/// one file at a time, in fixed memory (`input(for:counter:)`).
///
/// - **Which folder**: the top level when it holds any GTFS file; else the one sub-folder (at any depth in a zip,
///   up to three levels in a folder) that does (`feed.zip/gtfs/stops.txt`). When several sub-folders hold GTFS
///   files, opening fails naming them, unless `folder` chooses one (`--folder`).
/// - **Names**: matched as GTFS spells them; a file whose name differs only in case (`STOPS.TXT`) is read too,
///   listed in ``renamedFiles`` (the import warns about it). Files that are no GTFS table (see ``GTFSFile``;
///   `locations.geojson` too), and files outside the feed's folder, are listed in ``ignoredFiles`` and not imported. Hidden files of a folder (names starting with
///   `.`) are not listed.
/// - **Required files**: `agency.txt`, `stops.txt`, `routes.txt`, `trips.txt`, `stop_times.txt`, and
///   `calendar.txt` or `calendar_dates.txt`. (The reference lets a feed whose zones are all in `locations.geojson`
///   omit `stops.txt`; such a feed is refused as incomplete.) One that is missing or empty (0 bytes) fails opening: an empty
///   required file is treated as a missing one. (An empty optional file imports as an empty table, with a
///   warning.)
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
    /// Files present in the feed that are not imported (no GTFS table, or outside the feed's folder).
    public let ignoredFiles: [String]
    /// Files read under a name that differs from GTFS's only in case, with the name they have in the feed.
    public let renamedFiles: [GTFSFile: String]
    private let archive: ZipArchive?

    /// Whether the feed is a zip archive (as opposed to a folder).
    public var isArchive: Bool { archive != nil }

    /// Opens the feed at `path`: a folder, or a zip archive; `folder` chooses the sub-folder to read (`gtfs` or
    /// `gtfs/`; `""` for the top level) when the feed holds GTFS files in several.
    ///
    /// - Throws: ``ImportError`` — `.unreadableFeed` (no such path, unreadable, not a zip archive or a folder,
    ///   GTFS files in several folders and none chosen, or the chosen folder holds none), `.corruptArchive` (a
    ///   damaged zip), `.missingFile` (a required file is missing or empty, or both calendar files are).
    public static func open(_ path: String, folder: String? = nil) throws -> GTFSFeed {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ImportError(.unreadableFeed, "cannot open the feed (\(systemMessage(errno)))", file: path)
        }
        let feed: GTFSFeed
        if (status.st_mode & S_IFMT) == S_IFDIR {
            feed = try openFolder(path, choosing: folder)
        } else {
            guard access(path, R_OK) == 0 else {  // a permission problem is not a damaged archive
                throw ImportError(.unreadableFeed, "cannot open the feed (\(systemMessage(errno)))", file: path)
            }
            guard startsLikeZip(path) else {
                let what =
                    GTFSFile(fileName: lastComponent(path).lowercased()).map { "a single GTFS file (\($0))" }
                    ?? "not a zip archive"
                throw ImportError(
                    .unreadableFeed,
                    "\(what): a feed is a .zip archive or a folder of GTFS .txt files (give the folder)", file: path)
            }
            let archive: ZipArchive
            do {
                archive = try ZipArchive(path: path)
            } catch let error as ZipError {
                throw ImportError(corrupt: error)
            }
            let listing = archive.entries.filter { !$0.isDirectory }.map {
                (path: $0.path, size: $0.uncompressedSize, stamp: UInt64($0.crc32), zip: Optional($0))
            }
            feed = try GTFSFeed(path: path, listing: listing, archive: archive, choosing: folder)
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
                    throw ImportError(corrupt: error)
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
            return ImportError(corrupt: error)
        } catch {
            return nil
        }
    }

    /// A digest of the imported files' names, sizes and stamps: equal for an unchanged feed (resume checks it).
    @_spi(ImportDestinations)
    public var fingerprint: String {
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
        path: String, listing: [(path: String, size: UInt64, stamp: UInt64, zip: ZipEntry?)], archive: ZipArchive?,
        choosing chosen: String?
    ) throws {
        self.path = path
        self.archive = archive
        let folder = try GTFSFeed.feedFolder(path: path, listing: listing.map(\.path), choosing: chosen)
        self.folder = folder
        var files: [GTFSFile: Entry] = [:]
        var renamed: [GTFSFile: String] = [:]
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
            guard let (file, exact) = GTFSFeed.gtfsFile(named: lastComponent(item.path)) else {
                ignored.append(item.path)
                continue
            }
            guard folderOf(item.path) == folder else {
                ignored.append("\(item.path) (outside the feed's folder, \(GTFSFeed.describe(folder)))")
                continue
            }
            let entry = Entry(path: item.path, size: item.size, zipEntry: item.zip, stamp: item.stamp)
            if exact {
                if let other = renamed.removeValue(forKey: file) {
                    ignored.append("\(other) (\(file.fileName) is there too)")
                }
                files[file] = entry
            } else if files[file] == nil {
                renamed[file] = item.path
                files[file] = entry
            } else {
                ignored.append("\(item.path) (\(renamed[file] == nil ? file.fileName : renamed[file]!) is there too)")
            }
        }
        self.files = files
        renamedFiles = renamed
        ignoredFiles = ignored.sorted()
    }

    /// The GTFS file `name` names, and whether exactly (`stops.txt`) or apart from case (`Stops.TXT`).
    private static func gtfsFile(named name: String) -> (GTFSFile, exact: Bool)? {
        if let file = GTFSFile(fileName: name) { return (file, true) }
        return GTFSFile(fileName: name.asciiLowercased).map { ($0, false) }
    }

    /// The folder the feed's files are in: the top level if it holds any GTFS file, else the one folder that does,
    /// else `chosen`. Throws when several do and none is chosen, or the chosen one holds none.
    private static func feedFolder(path: String, listing: [String], choosing chosen: String?) throws -> String {
        let folders = Set(listing.filter { gtfsFile(named: lastComponent($0)) != nil }.map(folderOf))
        if var chosen {
            if chosen == "." || chosen == "/" { chosen = "" }
            if !chosen.isEmpty && !chosen.hasSuffix("/") { chosen += "/" }
            guard folders.contains(chosen) else {
                let list =
                    folders.isEmpty
                    ? "none does" : "those that do: " + folders.sorted().map(describe).joined(separator: ", ")
                throw ImportError(
                    .unreadableFeed, "--folder \(describe(chosen)) holds no GTFS file (\(list))", file: path)
            }
            return chosen
        }
        if folders.contains("") || folders.isEmpty { return "" }
        if folders.count == 1 { return folders.first! }
        throw ImportError(
            .unreadableFeed,
            """
            GTFS files are in \(folders.count) folders (\(folders.sorted().map(describe).joined(separator: ", "))): \
            choose one with --folder
            """, file: path)
    }

    private static func describe(_ folder: String) -> String { folder.isEmpty ? "the top level" : folder }

    /// Whether the file at `path` starts as a zip archive does (a local file header, or the end record of an empty
    /// archive). Anything else is reported as not a feed, rather than as a damaged archive.
    private static func startsLikeZip(_ path: String) -> Bool {
        let descriptor = openForReading(path)
        guard descriptor >= 0 else { return true }  // let the archive reader report it
        defer { close(descriptor) }
        var magic: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        let count = withUnsafeMutableBytes(of: &magic) { read(descriptor, $0.baseAddress, 4) }
        guard count == 4 else { return false }
        return magic.0 == 0x50 && magic.1 == 0x4B && (magic.2, magic.3) != (0, 0)
    }

    private static func openFolder(_ path: String, choosing folder: String?) throws -> GTFSFeed {
        var listing: [(path: String, size: UInt64, stamp: UInt64, zip: ZipEntry?)] = []
        var unreadable: [(path: String, reason: String)] = []
        func scan(_ relative: String, depth: Int) throws {
            let absolute = relative.isEmpty ? path : joined(path, relative)
            guard let directory = opendir(absolute) else {
                throw ImportError(.unreadableFeed, "cannot list the folder (\(systemMessage(errno)))", file: absolute)
            }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                if !name.hasPrefix(".") { names.append(name) }  // hidden files (and . and ..) are not the feed's
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
                    if depth < 3 { try scan(child, depth: depth + 1) } else { listing.append((child + "/", 0, 0, nil)) }
                } else {
                    #if canImport(Darwin)
                        let modified =
                            UInt64(bitPattern: Int64(status.st_mtimespec.tv_sec)) &* 1_000_000_000
                            &+ UInt64(bitPattern: Int64(status.st_mtimespec.tv_nsec))
                        let changed =
                            UInt64(bitPattern: Int64(status.st_ctimespec.tv_sec)) &* 1_000_000_000
                            &+ UInt64(bitPattern: Int64(status.st_ctimespec.tv_nsec))
                    #else
                        let modified =
                            UInt64(bitPattern: Int64(status.st_mtim.tv_sec)) &* 1_000_000_000
                            &+ UInt64(bitPattern: Int64(status.st_mtim.tv_nsec))
                        let changed =
                            UInt64(bitPattern: Int64(status.st_ctim.tv_sec)) &* 1_000_000_000
                            &+ UInt64(bitPattern: Int64(status.st_ctim.tv_nsec))
                    #endif
                    // Bit patterns: a time before 1970 is negative (files unpacked with odd timestamps).
                    let stamp =
                        modified ^ (changed &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(status.st_ino) &* 0xC2B2_AE3D_27D4_EB4F)
                    listing.append((child, UInt64(status.st_size), stamp, nil))
                }
            }
        }
        try scan("", depth: 0)
        let feed = try GTFSFeed(path: path, listing: listing, archive: nil, choosing: folder)
        let used = Set(feed.files.values.map(\.path))
        if let (child, reason) = unreadable.first(where: { used.contains($0.path) }) {
            throw ImportError(.unreadableFeed, "cannot read (\(reason))", file: joined(path, child))
        }
        return feed
    }

    private func checkRequiredFiles() throws {
        // A GTFS file this package cannot read stops the import before it begins, not halfway through.
        for file in GTFSFile.allCases {
            guard let entry = files[file]?.zipEntry else { continue }
            if entry.flags & 1 != 0 {
                throw ImportError(.corruptArchive, "\(entry.path): encrypted entries are not supported", file: path)
            }
            if entry.method == nil {
                throw ImportError(
                    .corruptArchive,
                    "\(path): \(entry.path): compression method \(entry.methodCode) is not supported (only stored and deflate)"
                )
            }
        }
        // An empty required file is as good as a missing one.
        let missing = GTFSFile.allCases.filter { $0.isRequired && files[$0] == nil }.map(\.fileName)
        let empty = GTFSFile.allCases.filter { $0.isRequired && files[$0]?.size == 0 }.map(\.fileName)
        let inFolder = folder.isEmpty ? "" : " (in its folder \(folder))"
        guard missing.isEmpty && empty.isEmpty else {
            var what: [String] = []
            if !missing.isEmpty { what.append("missing \(missing.joined(separator: ", "))") }
            if !empty.isEmpty { what.append("empty (0 bytes): \(empty.joined(separator: ", "))") }
            throw ImportError(
                .missingFile, "not a complete GTFS feed\(inFolder): \(what.joined(separator: "; "))", file: path)
        }
        let calendars = [GTFSFile.calendar, .calendarDates].filter { (files[$0]?.size ?? 0) > 0 }
        guard !calendars.isEmpty else {
            let state = [GTFSFile.calendar, .calendarDates].map {
                "\($0.fileName) \(files[$0] == nil ? "missing" : "empty")"
            }
            throw ImportError(
                .missingFile,
                "not a complete GTFS feed\(inFolder): calendar.txt or calendar_dates.txt is required (\(state.joined(separator: ", ")))",
                file: path)
        }
    }
}

extension ImportError {
    /// A damaged archive: the entry (`feed.zip/stops.txt`) or the archive as the file, the zip reader's message
    /// as the reason.
    init(corrupt error: ZipError) {
        self.init(.corruptArchive, error.message, file: error.entry.map { "\(error.archive)/\($0)" } ?? error.archive)
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
            throw ImportError(corrupt: error)
        }
    }
}

/// The folder part of an entry's path, with its trailing slash (`""` at the top level).
private func folderOf(_ entryPath: String) -> String {
    guard let slash = entryPath.lastIndex(of: "/") else { return "" }
    return String(entryPath[...slash])
}

/// `open(2)` for reading (named apart from ``GTFSFeed/open(_:folder:)``).
private func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY)
}

private func lastComponent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
}

package func joined(_ folder: String, _ name: String) -> String {
    folder.hasSuffix("/") ? folder + name : folder + "/" + name
}
