/// A zip archive on disk, opened for reading: its path and the entries of its central directory.
///
/// `init` reads the central directory once (ZIP64 and archive comments supported) and closes the file again; the
/// archive is immutable afterwards, so it is `Sendable` and may be shared between threads. Each
/// ``openEntry(_:bufferSize:)`` opens the path anew, so several entries can be read at once, each by its own
/// ``ZipEntryReader``. Memory: O(number of entries) for ``entries`` and the name index.
///
/// All methods block on the file system: call them where blocking is allowed, never on the cooperative pool.
public final class ZipArchive: Sendable {
    /// The archive's path, as given to ``init(path:)``; errors name it.
    public let path: String
    /// Every entry, in central-directory order.
    public let entries: [ZipEntry]
    /// Index into `entries` by path (the first entry wins when a path repeats).
    private let indexByPath: [String: Int]

    /// Opens the archive at `path` and reads its central directory.
    ///
    /// Throws ``ZipError`` when the file cannot be opened or read (with the system's message), is not a zip archive
    /// (no end-of-central-directory record), spans several disks, or has a truncated or corrupt central directory.
    /// Entries' data is not checked here; ``ZipEntryReader`` checks it while reading.
    public init(path: String) throws {
        let file = try ZipFileDescriptor(readingFrom: path)
        let location = try ZipCentralDirectory.locate(in: file)
        let entries = try ZipCentralDirectory.readEntries(in: file, at: location)
        var indexByPath: [String: Int] = [:]
        indexByPath.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() where indexByPath[entry.path] == nil {
            indexByPath[entry.path] = index
        }
        self.path = path
        self.entries = entries
        self.indexByPath = indexByPath
    }

    /// The entry whose path is exactly `path` (for example `feed/stops.txt`, or `feed/` for a directory), or `nil`.
    /// O(1) expected.
    public func entry(named path: String) -> ZipEntry? {
        indexByPath[path].map { entries[$0] }
    }

    /// Opens `entry` (one of this archive's ``entries``) for streaming reads.
    ///
    /// Opens its own file descriptor and checks the local file header to find where the data starts. `bufferSize`
    /// (> 0) is the size of the compressed-input buffer for deflated entries; memory stays at that plus zlib's
    /// inflate state (about 7 KiB + a 32 KiB window), whatever the entry's size.
    ///
    /// Throws ``ZipError`` naming the entry when the method is neither stored nor deflate, the entry is encrypted,
    /// the local header is missing or damaged, or the entry's data runs past the end of the file.
    public func openEntry(_ entry: ZipEntry, bufferSize: Int = 64 * 1024) throws -> ZipEntryReader {
        try ZipEntryReader(archive: path, entry: entry, bufferSize: bufferSize)
    }
}
