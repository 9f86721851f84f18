#if Images
    import Switchyard
    import SwitchyardImages
    import Testing

    @Suite("RenderCancellation: a running decode stops when its job's last caller leaves")
    struct RenderCancellationTests {
        @Test("the caller leaving a running 64-megapixel PNG decode frees the thread at once for the next image")
        func interruptsRunningDecode() async throws {
            let pipeline = ImagePipeline(configuration: .init(name: "interrupt", width: 1, memoryCacheCost: 0))
            let bytes = Fixtures.plain(width: 8_000, height: 8_000, suffix: ".png")
            let options = ThumbnailOptions(width: 64)
            let clock = ContinuousClock()
            // The whole decode, for scale: a PNG has no shrink-on-load, so every pixel is decoded (about 0.4 s here;
            // a cancelled decode stops within milliseconds).
            let whole = try await clock.measure {
                _ = try await pipeline.thumbnail(of: .bytes(bytes, identity: "whole"), options)
            }
            let next = ImageSource.bytes(Fixtures.picture(), identity: "next")
            let caller = Task { try await pipeline.thumbnail(of: .bytes(bytes, identity: "left"), options) }
            await yieldUntil("the decode runs") { pipeline.queue.counts.running == 1 }
            let cancelled = clock.now
            caller.cancel()  // from this thread, while libvips reads the source on the pipeline's
            let error = await #expect(throws: ImageError.self) { try await caller.value }
            #expect(error?.reason == .cancelled)
            // The pipeline's one thread is free again: a small image right after does not wait for the big one's
            // decode, which would hold the thread for the rest of `whole` had it been left to run.
            _ = try await pipeline.thumbnail(of: next, options)
            let stopped = clock.now - cancelled
            #expect(
                stopped < whole / 2,
                "the next image came \(stopped) after the caller left; a whole decode takes \(whole)")
        }
    }
#endif
