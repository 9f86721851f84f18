import Switchyard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why reading or writing a zip archive failed: the archive's path, the entry when one is involved, and what is
/// wrong.
///
/// `description` is `archive: entry: message` (or `archive: message`), e.g.
/// `feed.zip: not a zip archive or truncated (no end-of-central-directory record)` or
/// `feed.zip: stop_times.txt: CRC-32 mismatch (corrupt entry)`, so a failure can be printed as is.
/// A plain value: `Sendable`, comparable, safe to pass between threads.
public struct ZipError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The archive's path, as given to ``ZipArchive/init(path:)`` or `ZipWriter` (SwitchyardSampleFeeds).
    public let archive: String
    /// The entry's path inside the archive, when the failure concerns one entry.
    public let entry: String?
    /// What is wrong, in plain words (for example `CRC-32 mismatch (corrupt entry)`).
    public let message: String

    /// Creates an error; the zip types create these, tests compare against them.
    public init(archive: String, entry: String? = nil, message: String) {
        self.archive = archive
        self.entry = entry
        self.message = message
    }

    /// `archive: entry: message`, leaving out the entry when there is none.
    public var description: String {
        if let entry { return "\(archive): \(entry): \(message)" }
        return "\(archive): \(message)"
    }

    /// The system's message for `code` with the number, e.g. `No such file or directory (errno 2)`.
    package static func systemMessage(_ code: Int32) -> String {
        "\(FileReader.message(code)) (errno \(code))"
    }
}
