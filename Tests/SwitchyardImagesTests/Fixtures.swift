#if Images
    import CVipsFixtures
    import SwitchyardImages

    /// Test pictures (see `CVipsFixtures`): red on the left half, green on the top half, as displayed.
    ///
    /// Each call blocks its thread while libvips makes the image. An async test makes one of a megapixel or more
    /// on `BlockingExecutor.shared` (`try await BlockingExecutor.shared.run { Fixtures.photo(...) }`): on a
    /// thread of the shared pool it would hold that thread for as long, and with two processors the tests running
    /// beside it would wait.
    enum Fixtures {
        /// libvips started by the library before any fixture runs: its start must not race with the fixtures' own
        /// (`vips_init` lets a second caller through while the first is still starting). Every test that uses
        /// libvips goes through the library's start (a `static let`) first.
        private static let ready: Bool = ImageFormat.jpeg.isAvailable

        static func picture(
            width: Int = 400, height: Int = 300, orientation: Int = 1, suffix: String = ".jpg"
        ) -> [UInt8] {
            encoded("a \(suffix) test picture") {
                syf_picture(Int32(width), Int32(height), Int32(orientation), suffix, &$0, &$1)
            }
        }

        /// One grey, `width` × `height`, encoded as `suffix`.
        static func plain(width: Int, height: Int, suffix: String) -> [UInt8] {
            encoded("a plain \(suffix)") { syf_plain_image(Int32(width), Int32(height), suffix, &$0, &$1) }
        }

        /// The test picture as a CMYK JPEG with an embedded CMYK profile.
        static func cmykPicture(width: Int = 400, height: Int = 300) -> [UInt8] {
            encoded("a CMYK test picture") { syf_cmyk_picture(Int32(width), Int32(height), &$0, &$1) }
        }

        /// A photo-like JPEG (smooth colour fields with fine grain, Q 90): costly to decode, like a camera's. Tagged
        /// with EXIF `orientation`, its pixels stored as a camera turned that way stores them.
        static func photo(width: Int, height: Int, orientation: Int = 1) -> [UInt8] {
            encoded("a photo") {
                syf_photo(Int32(width), Int32(height), 1, Int32(orientation), 0, ".jpg[Q=90]", &$0, &$1)
            }
        }

        /// The test picture at 16 bits a channel, encoded as `suffix`.
        static func deepPicture(width: Int = 400, height: Int = 300, suffix: String) -> [UInt8] {
            encoded("a 16-bit \(suffix)") { syf_deep_picture(Int32(width), Int32(height), suffix, &$0, &$1) }
        }

        /// A two-frame GIF: the test picture, then black.
        static func animatedPicture(width: Int = 400, height: Int = 300) -> [UInt8] {
            encoded("an animated GIF") { syf_animated_picture(Int32(width), Int32(height), &$0, &$1) }
        }

        private static func encoded(
            _ what: String, _ make: (inout UnsafeMutableRawPointer?, inout Int) -> Int32
        ) -> [UInt8] {
            _ = ready
            var output: UnsafeMutableRawPointer?
            var length = 0
            guard make(&output, &length) == 0, let output else { fatalError("cannot make \(what)") }
            defer { syf_free(output) }
            return [UInt8](UnsafeRawBufferPointer(start: output, count: length))
        }

        /// A PNG, red and wholly transparent.
        static func transparent(width: Int = 64, height: Int = 48) -> [UInt8] {
            encoded("a transparent PNG") { syf_transparent(Int32(width), Int32(height), &$0, &$1) }
        }

        /// A photo-like PNG (as ``photo(width:height:)``) whose alpha varies from pixel to pixel like its colours.
        static func photoWithAlpha(width: Int, height: Int) -> [UInt8] {
            encoded("a photo with alpha") { syf_photo(Int32(width), Int32(height), 2, 1, 1, ".png", &$0, &$1) }
        }

        /// The first three bands at (x, y) of encoded bytes, unrounded (0–255 for 8-bit images).
        static func colour(_ bytes: [UInt8], x: Int, y: Int) -> [Double]? {
            point(bytes, x: x, y: y)?.rgb
        }

        /// The first three bands at (x, y), unrounded, and the image's size.
        private static func point(_ bytes: [UInt8], x: Int, y: Int) -> (rgb: [Double], width: Int, height: Int)? {
            _ = ready
            var rgb = [Double](repeating: 0, count: 3)
            var width: Int32 = 0
            var height: Int32 = 0
            let status = bytes.withUnsafeBytes { buffer in
                rgb.withUnsafeMutableBufferPointer {
                    syf_pixel(buffer.baseAddress, buffer.count, Int32(x), Int32(y), $0.baseAddress, &width, &height)
                }
            }
            return status == 0 ? (rgb, Int(width), Int(height)) : nil
        }

        /// The alpha at (x, y) of encoded bytes; nil if the image has none.
        static func alpha(_ bytes: [UInt8], x: Int, y: Int) -> Double? {
            _ = ready
            let alpha = bytes.withUnsafeBytes { syf_alpha($0.baseAddress, $0.count, Int32(x), Int32(y)) }
            return alpha < 0 ? nil : alpha
        }

        /// A 1 × 1 BMP (24 bits a pixel): a format libvips reads only through ImageMagick.
        static let bmp: [UInt8] =
            Array("BM".utf8) + [58, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0]  // file header: size, reserved, pixel offset
            + [40, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 24, 0] + [UInt8](repeating: 0, count: 24)  // info header
            + [0, 0, 255, 0]  // one red pixel (BGR), padded to 4 bytes

        /// The colour at (x, y) of encoded bytes, each band rounded to 0 or 255, and the image's size.
        static func pixel(_ bytes: [UInt8], x: Int, y: Int) -> (rgb: [Int], width: Int, height: Int)? {
            guard let point = point(bytes, x: x, y: y) else { return nil }
            return (point.rgb.map { $0 > 127 ? 255 : 0 }, point.width, point.height)
        }

        /// The colours of the four quadrants' centres, top left, top right, bottom left, bottom right: an upright
        /// picture gives yellow (red + green), green, red, black.
        static func quadrants(_ bytes: [UInt8]) -> [[Int]] {
            guard let size = pixel(bytes, x: 0, y: 0) else { return [] }
            let (w, h) = (size.width, size.height)
            return [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)].map {
                pixel(bytes, x: $0.0, y: $0.1)?.rgb ?? []
            }
        }

        static let upright = [[255, 255, 0], [0, 255, 0], [255, 0, 0], [0, 0, 0]]

        /// A PNG of `width` × `height` whose pixel data is a few bytes: a decompression bomb's header.
        static func bombPNG(width: UInt32, height: UInt32) -> [UInt8] {
            func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
                let body = Array(type.utf8) + data
                return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
            }
            let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]  // 8-bit RGB
            let data: [UInt8] = [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]  // zlib: one zero byte
            return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", data)
                + chunk("IEND", [])
        }

        private static func bigEndian(_ value: UInt32) -> [UInt8] {
            [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        }

        private static func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
            }
            return ~crc
        }
    }
#endif
