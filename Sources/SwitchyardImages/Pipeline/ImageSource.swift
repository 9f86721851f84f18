#if Images
    /// Where an image comes from.
    public enum ImageSource: Sendable, Hashable, CustomStringConvertible {
        /// A file, read by libvips directly (never whole into memory).
        case file(String)
        /// Encoded bytes already in memory, with an identity: sources with equal identities are the same image to
        /// the pipeline (one decode for concurrent requests), so it must change when the bytes do (a content hash,
        /// or a URL with its ETag). The bytes themselves are never hashed or compared.
        case bytes([UInt8], identity: String)
        /// An `http` or `https` URL, downloaded through the pipeline's ``ImagePipeline/Configuration/session``
        /// (its per-host limits, coalescing and retries), then decoded like bytes whose identity is the URL and
        /// the response's validator (ETag, or Last-Modified).
        case url(String)

        /// The path, or the identity.
        public var description: String {
            switch self {
            case .file(let path): return path
            case .bytes(_, let identity): return identity
            case .url(let url): return url
            }
        }

        public static func == (left: ImageSource, right: ImageSource) -> Bool { left.key == right.key }
        public func hash(into hasher: inout Hasher) { hasher.combine(key) }

        /// What identifies the source: O(length of the path or identity) to hash and compare.
        var key: Key {
            switch self {
            case .file(let path): return .file(path)
            case .bytes(_, let identity): return .bytes(identity)
            case .url(let url): return .url(url)
            }
        }

        enum Key: Hashable, Sendable {
            case file(String)
            case bytes(String)
            case url(String)
        }
    }
#endif
