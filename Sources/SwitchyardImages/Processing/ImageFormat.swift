#if Images
    import CVips

    /// An encoded image format a thumbnail can be written in.
    public enum ImageFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case jpeg
        case png
        case webp
        /// AV1 in HEIF, when the installed libvips has libheif with an AV1 encoder (``isAvailable``).
        case avif
        /// HEVC in HEIF (as phones write), when the installed libvips has libheif with an HEVC encoder
        /// (``isAvailable``; Debian's `libheif1` includes x265).
        case heic

        /// The usual file name extension, without the dot.
        public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

        /// The MIME type.
        public var mimeType: String { "image/\(rawValue)" }

        /// Whether the installed libvips can write this format. JPEG, PNG and WebP always can on Debian's
        /// `libvips42`; AVIF needs its HEIF module. The first call loads libvips, as any first use of it does;
        /// without a usable libvips no format is available (``ImagePipeline/libvipsProblem()`` says why).
        /// - Complexity: O(1) after the first call.
        public var isAvailable: Bool { Self.available[self] ?? false }

        private static let available: [ImageFormat: Bool] = {
            guard Vips.start() == nil else { return [:] }
            // Each probe encodes on a thread of its own at the pipeline's default nice value: libvips keeps the
            // worker threads it starts, with that thread's scheduling, for every later image.
            return Dictionary(
                uniqueKeysWithValues: allCases.map { ($0, sy_vips_can_save_niced("." + $0.rawValue, 10) != 0) })
        }()

        public var description: String { rawValue }
    }
#endif
