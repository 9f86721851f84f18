#if Images
    /// An encoded thumbnail.
    public struct Thumbnail: Sendable, Hashable {
        /// The encoded bytes, in ``format``.
        public var bytes: [UInt8]
        public var format: ImageFormat
        /// The size in pixels.
        public var width: Int
        public var height: Int

        public init(bytes: [UInt8], format: ImageFormat, width: Int, height: Int) {
            self.bytes = bytes
            self.format = format
            self.width = width
            self.height = height
        }

        /// The cost of keeping it in memory, in bytes (for `Cache`).
        public var cost: Int { bytes.count }
    }
#endif
