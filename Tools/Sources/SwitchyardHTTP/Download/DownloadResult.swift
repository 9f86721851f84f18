/// What a download did.
public struct DownloadResult: Sendable, Hashable {
    /// How the file came to be current.
    public enum Outcome: Sendable, Hashable {
        /// Downloaded whole.
        case downloaded
        /// Completed from a partial file of this many bytes (`Range` + `If-Range`).
        case resumed(fromByte: Int64)
        /// The server said the file is current (`304 Not Modified`); it was left as it was.
        case unchanged
    }

    /// The destination path.
    public var path: String
    /// How.
    public var outcome: Outcome
    /// The file's size.
    public var size: Int64
    /// The validators of the file now at `path` (keep them for the next ``HTTPSession/download(_:to:ifChanged:progress:resumesPartialFile:syncsToDisk:)``).
    public var validators: HTTPValidators
}
