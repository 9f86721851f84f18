#if Images
    /// How much smaller than its full size a JPEG is decoded before it is resized to its thumbnail.
    ///
    /// libjpeg decodes at 1/2, 1/4 or 1/8 of the size for a fraction of the full decode's work (it skips most of
    /// each block's inverse transform). The largest of them whose image still covers the thumbnail is chosen, as
    /// Pillow's draft mode and sharp's fast shrink-on-load choose it; libvips' own choice leaves at least a factor
    /// of two for the resize, which decodes up to four times as many pixels. The scaled decode averages each block,
    /// and the resize that follows (Lanczos 3, by at most a factor of two) does the rest.
    enum JPEGShrink {
        /// The factor (1, 2, 4 or 8) for a JPEG of `width` × `height` as stored (`swapsSides`: its EXIF
        /// orientation displays it a quarter turn round) made into a thumbnail of `options`.
        /// - Complexity: O(1).
        static func factor(width: Int, height: Int, swapsSides: Bool, _ options: ThumbnailOptions) -> Int {
            let (shown, box) = (
                swapsSides ? (height, width) : (width, height), (options.pixelWidth, options.pixelHeight)
            )
            let across = Double(shown.0) / Double(box.0)
            let down = Double(shown.1) / Double(box.1)
            // Inside: the side that fits the box decides; cover and exact: every side must still cover it.
            let scale = options.fit == .inside ? max(across, down) : min(across, down)
            return [8, 4, 2].first { Double($0) <= scale } ?? 1
        }
    }
#endif
