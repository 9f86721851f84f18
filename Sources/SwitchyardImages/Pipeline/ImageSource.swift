#if Images
    import SwitchyardHTTP

    /// Where an image comes from.
    ///
    /// **Equality** is what the pipeline coalesces and caches by (one decode for equal sources requested at once;
    /// one memory and disk cache entry per source and options), so two sources are equal only when they are the
    /// same image: files with the same path (read when the image is made; the disk cache also keys a file by its
    /// size and modification time), URLs with the same text (their version is asked of the server), and bytes in
    /// memory with the same identity (or none) *and* the same SHA-256 digest (see ``EncodedBytes``).
    /// - Complexity: `==` and `hash(into:)` are O(the path's, URL's or identity's length); never O(the bytes).
    public enum ImageSource: Sendable, Hashable, CustomStringConvertible {
        /// A file, read by libvips directly (never whole into memory).
        case file(String)
        /// Encoded bytes already in memory, with their digest; made with ``bytes(_:identity:)``.
        case bytes(EncodedBytes)
        /// An `http` or `https` URL, downloaded through the pipeline's ``ImagePipeline/Configuration/session``
        /// (its per-host limits, coalescing and retries), then decoded like bytes whose identity is the URL and
        /// the response's validator (ETag, or Last-Modified).
        case url(String)

        /// Encoded bytes already in memory. `identity` names them in errors and job names (nil: their size and
        /// digest do); two such sources are the same image only if their identities are equal (both nil, or the
        /// same text) and their bytes are (by SHA-256 digest): two different images never share a job nor a cached
        /// thumbnail, whatever identity the caller gives them.
        /// - Complexity: O(`bytes.count`), once, here: the digest is computed when the source is made.
        public static func bytes(_ bytes: [UInt8], identity: String? = nil) -> ImageSource {
            .bytes(EncodedBytes(bytes, identity: identity))
        }

        /// The path, the URL without its user info, query and fragment (what job names, errors and log lines
        /// show: a URL's query may hold a token), or the bytes' ``EncodedBytes/description``.
        public var description: String {
            switch self {
            case .file(let path): return path
            case .bytes(let encoded): return encoded.description
            case .url(let url): return HTTPSession.loggableURL(url)
            }
        }

        public static func == (left: ImageSource, right: ImageSource) -> Bool { left.key == right.key }
        public func hash(into hasher: inout Hasher) { hasher.combine(key) }

        /// What identifies the source, without the bytes of an in-memory one (a cache key holding them would keep
        /// them alive as long as the entry): O(the path's, URL's or identity's length) to hash and compare.
        var key: Key {
            switch self {
            case .file(let path): return .file(path)
            case .bytes(let encoded): return .bytes(identity: encoded.identity, digest: encoded.digest)
            case .url(let url): return .url(url)
            }
        }

        enum Key: Hashable, Sendable {
            case file(String)
            case bytes(identity: String?, digest: String)
            case url(String)
        }
    }
#endif
