#if Images
    import Switchyard
    import SwitchyardImages
    import Testing

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    @Suite("ImagePipeline: formats, sizes, orientation, limits and errors")
    struct ThumbnailTests {
        let pipeline = ImagePipeline(configuration: .init(name: "thumbnail-tests", width: 2))

        @Test("every format round-trips: each loadable source becomes each writable format, upright")
        func formats() async throws {
            let sources =
                [".jpg", ".png", ".webp", ".tif", ".gif"] + (ImageFormat.avif.isAvailable ? [".avif"] : [])
                + (ImageFormat.heic.isAvailable ? [".heic"] : [])
            let outputs = ImageFormat.allCases.filter(\.isAvailable)
            #expect(outputs.contains(.jpeg) && outputs.contains(.png) && outputs.contains(.webp))
            for suffix in sources {
                let bytes = Fixtures.picture(suffix: suffix)
                for format in outputs {
                    let options = ThumbnailOptions(width: 100, format: format, quality: 90)
                    let thumbnail = try await pipeline.thumbnail(of: .bytes(bytes, identity: "p\(suffix)"), options)
                    #expect(thumbnail.format == format)
                    #expect((thumbnail.width, thumbnail.height) == (100, 75), "\(suffix) → \(format)")
                    let pixel = Fixtures.pixel(thumbnail.bytes, x: 0, y: 0)
                    #expect(pixel?.width == 100, "\(suffix) → \(format) decodes")
                    #expect(Fixtures.quadrants(thumbnail.bytes) == Fixtures.upright, "\(suffix) → \(format)")
                }
            }
        }

        @Test("shapes from the wild: progressive JPEG, palette PNG, 16-bit PNG and TIFF, an animated GIF's first frame")
        func shapes() async throws {
            let cases: [(name: String, bytes: [UInt8])] = [
                ("progressive.jpg", Fixtures.picture(suffix: ".jpg[interlace]")),
                ("palette.png", Fixtures.picture(suffix: ".png[palette]")),
                ("deep.png", Fixtures.deepPicture(suffix: ".png")),
                ("deep.tif", Fixtures.deepPicture(suffix: ".tif")),
                ("animated.gif", Fixtures.animatedPicture()),
            ]
            for (name, bytes) in cases {
                let thumbnail = try await pipeline.thumbnail(
                    of: .bytes(bytes, identity: name), ThumbnailOptions(width: 100, format: .png))
                #expect((thumbnail.width, thumbnail.height) == (100, 75), "\(name)")
                #expect(Fixtures.quadrants(thumbnail.bytes) == Fixtures.upright, "\(name)")
            }
        }

        @Test("a CMYK JPEG with an embedded profile comes out as sRGB with its colours")
        func colourManaged() async throws {
            let source = ImageSource.bytes(Fixtures.cmykPicture(), identity: "cmyk.jpg")
            for format in [ImageFormat.png, .jpeg] {
                let thumbnail = try await pipeline.thumbnail(of: source, ThumbnailOptions(width: 100, format: format))
                #expect((thumbnail.width, thumbnail.height) == (100, 75))
                // Pure green is outside the CMYK profile's gamut: it comes back yellow-green (about 198, 205, 26),
                // as libvips' own conversion gives it; the other three colours keep their look.
                let greenOutOfGamut = [[255, 255, 0], [255, 255, 0], [255, 0, 0], [0, 0, 0]]
                #expect(Fixtures.quadrants(thumbnail.bytes) == greenOutOfGamut, "\(format)")
                #expect(Fixtures.pixel(thumbnail.bytes, x: 75, y: 18)?.rgb == [255, 255, 0])
            }
        }

        @Test("EXIF orientations 1 to 8 come out upright", arguments: 1...8)
        func orientation(_ orientation: Int) async throws {
            let bytes = Fixtures.picture(width: 400, height: 300, orientation: orientation)
            let options = ThumbnailOptions(width: 200, format: .png)
            let thumbnail = try await pipeline.thumbnail(of: .bytes(bytes, identity: "o\(orientation)"), options)
            #expect((thumbnail.width, thumbnail.height) == (200, 150))
            #expect(Fixtures.quadrants(thumbnail.bytes) == Fixtures.upright)
        }

        @Test("fits: inside keeps the aspect ratio, cover fills and crops, exact stretches; scale multiplies")
        func fits() async throws {
            let source = ImageSource.bytes(Fixtures.picture(width: 400, height: 200), identity: "fits")
            let cases: [(ThumbnailOptions, Int, Int)] = [
                (ThumbnailOptions(width: 100, height: 100, fit: .inside), 100, 50),
                (ThumbnailOptions(width: 100, height: 100, fit: .cover), 100, 100),
                (ThumbnailOptions(width: 100, height: 100, fit: .exact), 100, 100),
                (ThumbnailOptions(width: 50, height: 80, scale: 2, fit: .inside), 100, 50),
                (ThumbnailOptions(width: 800, fit: .inside), 400, 200),  // never enlarged by default
                (ThumbnailOptions(width: 800, height: 800, fit: .inside, allowsUpscaling: true), 800, 400),
            ]
            for (options, width, height) in cases {
                let thumbnail = try await pipeline.thumbnail(of: source, options)
                #expect((thumbnail.width, thumbnail.height) == (width, height), "\(options)")
            }
        }

        @Test("a decompression bomb is refused from its header, before any pixel is decoded")
        func bomb() async throws {
            let bytes = Fixtures.bombPNG(width: 100_000, height: 100_000)
            #expect(bytes.count < 100)
            let error = await #expect(throws: ImageError.self) {
                try await pipeline.thumbnail(of: .bytes(bytes, identity: "bomb.png"), ThumbnailOptions(width: 64))
            }
            #expect(error?.reason == .tooManyPixels(width: 100_000, height: 100_000, limit: 1 << 30))
            #expect(error?.description.hasPrefix("bomb.png is 100000 × 100000 pixels") == true)
        }

        @Test("byte and pixel limits are the pipeline's to set")
        func limits() async throws {
            let small = ImagePipeline(
                configuration: .init(
                    name: "small", width: 1, limits: ImageLimits(maximumPixels: 10_000, maximumBytes: 1 << 20)))
            let picture = Fixtures.picture(width: 400, height: 300)
            let error = await #expect(throws: ImageError.self) {
                try await small.thumbnail(of: .bytes(picture, identity: "p"), ThumbnailOptions(width: 64))
            }
            #expect(error?.reason == .tooManyPixels(width: 400, height: 300, limit: 10_000))
            let big = [UInt8](repeating: 0, count: 2 << 20)
            let tooBig = await #expect(throws: ImageError.self) {
                try await small.thumbnail(of: .bytes(big, identity: "big"), ThumbnailOptions(width: 64))
            }
            #expect(tooBig?.reason == .tooManyBytes(size: 2 << 20, limit: 1 << 20))
        }

        @Test("truncated, empty and non-image sources fail with errors that name them, and the next one works")
        func badSources() async throws {
            let jpeg = Fixtures.picture(width: 800, height: 600)
            let png = Fixtures.picture(suffix: ".png")
            let webp = Fixtures.picture(suffix: ".webp")
            let cases: [(ImageSource, String)] = [
                (.bytes(Array(jpeg.prefix(jpeg.count / 2)), identity: "half.jpg"), "half.jpg is truncated or corrupt"),
                (.bytes(Array(png.prefix(png.count - 20)), identity: "cut.png"), "cut.png is truncated or corrupt"),
                (.bytes(Array(webp.prefix(webp.count / 2)), identity: "half.webp"), "half.webp is truncated"),
                (.bytes(Array("stop_id,stop_name\n".utf8), identity: "stops.txt"), "stops.txt is not an image"),
                (.bytes([], identity: "empty.jpg"), "empty.jpg is not an image"),
                (.file("/nonexistent/photo.jpg"), "/nonexistent/photo.jpg cannot be read: No such file"),
                (.file("/"), "/ cannot be read: not a regular file"),
            ]
            for (source, words) in cases {
                let error = await #expect(throws: ImageError.self) {
                    try await pipeline.thumbnail(of: source, ThumbnailOptions(width: 64))
                }
                #expect(error?.description.hasPrefix(words) == true, "\(String(describing: error))")
            }
            let thumbnail = try await pipeline.thumbnail(
                of: .bytes(jpeg, identity: "whole.jpg"), ThumbnailOptions(width: 64))
            #expect(thumbnail.width == 64)
        }

        @Test("transparency: laid on white for JPEG, or on the background asked for; kept by PNG")
        func transparency() async throws {
            let pipeline = ImagePipeline(configuration: .init(name: "transparency", memoryCacheCost: 0))
            let source = ImageSource.bytes(Fixtures.transparent(), identity: "transparent.png")
            let onWhite = try await pipeline.thumbnail(of: source, ThumbnailOptions(width: 32, format: .jpeg))
            #expect(Fixtures.pixel(onWhite.bytes, x: 2, y: 2)?.rgb == [255, 255, 255])
            let blue = ThumbnailOptions.Color(red: 0, green: 0, blue: 255)
            let onBlue = try await pipeline.thumbnail(
                of: source, ThumbnailOptions(width: 32, format: .jpeg, background: blue))
            #expect(Fixtures.pixel(onBlue.bytes, x: 2, y: 2)?.rgb == [0, 0, 255])
            #expect(ThumbnailOptions(width: 32, background: blue).description.hasSuffix("on #0000ff"))
            let png = try await pipeline.thumbnail(of: source, ThumbnailOptions(width: 32, format: .png))
            #expect(Fixtures.alpha(png.bytes, x: 2, y: 2) == 0)
        }

        @Test("a PNG with varying alpha made into a JPEG: the PNG thumbnail laid on the background, within rounding")
        func flattenedBeforeResizing() async throws {
            let pipeline = ImagePipeline(configuration: .init(name: "flatten", memoryCacheCost: 0))
            let source = ImageSource.bytes(Fixtures.photoWithAlpha(width: 640, height: 480), identity: "alpha.png")
            let background = ThumbnailOptions.Color(red: 30, green: 140, blue: 220)
            let jpeg = try await pipeline.thumbnail(
                of: source, ThumbnailOptions(width: 80, format: .jpeg, quality: 100, background: background))
            let png = try await pipeline.thumbnail(of: source, ThumbnailOptions(width: 80, format: .png))
            #expect(jpeg.width == png.width && jpeg.height == png.height)
            let backdrop = [Double(background.red), Double(background.green), Double(background.blue)]
            var worst = 0.0
            var total = 0.0
            var samples = 0
            for y in stride(from: 2, to: png.height - 2, by: 7) {
                for x in stride(from: 2, to: png.width - 2, by: 7) {
                    let colour = try #require(Fixtures.colour(png.bytes, x: x, y: y))
                    let alpha = try #require(Fixtures.alpha(png.bytes, x: x, y: y)) / 255
                    let made = try #require(Fixtures.colour(jpeg.bytes, x: x, y: y))
                    for band in 0..<3 {
                        let expected = alpha * colour[band] + (1 - alpha) * backdrop[band]
                        worst = max(worst, abs(made[band] - expected))
                        total += abs(made[band] - expected)
                        samples += 1
                    }
                }
            }
            #expect(samples >= 200)
            #expect(total / Double(samples) <= 2.5, "mean difference \(total / Double(samples))")
            #expect(worst <= 12, "largest difference \(worst)")
        }

        @Test("BMP and SVG, which libvips reads only through loaders it marks untrusted, are named as such")
        func untrustedFormats() async throws {
            let pipeline = ImagePipeline(configuration: .init(name: "untrusted", memoryCacheCost: 0))
            let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>"#.utf8)
            for (bytes, name, loader) in [(Fixtures.bmp, "a.bmp", "magickload"), (svg, "a.svg", "svgload")] {
                let error = await #expect(throws: ImageError.self) {
                    try await pipeline.thumbnail(of: .bytes(bytes, identity: name), ThumbnailOptions(width: 8))
                }
                #expect(error?.reason == .untrustedFormat(loader: loader), "\(name): \(String(describing: error))")
            }
        }

        @Test("bytes after the end marker (a phone's trailer, a motion photo's video) are tolerated")
        func trailingBytes() async throws {
            let jpeg = Fixtures.picture(width: 400, height: 300)
            let trailer = [UInt8](repeating: 0x5A, count: 300_000)
            let thumbnail = try await pipeline.thumbnail(
                of: .bytes(jpeg + trailer, identity: "motion.jpg"), ThumbnailOptions(width: 40, format: .png))
            #expect(Fixtures.quadrants(thumbnail.bytes) == Fixtures.upright)
        }

        @Test("a file source is read by path")
        func fileSource() async throws {
            let path = "/tmp/switchyard-images-\(UInt64.random(in: 0...UInt64.max)).webp"
            let bytes = Fixtures.picture(suffix: ".webp")
            let file = fopen(path, "wb")
            _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
            defer { unlink(path) }
            let thumbnail = try await pipeline.thumbnail(of: .file(path), ThumbnailOptions(width: 40, format: .png))
            #expect((thumbnail.width, thumbnail.height) == (40, 30))
            #expect(Fixtures.quadrants(thumbnail.bytes) == Fixtures.upright)
        }
    }
#endif
