#if Images
    import SwitchyardHTTP

    /// Which version of a URL source a thumbnail was made from (``Thumbnail/sourceVersion``): the validators its
    /// server sent, or a hash of its bytes when it sent none. Keep it with the thumbnail to ask later whether the
    /// image changed (``ImagePipeline/thumbnail(ofURL:_:unlessStill:priority:)``).
    public struct ImageVersion: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The `etag` and `last-modified` the server sent; empty if it sent neither.
        public var validators: HTTPValidators
        /// A 64-bit FNV-1a hash of the bytes, when the server sent no validator (nil otherwise).
        public var contentHash: UInt64?

        public init(validators: HTTPValidators, contentHash: UInt64? = nil) {
            self.validators = validators
            self.contentHash = contentHash
        }

        /// The version `response` carries.
        init(_ response: HTTPResponse) {
            validators = response.validators
            contentHash = validators.isEmpty ? ThumbnailEntry.hashes(response.body).0 : nil
        }

        /// `etag "v1"`, `last-modified Tue, 01 Dec 2026 10:00:00 GMT` or `fnv 1234…`: part of the cache keys of the
        /// thumbnails made from this version.
        public var description: String {
            if let etag = validators.etag { return "etag \(etag)" }
            if let date = validators.lastModified { return "last-modified \(date)" }
            return "fnv \(contentHash ?? 0)"
        }
    }
#endif
