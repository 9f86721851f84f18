#if Images
    /// Where an image comes from.
    public enum ImageSource: Sendable, Hashable, CustomStringConvertible {
        /// A file, read by libvips directly (never whole into memory).
        case file(String)
        /// Encoded bytes already in memory, with an identity: sources with equal identities are the same image to
        /// the pipeline (one decode for concurrent requests), so it must change when the bytes do (a content hash,
        /// or a URL with its ETag). The bytes themselves are never hashed or compared.
        case bytes([UInt8], identity: String)

        /// The path, or the identity.
        public var description: String {
            switch self {
            case .file(let path): return path
            case .bytes(_, let identity): return identity
            }
        }

        public static func == (left: ImageSource, right: ImageSource) -> Bool { left.key == right.key }
        public func hash(into hasher: inout Hasher) { hasher.combine(key) }

        /// What identifies the source: O(length of the path or identity) to hash and compare.
        var key: Key {
            switch self {
            case .file(let path): return .file(path)
            case .bytes(_, let identity): return .bytes(identity)
            }
        }

        enum Key: Hashable, Sendable {
            case file(String)
            case bytes(String)
        }
    }
#endif
