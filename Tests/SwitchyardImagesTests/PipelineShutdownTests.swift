#if Images && SWITCHYARD_TEST_HOOKS  // waits on test hooks of the library (debug builds only)
    import Switchyard
    import SwitchyardHTTP
    @_spi(Testing) import SwitchyardImages
    import SwitchyardTesting
    import Testing

    @Suite("ImagePipeline.shutdown(): later requests fail at once, those in flight end as shut down")
    struct PipelineShutdownTests {
        @Test("after shutdown every request fails at once with shutDown, cached or not, and no job is submitted")
        func requestsAfterShutdown() async throws {
            let pipeline = ImagePipeline(configuration: .init(name: "shut-down", width: 1))
            let options = ThumbnailOptions(width: 64)
            let cached = ImageSource.bytes(Fixtures.picture(), identity: "cached.jpg")
            _ = try await pipeline.thumbnail(of: cached, options)
            await pipeline.shutdown()
            let submitted = pipeline.queue.counts.submitted
            let sources: [ImageSource] = [
                cached, .bytes(Fixtures.picture(), identity: "new.jpg"), .file("/nonexistent/photo.jpg"),
                .url("https://example.invalid/photo.jpg"),
            ]
            for source in sources {
                let error = await #expect(throws: ImageError.self) { try await pipeline.thumbnail(of: source, options) }
                #expect(error?.reason == .shutDown, "\(source)")
                #expect(error?.source == source.description)
            }
            let conditional = await #expect(throws: ImageError.self) {
                try await pipeline.thumbnail(
                    ofURL: "https://example.invalid/photo.jpg", options,
                    unlessStill: ImageVersion(validators: HTTPValidators(etag: "\"v1\"")))
            }
            #expect(conditional?.reason == .shutDown)
            let text = "https://example.invalid/photo.jpg cannot be made: the image pipeline was shut down"
            #expect(conditional?.description == text)
            await pipeline.prefetch([.bytes(Fixtures.picture(), identity: "prefetched.jpg")], options).value
            #expect(pipeline.queue.counts.submitted == submitted && pipeline.downloadQueue.counts.submitted == 0)
            #expect(pipeline.cachedThumbnail(of: cached, options) != nil, "the memory cache still answers")
            await pipeline.shutdown()  // idempotent
        }

        @Test("a request waiting at shutdown fails with shutDown; one whose caller left first got cancelled")
        func requestsInFlight() async throws {
            let pipeline = ImagePipeline(configuration: .init(name: "shut-down-in-flight", width: 1))
            let options = ThumbnailOptions(width: 64)
            let waiting = ImageSource.bytes(Fixtures.picture(), identity: "waiting.jpg")
            let leaving = ImageSource.bytes(Fixtures.picture(width: 300, height: 200), identity: "leaving.jpg")
            // The one slot is held: both requests wait in the queue.
            let gate = Gate()
            let running = CallbackExpectation("the holder runs")
            let holder = Task {
                try await pipeline.queue.submit("holder") {
                    running.fulfill()
                    await gate.wait()
                }.value
            }
            await running.fulfillment(within: .seconds(30))
            let staying = Task { try await pipeline.thumbnail(of: waiting, options) }
            let left = Task { try await pipeline.thumbnail(of: leaving, options) }
            await CallbackExpectation.event("both callers wait", within: .seconds(30)) {
                await pipeline.waitForCallers(1, for: waiting, options)
                await pipeline.waitForCallers(1, for: leaving, options)
            }
            left.cancel()
            let cancelled = await #expect(throws: ImageError.self) { try await left.value }
            #expect(cancelled?.reason == .cancelled)
            let shutdown = Task { await pipeline.shutdown() }
            let error = await #expect(throws: ImageError.self) { try await staying.value }
            #expect(error?.reason == .shutDown)
            #expect(error?.source == "waiting.jpg")
            gate.open()
            _ = try? await holder.value  // cancelled by the shutdown, or finished
            await shutdown.value
        }
    }
#endif
