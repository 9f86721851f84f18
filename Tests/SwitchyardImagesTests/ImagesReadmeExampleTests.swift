#if Images
    import Switchyard
    import SwitchyardImages
    import SwitchyardTesting
    import Testing

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The README's slot example, as written there, in a table-cell-like loop: one cell reused for two rows on the
    /// main actor, results delivered on `.main`.
    @Suite("README: the image slot example")
    struct ImagesReadmeExampleTests {
        struct Row {
            var photo: String
        }

        /// A table cell: shows what its slot hands it, on the main actor.
        @MainActor final class Cell {
            var shown: [String] = []
            let displayed: CallbackExpectation

            init(expecting count: Int) { displayed = CallbackExpectation("displayed", expectedCount: .atLeast(count)) }

            func show(_ content: ImageSlot.Content) {
                shown.append(ImageSlotTests.describe(content))
                displayed.fulfill()
            }
        }

        @Test("a reused cell ends on its latest row's thumbnail, delivered on the main actor; the disk cache filled")
        @MainActor func example() async throws {
            let folder = "/tmp/switchyard-images-tests-\(UInt64.random(in: 0...UInt64.max))"
            mkdir(folder, 0o755)
            defer { removeTree(folder) }
            let rows = [Row(photo: folder + "/landscape.jpg"), Row(photo: folder + "/portrait.jpg")]
            DiskCacheTests.write(rows[0].photo, Fixtures.picture(width: 800, height: 600))
            DiskCacheTests.write(rows[1].photo, Fixtures.picture(width: 600, height: 800))
            let cache = folder + "/cache"
            let cell = Cell(expecting: 2)  // the latest load's placeholder and thumbnail: the first load's are stale

            let pipeline = ImagePipeline(
                configuration: .init(diskCache: ThumbnailDiskCache(folder: cache, byteLimit: 1 << 28)))
            let slot = ImageSlot(pipeline: pipeline, delivery: .main) { content in
                MainActor.assumeIsolated { cell.show(content) }
            }
            for row in rows {  // the cell reused before its first row's thumbnail arrives: the last load wins
                slot.load(.file(row.photo), ThumbnailOptions(width: 64, scale: 2, fit: .cover))
            }

            await cell.displayed.fulfillment(within: .seconds(60))
            #expect(cell.shown == ["placeholder", "image 128x128"])
            #expect(DiskCacheTests.entries(cache).count >= 1)
            await pipeline.shutdown()  // the first row's cancelled render, too, has ended before the folder goes
        }
    }
#endif
