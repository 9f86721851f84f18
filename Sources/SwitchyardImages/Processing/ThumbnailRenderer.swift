#if Images
    import CVips

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Makes one thumbnail with libvips. Blocking (it decodes and encodes on the calling thread): the pipeline
    /// calls it on its `BlockingExecutor`, never on the cooperative pool. Thread-safe: any number of
    /// renders run at once, each on its own thread.
    ///
    /// A JPEG source without an ICC profile is decoded by libjpeg into memory at the shrink ``JPEGShrink``
    /// chooses, and a JPEG thumbnail without metadata is computed and encoded by libjpeg, both on the calling
    /// thread (the libjpeg that libvips' own loader and saver use, which would run on libvips' worker threads and
    /// hand each strip of pixels across). Other sources and formats, CMYK JPEGs, those with a profile, kept
    /// metadata, and JPEGs whose decoded pixels would take over 32 MiB go through libvips' loaders and savers.
    enum ThumbnailRenderer {
        /// The steps, each refusing what is wrong before the next costs more: the byte limit (size only), the
        /// format (the first bytes), the pixel limit (the header), then decoding with shrink-on-load, EXIF
        /// orientation and colour management to sRGB, then encoding.
        ///
        /// Once `cancellation` is cancelled, the decode stops at its next read of the source or its next region of
        /// pixels, whichever comes first (see ``RenderCancellation``), and the render throws
        /// ``ImageError/Reason/cancelled``.
        static func render(
            _ source: ImageSource, _ options: ThumbnailOptions, limits: ImageLimits,
            cancellation: RenderCancellation = RenderCancellation()
        ) throws(ImageError) -> Thumbnail {
            let name = source.description
            func fail(_ reason: ImageError.Reason) -> ImageError { ImageError(source: name, reason: reason) }
            if let problem = Vips.start() { throw fail(.libvipsUnavailable(problem)) }
            guard options.format.isAvailable else { throw fail(.formatUnavailable(options.format)) }
            switch source {
            case .file(let path):
                // One descriptor for every step: the file checked is the file decoded, even if the path is replaced
                // meanwhile.
                let descriptor = open(path, O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { throw fail(.unreadable(String(cString: strerror(errno)))) }
                defer { close(descriptor) }
                var status = stat()
                guard fstat(descriptor, &status) == 0 else { throw fail(.unreadable(String(cString: strerror(errno)))) }
                guard (status.st_mode & S_IFMT) == S_IFREG else { throw fail(.unreadable("not a regular file")) }
                let size = Int(status.st_size)
                guard size <= limits.maximumBytes else {
                    throw fail(.tooManyBytes(size: size, limit: limits.maximumBytes))
                }
                let reader = SYReader(
                    descriptor: descriptor, bytes: nil, length: gint64(size), offset: 0, cancelled: cancellation.flag)
                let loader = try withReader(reader) { sy_vips_find_load_reader($0) }
                guard let loader else {
                    sy_free(sy_vips_take_error())  // the sniffer's own message; ours says more
                    // libvips' ImageMagick loader reads files and buffers only: ask by path to name it.
                    if let byPath = sy_vips_find_load(path) { try refuseUntrusted(byPath, fail) }
                    sy_free(sy_vips_take_error())
                    throw fail(.notAnImage)
                }
                try refuseUntrusted(loader, fail)
                let header = try withReader(reader) { (state) throws(ImageError) -> Header in
                    try checkHeader(sy_vips_header_reader(state), loader: loader, limits, fail)
                }
                if let (head, tail) = ends(of: descriptor, size: size, tailLength: 1 << 20),
                    let problem = TruncationCheck.problem(
                        head: head[...], tail: tail[...], length: size, tailIsWhole: tail.count + head.count >= size)
                {
                    throw fail(.undecodable(problem))
                }
                return try thumbnail(reading: reader, header, options, cancellation, fail)
            case .url(let url):  // the pipeline downloads a URL first and renders its bytes
                throw ImageError(source: url, reason: .unreadable("a URL is rendered from its downloaded bytes"))
            case .bytes(let encoded):
                let bytes = encoded.bytes
                guard bytes.count <= limits.maximumBytes else {
                    throw fail(.tooManyBytes(size: bytes.count, limit: limits.maximumBytes))
                }
                let made = bytes.withUnsafeBytes { buffer -> Result<Thumbnail, ImageError> in
                    Result { () throws(ImageError) -> Thumbnail in
                        guard let base = buffer.baseAddress,
                            let loader = sy_vips_find_load_buffer(base, buffer.count)
                        else {
                            sy_free(sy_vips_take_error())  // the sniffer's own message; ours says more
                            throw fail(.notAnImage)
                        }
                        try refuseUntrusted(loader, fail)
                        let header = try checkHeader(
                            sy_vips_header_buffer(base, buffer.count), loader: loader, limits, fail)
                        if let problem = TruncationCheck.problem(
                            head: bytes.prefix(12), tail: bytes[...], length: bytes.count)
                        {
                            throw fail(.undecodable(problem))
                        }
                        let reader = SYReader(
                            descriptor: -1, bytes: base.assumingMemoryBound(to: UInt8.self),
                            length: gint64(buffer.count),
                            offset: 0, cancelled: cancellation.flag)
                        return try thumbnail(reading: reader, header, options, cancellation, fail)
                    }
                }
                return try made.get()
            }
        }

        /// Decodes through `reader` (shrink-on-load, orientation, sRGB) and encodes. The image is lazy: its pixels are
        /// read and decoded while it is encoded, so both happen before the reader is released. Every libvips image
        /// built meanwhile on this thread is kept for `cancellation` (`sy_render_begin`), which kills their
        /// evaluation when it is cancelled; they are released before the reader is.
        ///
        /// An image with alpha that has no shrink-on-load and no profile (PNG), made into a JPEG, is laid on the
        /// background before it is resized rather than after: resizing is linear, so the pixels are the same
        /// within rounding, and the resize works on three 8-bit bands instead of four premultiplied in float.
        private static func thumbnail(
            reading reader: SYReader, _ header: Header, _ options: ThumbnailOptions,
            _ cancellation: RenderCancellation, _ fail: (ImageError.Reason) -> ImageError
        ) throws(ImageError) -> Thumbnail {
            let flattensFirst = options.format == .jpeg && header.hasAlpha && !header.hasProfile && header.isPNG
            do throws(ImageError) {
                let thumbnail = try withReader(reader) { state throws(ImageError) -> Thumbnail in
                    sy_render_begin(cancellation.flag)
                    defer { sy_render_end(cancellation.flag) }  // after the images below are released
                    let image = try make(fail, options) { out, size, crop in
                        let (width, height) = (Int32(options.pixelWidth), Int32(options.pixelHeight))
                        guard flattensFirst else {
                            let shrink =
                                header.isJPEG
                                ? Int32(
                                    JPEGShrink.factor(
                                        width: header.width, height: header.height,
                                        swapsSides: (5...8).contains(header.orientation), options)) : 1
                            if header.isJPEG && !header.hasProfile && !options.keepsMetadata {
                                let direct = sy_jpeg_thumbnail_reader(
                                    state, &out, width, height, size, crop, shrink, header.orientation,
                                    Int64(directDecodeByteLimit))
                                if direct != 1 { return direct }  // 1: not taken, libvips decodes it
                            }
                            return sy_vips_thumbnail_reader(
                                state, &out, width, height, size, crop, failOn, header.hasProfile ? 1 : 0, shrink)
                        }
                        let background = Background(options.background)
                        return sy_vips_thumbnail_flattened_reader(
                            state, &out, width, height, size, crop, failOn, background.red, background.green,
                            background.blue, background.grey)
                    }
                    defer { sy_vips_unref(image) }
                    guard options.format == .jpeg, sy_vips_has_alpha(image) != 0 else {
                        return try encode(image, options, cancellation, fail)
                    }
                    let flat = try flattened(image, on: options.background, fail)
                    defer { sy_vips_unref(flat) }
                    return try encode(flat, options, cancellation, fail)
                }
                // A loader may take the refused read for the end of the data and finish with a partial image: once
                // cancelled, nothing made is returned (nor cached).
                if cancellation.isCancelled { throw fail(.cancelled) }
                return thumbnail
            } catch {
                // The reader's refusal surfaces as a read or decode error: name it for what it is.
                throw cancellation.isCancelled ? fail(.cancelled) : error
            }
        }

        /// Runs `body` with a copy of `reader` at a stable address, for libvips to read through; everything that
        /// reads from it (a header, a lazy image) must be released before `body` returns.
        private static func withReader<Result>(
            _ reader: SYReader, _ body: (UnsafeMutablePointer<SYReader>) throws(ImageError) -> Result
        ) throws(ImageError) -> Result {
            let state = UnsafeMutablePointer<SYReader>.allocate(capacity: 1)
            state.initialize(to: reader)
            sy_reader_publish(state)
            defer {
                sy_reader_retire(state)
                state.deallocate()
            }
            return try body(state)
        }

        /// Refuses a format whose loader (a class name, as libvips' sniffers return it) libvips marks untrusted,
        /// naming the loader by its nickname without the variant suffix (`magickload_buffer` is `magickload`).
        private static func refuseUntrusted(
            _ loader: UnsafePointer<CChar>, _ fail: (ImageError.Reason) -> ImageError
        ) throws(ImageError) {
            guard let untrusted = sy_vips_untrusted_loader(loader) else { return }
            var name = String(cString: untrusted)
            for suffix in ["_buffer", "_source"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
            throw fail(.untrustedFormat(loader: name))
        }

        /// The first 12 and the last `tailLength` bytes of an open file (nil if they cannot be read: the decoder
        /// then says why).
        private static func ends(of descriptor: Int32, size: Int, tailLength: Int) -> ([UInt8], [UInt8])? {
            var head = [UInt8](repeating: 0, count: min(12, size))
            var tail = [UInt8](repeating: 0, count: min(tailLength, size))
            let headRead = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            let tailRead = tail.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress, $0.count, off_t(size - $0.count))
            }
            guard headRead == head.count, tailRead == tail.count else { return nil }
            return (head, tail)
        }

        /// Truncated or corrupt data fails the decode; warnings do not.
        private static let failOn = Int32(VIPS_FAIL_ON_ERROR.rawValue)

        /// What the header says that decides how an image is made.
        private struct Header {
            /// An ICC profile, to be converted to sRGB: without one, the image is taken as sRGB already, and
            /// converting would only cost time.
            var hasProfile: Bool
            var hasAlpha: Bool
            /// Loaded by libvips' PNG loader, which has no shrink-on-load.
            var isPNG: Bool
            /// Loaded by libvips' JPEG loader, whose shrink-on-load the renderer chooses (``JPEGShrink``).
            var isJPEG: Bool
            /// The size as stored, and the EXIF orientation it is displayed with (1–8).
            var width: Int
            var height: Int
            var orientation: Int32
        }

        /// The most memory a JPEG decoded by the direct path (`sy_jpeg_thumbnail_reader`) may take, at its shrink:
        /// a larger one is decoded by libvips, which streams it. About 11 megapixels in colour.
        private static let directDecodeByteLimit = 32 << 20

        /// Checks the header against the pixel limit, and reads what ``Header`` holds.
        private static func checkHeader(
            _ header: UnsafeMutablePointer<VipsImage>?, loader: UnsafePointer<CChar>, _ limits: ImageLimits,
            _ fail: (ImageError.Reason) -> ImageError
        ) throws(ImageError) -> Header {
            guard let header else { throw fail(.undecodable(Vips.takeError())) }
            let width = Int(sy_vips_width(header))
            let height = Int(sy_vips_height(header))
            let loaderName = String(cString: loader)
            let read = Header(
                hasProfile: sy_vips_has_profile(header) != 0, hasAlpha: sy_vips_has_alpha(header) != 0,
                isPNG: loaderName.hasPrefix("VipsForeignLoadPng"), isJPEG: loaderName.hasPrefix("VipsForeignLoadJpeg"),
                width: width, height: height, orientation: sy_vips_orientation(header))
            sy_vips_unref(header)
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            guard !overflow, pixels <= limits.maximumPixels else {
                throw fail(.tooManyPixels(width: width, height: height, limit: limits.maximumPixels))
            }
            return read
        }

        /// The thumbnail operation (lazy: pixels are decoded when it is encoded), in sRGB.
        private static func make(
            _ fail: (ImageError.Reason) -> ImageError, _ options: ThumbnailOptions,
            _ call: (inout UnsafeMutablePointer<VipsImage>?, Int32, Int32) -> Int32
        ) throws(ImageError) -> UnsafeMutablePointer<VipsImage> {
            let size: VipsSize =
                options.fit == .exact ? VIPS_SIZE_FORCE : options.allowsUpscaling ? VIPS_SIZE_BOTH : VIPS_SIZE_DOWN
            let crop: VipsInteresting = options.fit == .cover ? VIPS_INTERESTING_CENTRE : VIPS_INTERESTING_NONE
            var image: UnsafeMutablePointer<VipsImage>?
            guard call(&image, Int32(size.rawValue), Int32(crop.rawValue)) == 0, let made = image else {
                throw fail(.undecodable(Vips.takeError()))
            }
            let interpretation = sy_vips_interpretation(made)
            guard interpretation != VIPS_INTERPRETATION_sRGB, interpretation != VIPS_INTERPRETATION_B_W else {
                return made
            }
            var converted: UnsafeMutablePointer<VipsImage>?
            defer { sy_vips_unref(made) }
            guard sy_vips_to_srgb(made, &converted) == 0, let converted else {
                throw fail(.undecodable(Vips.takeError()))
            }
            return converted
        }

        /// `image` laid on `background`, its alpha removed (for a format without transparency).
        private static func flattened(
            _ image: UnsafeMutablePointer<VipsImage>, on background: ThumbnailOptions.Color,
            _ fail: (ImageError.Reason) -> ImageError
        ) throws(ImageError) -> UnsafeMutablePointer<VipsImage> {
            let colour = Background(background)
            var flat: UnsafeMutablePointer<VipsImage>?
            guard sy_vips_flatten(image, &flat, colour.red, colour.green, colour.blue, colour.grey) == 0, let flat
            else {
                throw fail(.undecodable(Vips.takeError()))
            }
            return flat
        }

        /// A background colour as libvips' flatten takes it, with its grey for a one-band image.
        private struct Background {
            var red: Double
            var green: Double
            var blue: Double
            /// Rec. 601 luma, as libvips converts sRGB to grey.
            var grey: Double { 0.299 * red + 0.587 * green + 0.114 * blue }

            init(_ colour: ThumbnailOptions.Color) {
                (red, green, blue) = (Double(colour.red), Double(colour.green), Double(colour.blue))
            }
        }

        /// Encodes `image`: this is when its pixels are decoded, so a truncated source fails here. A JPEG without
        /// metadata is computed and encoded on this thread (`sy_jpeg_encode_image`), stopping once `cancellation`
        /// is cancelled; other formats by libvips' savers.
        private static func encode(
            _ image: UnsafeMutablePointer<VipsImage>, _ options: ThumbnailOptions,
            _ cancellation: RenderCancellation, _ fail: (ImageError.Reason) -> ImageError
        ) throws(ImageError) -> Thumbnail {
            var output: UnsafeMutableRawPointer?
            var length = 0
            let strip: Int32 = options.keepsMetadata ? 0 : 1
            let quality = Int32(options.quality)
            var status: Int32 = 1
            switch options.format {
            case .jpeg:
                if !options.keepsMetadata {
                    status = sy_jpeg_encode_image(image, quality, cancellation.flag, &output, &length)
                }
                if status == 1 { status = sy_vips_jpeg(image, &output, &length, quality, strip) }
            case .png: status = sy_vips_png(image, &output, &length, strip)
            case .webp: status = sy_vips_webp(image, &output, &length, quality, strip)
            case .avif: status = sy_vips_avif(image, &output, &length, quality, strip)
            case .heic: status = sy_vips_heic(image, &output, &length, quality, strip)
            }
            guard status == 0, let output else {
                let message = Vips.takeError()
                // Pixels are decoded while encoding: a loader's error is the source's fault, a saver's the encoder's.
                throw fail(message.contains("save") ? .encodingFailed(message) : .undecodable(message))
            }
            defer { sy_free(output) }
            let bytes = [UInt8](UnsafeRawBufferPointer(start: output, count: length))
            return Thumbnail(
                bytes: bytes, format: options.format, width: Int(sy_vips_width(image)),
                height: Int(sy_vips_height(image)))
        }
    }
#endif
