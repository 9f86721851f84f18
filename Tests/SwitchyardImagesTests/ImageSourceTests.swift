#if Images
    import Switchyard
    import SwitchyardImages
    import SwitchyardTesting
    import Testing

    @Suite("ImageSource: bytes in memory are one source only when their bytes are one image")
    struct ImageSourceTests {
        @Test("bytes with one identity, or none, but other contents are other sources; the same contents are equal")
        func equality() {
            let (first, second): ([UInt8], [UInt8]) = ([1, 2, 3], [1, 2, 4])
            #expect(ImageSource.bytes(first, identity: "photo.jpg") != .bytes(second, identity: "photo.jpg"))
            #expect(ImageSource.bytes(first) != .bytes(second))
            #expect(ImageSource.bytes(first, identity: "a") != .bytes(first, identity: "b"))
            #expect(ImageSource.bytes(first, identity: "a") != .bytes(first))
            #expect(ImageSource.bytes(first, identity: "photo.jpg") == .bytes(Array(first), identity: "photo.jpg"))
            #expect(ImageSource.bytes(first) == .bytes(Array(first)))
            let all: [ImageSource] = [
                .bytes(first, identity: "p"), .bytes(second, identity: "p"), .bytes(first), .bytes(second),
                .bytes(first, identity: "p"),
            ]
            #expect(Set(all).count == 4)
            // SHA-256's digest of no bytes is well known.
            #expect(EncodedBytes([]).digest == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
            #expect(ImageSource.bytes(first, identity: "photo.jpg").description == "photo.jpg")
            #expect(ImageSource.bytes(first).description == "3 bytes, sha256 \(EncodedBytes(first).digest.prefix(16))")
        }

        @Test("two images under one identity get their own thumbnails, from the memory cache and from the disk")
        func ownThumbnails() async throws {
            let (wide, tall) = (Fixtures.picture(width: 640, height: 480), Fixtures.picture(width: 480, height: 640))
            let options = ThumbnailOptions(width: 64)
            let pipeline = ImagePipeline(configuration: .init(name: "identity-memory", width: 1))
            for _ in 0..<2 {  // the second round comes from the memory cache
                let first = try await pipeline.thumbnail(of: .bytes(wide, identity: "photo.jpg"), options)
                let second = try await pipeline.thumbnail(of: .bytes(tall, identity: "photo.jpg"), options)
                #expect((first.width, first.height) == (64, 48) && (second.width, second.height) == (48, 64))
            }
            try await withFolder { folder in
                let cache = ThumbnailDiskCache(folder: folder, byteLimit: 1 << 20)
                let onDisk = ImagePipeline(
                    configuration: .init(name: "identity-disk", width: 1, memoryCacheCost: 0, diskCache: cache))
                for _ in 0..<2 {  // the second round comes from the disk
                    let first = try await onDisk.thumbnail(of: .bytes(wide, identity: "photo.jpg"), options)
                    let second = try await onDisk.thumbnail(of: .bytes(tall, identity: "photo.jpg"), options)
                    #expect((first.width, first.height) == (64, 48) && (second.width, second.height) == (48, 64))
                }
                #expect(DiskCacheTests.entries(folder).count == 2)
                await cache.waitUntilScanned()  // before the folder goes
            }
        }

        @Test("two images under one identity requested at once make a job each: neither joins the other's")
        func ownJobs() async throws {
            let pipeline = ImagePipeline(configuration: .init(name: "identity-jobs", width: 1, memoryCacheCost: 0))
            let wide = ImageSource.bytes(Fixtures.picture(width: 640, height: 480), identity: "photo.jpg")
            let tall = ImageSource.bytes(Fixtures.picture(width: 480, height: 640), identity: "photo.jpg")
            let options = ThumbnailOptions(width: 64)
            // The one slot is held while both requests arrive, so a request that could join the other's job would.
            let gate = Gate()
            let running = CallbackExpectation("the holder runs")
            let holder = Task {
                try await pipeline.queue.submit("holder") {
                    running.fulfill()
                    await gate.wait()
                }.value
            }
            await running.fulfillment(within: .seconds(30))
            let submitted = pipeline.queue.events()
            let first = Task { try await pipeline.thumbnail(of: wide, options) }
            let second = Task { try await pipeline.thumbnail(of: tall, options) }
            await waitFor(2, .submitted, in: submitted, "a job for each image")
            gate.open()
            let (one, other) = (try await first.value, try await second.value)
            #expect((one.width, one.height) == (64, 48) && (other.width, other.height) == (48, 64))
            try await holder.value
        }
    }
#endif
