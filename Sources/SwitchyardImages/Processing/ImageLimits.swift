#if Images
    /// What a source may be before any of its pixels are decoded.
    public struct ImageLimits: Sendable, Hashable {
        /// The most pixels (width × height, of the first frame) a source may declare; checked from its header, so a
        /// decompression bomb (a small file declaring a huge image) is refused before decoding. libvips decodes in
        /// strips while it shrinks, so memory stays bounded whatever the size: this limit bounds time. Default
        /// 2³⁰ (32,768 × 32,768); services taking uploads from strangers often use 50 M (imgproxy's default).
        public var maximumPixels: Int
        /// The most bytes a source may have: a file's size is checked before it is opened, in-memory bytes before
        /// anything else. Default 512 MiB.
        public var maximumBytes: Int

        public init(maximumPixels: Int = 1 << 30, maximumBytes: Int = 512 << 20) {
            self.maximumPixels = maximumPixels
            self.maximumBytes = maximumBytes
        }
    }
#endif
