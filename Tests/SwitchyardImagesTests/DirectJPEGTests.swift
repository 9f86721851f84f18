#if Images
    import CVipsFixtures
    import Foundation
    import Switchyard
    @testable import SwitchyardImages
    import SwitchyardTesting
    import Testing

    /// The direct JPEG path: a JPEG without an ICC profile decoded by libjpeg at the shrink ``JPEGShrink`` picks,
    /// and a JPEG thumbnail encoded by libjpeg, both on the render's thread. `keepsMetadata` takes libvips' loader
    /// and saver instead, which makes them the reference here. (Orientation, cancellation mid-decode and the
    /// formats' round trips are covered by `ThumbnailTests` and `RenderCancellationTests`, through this path.)
    @Suite("Direct JPEG path: libjpeg's decode and encode on the render's thread, as libvips' would make them")
    struct DirectJPEGTests {
        let pipeline = ImagePipeline(configuration: .init(name: "direct-jpeg", memoryCacheCost: 0))

        @Test("the shrink is the largest of 8, 4 and 2 whose decode still covers the box, in the displayed sides")
        func shrinkFactors() {
            func factor(_ width: Int, _ height: Int, swaps: Bool = false, _ options: ThumbnailOptions) -> Int {
                JPEGShrink.factor(width: width, height: height, swapsSides: swaps, options)
            }
            let inside = ThumbnailOptions(width: 256)
            #expect(factor(4000, 3000, inside) == 8)  // 15.6: 500 × 375 still covers 256
            #expect(factor(2048, 1000, inside) == 8)  // exactly 8
            #expect(factor(2047, 1000, inside) == 4)
            #expect(factor(1024, 768, inside) == 4)
            #expect(factor(600, 400, inside) == 2)
            #expect(factor(511, 300, inside) == 1)
            #expect(factor(100, 80, inside) == 1)  // smaller than the box
            // Cover and exact: the shorter side decides.
            #expect(factor(4000, 1000, ThumbnailOptions(width: 256, fit: .cover)) == 2)
            #expect(factor(4000, 1000, ThumbnailOptions(width: 256, fit: .exact)) == 2)
            // A box 400 × 100; 3000 × 800 as stored, or shown a quarter turn round as 800 × 3000 (inside: 30 → 8;
            // cover: 2 → 2).
            let wide = ThumbnailOptions(width: 400, height: 100)
            #expect(factor(3000, 800, wide) == 8)
            #expect(factor(3000, 800, swaps: true, wide) == 8)
            #expect(factor(3000, 800, swaps: true, ThumbnailOptions(width: 400, height: 100, fit: .cover)) == 2)
            // The box in pixels: points × scale.
            #expect(factor(4000, 3000, ThumbnailOptions(width: 256, scale: 2)) == 4)
        }

        @Test("a photo's thumbnail, as PNG and as JPEG, is libvips' own within rounding", arguments: [1, 6])
        func matchesLibvips(_ orientation: Int) async throws {
            let photo = try await BlockingExecutor.shared.run {
                Fixtures.photo(width: 2_400, height: 1_800, orientation: orientation)
            }
            let source = ImageSource.bytes(photo, identity: "photo-\(orientation).jpg")
            for (format, limit) in [(ImageFormat.png, 1.0), (.jpeg, 2.0)] {
                let direct = try await pipeline.thumbnail(of: source, ThumbnailOptions(width: 200, format: format))
                let libvips = try await pipeline.thumbnail(
                    of: source, ThumbnailOptions(width: 200, format: format, keepsMetadata: true))
                #expect((direct.width, direct.height) == (libvips.width, libvips.height), "\(format)")
                #expect(orientation == 6 ? direct.height > direct.width : direct.width > direct.height)
                let (mean, worst) = try Self.difference(direct.bytes, libvips.bytes)
                #expect(mean <= limit, "\(format): mean difference \(mean)")
                #expect(worst <= 24, "\(format): largest difference \(worst)")
            }
        }

        @Test(
            "cover crops a turned or mirrored JPEG where libvips does, an odd pixel of slack included",
            arguments: 1...8)
        func coverCropMatchesLibvips(_ orientation: Int) async throws {
            // Red left, green top, as displayed: an edge through the middle both ways. 400 × 300 covering 100 × 50
            // is 100 × 75 (25 rows of slack); covering 50 × 100, 133 × 100 (83 columns).
            let source = ImageSource.bytes(
                Fixtures.picture(width: 400, height: 300, orientation: orientation), identity: "o\(orientation).jpg")
            for (width, height) in [(100, 50), (50, 100)] {
                let options = ThumbnailOptions(width: width, height: height, fit: .cover, format: .png)
                var reference = options
                reference.keepsMetadata = true
                let direct = try await pipeline.thumbnail(of: source, options)
                let libvips = try await pipeline.thumbnail(of: source, reference)
                #expect((direct.width, direct.height) == (width, height))
                #expect((libvips.width, libvips.height) == (width, height))
                let (mean, worst) = try Self.difference(direct.bytes, libvips.bytes)
                #expect(worst <= 24, "\(width) × \(height): largest difference \(worst), mean \(mean)")
            }
        }

        @Test("libjpeg is loaded beside libvips, its structures laid out as CVips was compiled for")
        func available() async throws {
            _ = try await pipeline.thumbnail(
                of: .bytes(Fixtures.picture(), identity: "start.jpg"), ThumbnailOptions(width: 8))
            #expect(Vips.decodesJPEGDirectly)
        }

        @Test("a grey JPEG stays grey, its halves their shade")
        func grey() async throws {
            var output: UnsafeMutableRawPointer?
            var length = 0
            #expect(syf_grey_picture(800, 600, &output, &length) == 0)
            let bytes = [UInt8](UnsafeRawBufferPointer(start: output, count: length))
            syf_free(output)
            for format in [ImageFormat.jpeg, .png] {
                let thumbnail = try await pipeline.thumbnail(
                    of: .bytes(bytes, identity: "grey.jpg"), ThumbnailOptions(width: 100, format: format))
                #expect((thumbnail.width, thumbnail.height) == (100, 75))
                let left = try #require(Fixtures.colour(thumbnail.bytes, x: 20, y: 37))
                let right = try #require(Fixtures.colour(thumbnail.bytes, x: 80, y: 37))
                #expect(left.allSatisfy { abs($0 - 64) <= 3 } && right.allSatisfy { abs($0 - 191) <= 3 }, "\(format)")
            }
        }

        @Test("a file cut short past the last MiB the truncation check reads fails the decode, and names it")
        func truncatedFile() async throws {
            let photo = try await BlockingExecutor.shared.run { Fixtures.photo(width: 3_000, height: 2_000) }
            let path = NSTemporaryDirectory() + "switchyard-cut-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jpg"
            // Past a file's last MiB the check proves nothing (the marker may be anywhere): the decode must see it.
            let cut = Array(photo.prefix(photo.count * 3 / 5))
            #expect(cut.count > (1 << 20) + 12)
            try Data(cut).write(to: URL(fileURLWithPath: path))
            defer { unlink(path) }
            let error = await #expect(throws: ImageError.self) {
                try await pipeline.thumbnail(of: .file(path), ThumbnailOptions(width: 64))
            }
            #expect(
                error?.description.hasPrefix("\(path) is truncated or corrupt") == true, "\(String(describing: error))")
        }

        @Test(
            "300 JPEGs corrupted at random: each makes a thumbnail or fails with an ImageError; whole data still decodes"
        )
        func corruptedAtRandom() async throws {
            var random = SeededRandomNumberGenerator.forTest("DirectJPEGTests.corruptedAtRandom")
            let photo = Fixtures.photo(width: 320, height: 240, orientation: 1)
            var (made, failed) = (0, 0)
            for round in 0..<300 {
                var bytes = photo
                // A few bytes anywhere past the start-of-image marker: headers, tables and entropy-coded data.
                for _ in 0..<Int.random(in: 1...8, using: &random) {
                    bytes[Int.random(in: 2..<bytes.count - 2, using: &random)] = UInt8.random(
                        in: 0...255, using: &random)
                }
                do {
                    let thumbnail = try await pipeline.thumbnail(
                        of: .bytes(bytes, identity: "corrupt-\(round).jpg"), ThumbnailOptions(width: 40))
                    #expect(thumbnail.width <= 40 && thumbnail.height <= 40)
                    made += 1
                } catch {
                    failed += 1
                }
            }
            #expect(made + failed == 300)
            #expect(made > 0 && failed > 0, "made \(made), failed \(failed)")
            let whole = try await pipeline.thumbnail(
                of: .bytes(photo, identity: "whole.jpg"), ThumbnailOptions(width: 40))
            #expect((whole.width, whole.height) == (40, 30))
        }

        /// The mean and largest difference of two encoded images of one size, over every pixel and band.
        private static func difference(_ one: [UInt8], _ other: [UInt8]) throws -> (mean: Double, worst: Double) {
            var (mean, worst) = (0.0, 0.0)
            let status = one.withUnsafeBytes { a in
                other.withUnsafeBytes { b in
                    syf_difference(a.baseAddress, a.count, b.baseAddress, b.count, &mean, &worst)
                }
            }
            try #require(status == 0)
            return (mean, worst)
        }
    }
#endif
