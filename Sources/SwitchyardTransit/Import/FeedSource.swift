/// Where a feed was downloaded from, recorded with its import (`_switchyard_import_source`) so that a later import
/// of the same URL can ask the server whether the feed changed since (`If-None-Match` / `If-Modified-Since`).
public struct FeedSource: Sendable, Hashable {
    /// The URL the feed was downloaded from.
    public var url: String
    /// The server's entity tag for the downloaded version, as sent.
    public var etag: String?
    /// The server's `Last-Modified` for the downloaded version, as sent.
    public var lastModified: String?
    /// The downloaded archive's size in bytes.
    public var size: Int64
    /// The downloaded archive's SHA-256, in 64 lower-case hex digits.
    public var checksum: String?

    public init(url: String, etag: String? = nil, lastModified: String? = nil, size: Int64, checksum: String? = nil) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.size = size
        self.checksum = checksum
    }
}
