#if Images
    /// What a thumbnail is: its box, how the image fits it, and how it is encoded. Hashable: equal options on
    /// the same source give the same bytes, so they key the pipeline's coalescing and caches.
    public struct ThumbnailOptions: Sendable, Hashable, CustomStringConvertible {
        /// How the image is fitted to the box.
        public enum Fit: String, Sendable, Hashable, CaseIterable {
            /// The largest size that fits inside the box, aspect ratio kept (one side may be shorter).
            case inside
            /// The smallest size that covers the box, aspect ratio kept, then cropped to it around the centre.
            case cover
            /// Exactly the box, the aspect ratio not kept.
            case exact
        }

        /// An opaque colour, 8 bits a channel.
        public struct Color: Sendable, Hashable, CustomStringConvertible {
            public var red: UInt8
            public var green: UInt8
            public var blue: UInt8
            public init(red: UInt8, green: UInt8, blue: UInt8) {
                self.red = red
                self.green = green
                self.blue = blue
            }
            public static let white = Color(red: 255, green: 255, blue: 255)
            public static let black = Color(red: 0, green: 0, blue: 0)
            /// `#rrggbb`.
            public var description: String {
                "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            }
        }

        /// The box's width and height in points; pixels are points × ``scale``.
        public var width: Int
        public var height: Int
        /// Pixels per point (a device's scale factor: 2 or 3 on high-density screens).
        public var scale: Int
        public var fit: Fit
        public var format: ImageFormat
        /// Encoder quality, 1–100 (JPEG, WebP and AVIF; PNG is lossless).
        public var quality: Int
        /// Whether a source smaller than the box is enlarged to it; by default it is kept at its size.
        public var allowsUpscaling: Bool
        /// Whether EXIF, XMP and other metadata are kept; by default they are removed (the ICC profile of the
        /// sRGB output is removed too: sRGB is what viewers assume).
        public var keepsMetadata: Bool
        /// What transparent parts of the image are laid on when the format has no transparency (JPEG); white by
        /// default, as a web page shows them. Formats with transparency (PNG, WebP, AVIF, HEIC) keep it.
        public var background: Color

        /// The largest box side in pixels (libvips' limit for a thumbnail).
        public static let maximumPixelSide = 10_000_000

        /// - Precondition: `width`, `height` and `scale` are at least 1, the box in pixels (points × scale) at most
        ///   ``maximumPixelSide`` a side; `quality` is 1–100.
        public init(
            width: Int, height: Int? = nil, scale: Int = 1, fit: Fit = .inside, format: ImageFormat = .jpeg,
            quality: Int = 80, allowsUpscaling: Bool = false, keepsMetadata: Bool = false, background: Color = .white
        ) {
            precondition(width >= 1 && (height ?? width) >= 1, "ThumbnailOptions: the box must be at least 1 × 1")
            precondition(scale >= 1, "ThumbnailOptions: scale must be at least 1")
            precondition(
                max(width, height ?? width) <= ThumbnailOptions.maximumPixelSide / scale,
                "ThumbnailOptions: the box in pixels must be at most \(ThumbnailOptions.maximumPixelSide) a side")
            precondition((1...100).contains(quality), "ThumbnailOptions: quality must be 1–100")
            self.width = width
            self.height = height ?? width
            self.scale = scale
            self.fit = fit
            self.format = format
            self.quality = quality
            self.allowsUpscaling = allowsUpscaling
            self.keepsMetadata = keepsMetadata
            self.background = background
        }

        /// The box in pixels.
        public var pixelWidth: Int { width * scale }
        public var pixelHeight: Int { height * scale }

        /// `256x256@2 cover webp q80`, for job names and file names.
        public var description: String {
            var text = "\(width)x\(height)\(scale == 1 ? "" : "@\(scale)") \(fit.rawValue) \(format) q\(quality)"
            if allowsUpscaling { text += " up" }
            if keepsMetadata { text += " meta" }
            if background != .white { text += " on \(background)" }
            return text
        }
    }
#endif
