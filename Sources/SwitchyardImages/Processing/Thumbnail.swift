#if Images
    /// An encoded thumbnail.
    public struct Thumbnail: Sendable, Hashable {
        /// The encoded bytes, in ``format``.
        public var bytes: [UInt8]
        public var format: ImageFormat
        /// The size in pixels.
        public var width: Int
        public var height: Int
        /// For a URL source, the version of the image it was made from; nil for other sources.
        public var sourceVersion: ImageVersion?

        public init(bytes: [UInt8], format: ImageFormat, width: Int, height: Int, sourceVersion: ImageVersion? = nil) {
            self.bytes = bytes
            self.format = format
            self.width = width
            self.height = height
            self.sourceVersion = sourceVersion
        }

        /// The cost of keeping it in memory, in bytes (for `Cache`).
        public var cost: Int { bytes.count }
    }
#endif
