#if Images && SWITCHYARD_TEST_HOOKS  // waits on test hooks of the library (debug builds only)
    import Switchyard
    import SwitchyardHTTP
    import SwitchyardHTTPTesting
    @_spi(Testing) import SwitchyardImages
    import SwitchyardTesting
    import Testing

    @Suite("ImagePipeline: coalescing, concurrency, cancellation")
    struct PipelineTests {
        /// Responses held behind a gate are not timed out: on a loaded machine the default idle minute can pass
        /// before the test releases them.
        static let heldTimeouts = HTTPTimeouts(idle: .seconds(3600))

        @Test("100 requests for one source and options make one thumbnail")
        func coalescing() async throws {
            let pipeline = ImagePipeline(configuration: .init(name: "coalescing", width: 1))
            let picture = try await BlockingExecutor.shared.run { Fixtures.picture(width: 2000, height: 1500) }
            let source = ImageSource.bytes(picture, identity: "shared.jpg")
            let options = ThumbnailOptions(width: 128, format: .webp)
            // The one slot is held by another image while the 100 requests arrive, so they all find the job queued.
            let gate = Gate()
            let holder = await Self.holdSlot(of: pipeline, until: gate)
            let thumbnails = try await withThrowingTaskGroup(of: Thumbnail.self) { group in
                for _ in 0..<100 { group.addTask { try await pipeline.thumbnail(of: source, options) } }
                await CallbackExpectation.event("100 callers wait", within: .seconds(30)) {
                    await pipeline.waitForCallers(100, for: source, options)
                }
                #expect(pipeline.callersWaiting(for: source, options) == 100)
                gate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            try await holder.value
            #expect(Set(thumbnails).count == 1)
            #expect(pipeline.queue.counts.succeeded == 2)  // the holder and one thumbnail
        }

        @Test("a caller that leaves gets cancelled at once; the others still get the thumbnail")
        func cancellation() async throws {
            let pipeline = ImagePipeline(configuration: .init(name: "cancellation", width: 1))
            let source = ImageSource.bytes(Fixtures.picture(), identity: "c.jpg")
            let options = ThumbnailOptions(width: 64)
            let gate = Gate()
            let holder = await Self.holdSlot(of: pipeline, until: gate)
            let leaving = Task { try await pipeline.thumbnail(of: source, options) }
            let staying = Task { try await pipeline.thumbnail(of: source, options) }
            await CallbackExpectation.event("two callers wait", within: .seconds(30)) {
                await pipeline.waitForCallers(2, for: source, options)
            }
            leaving.cancel()
            let error = await #expect(throws: ImageError.self) { try await leaving.value }
            #expect(error?.reason == .cancelled)
            gate.open()
            #expect(try await staying.value.width == 64)
            try await holder.value
        }

        @Test("a visible request raises the prefetch it joins: it starts before the prefetches queued ahead of it")
        func prefetchEscalation() async throws {
            let pipeline = ImagePipeline(configuration: .init(name: "prefetch", width: 1))
            let picture = Fixtures.picture(width: 400, height: 300)
            let sources = ["a.jpg", "b.jpg", "c.jpg"].map { ImageSource.bytes(picture, identity: $0) }
            let options = ThumbnailOptions(width: 32)
            let gate = Gate()
            let holder = await Self.holdSlot(of: pipeline, until: gate)
            let events = pipeline.queue.events()
            let submitted = pipeline.queue.events()
            let prefetch = pipeline.prefetch(sources, options)
            await waitFor(3, .submitted, in: submitted, "three prefetches wait")
            #expect(pipeline.queue.counts.pending == 3)
            let visible = Task { try await pipeline.thumbnail(of: sources[2], options, priority: .userInitiated) }
            await CallbackExpectation.event("the visible request joined", within: .seconds(30)) {
                await pipeline.waitForCallers(2, for: sources[2], options)
            }
            gate.open()
            var started: [String] = []
            for await event in events where event.kind == .started && !event.jobName.hasPrefix("holder") {
                started.append(event.jobName)
                if started.count == 3 { break }
            }
            #expect(started.first?.contains("c.jpg") == true, "\(started)")
            _ = try await visible.value
            await prefetch.value
            try await holder.value
            #expect(pipeline.cachedThumbnail(of: sources[0], options) != nil, "prefetched into the memory cache")
        }

        @Test("at most `width` images are processed at once")
        func width() async throws {
            let pipeline = ImagePipeline(configuration: .init(name: "width", width: 2))
            let picture = try await BlockingExecutor.shared.run { Fixtures.picture(width: 1200, height: 900) }
            // Every start and finish, in order: the peak of running jobs is read from them, none missed.
            let events = pipeline.queue.events(bufferingPolicy: .unbounded)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        _ = try await pipeline.thumbnail(
                            of: .bytes(picture, identity: "w\(index)"), ThumbnailOptions(width: 100))
                    }
                }
                try await group.waitForAll()
            }
            var (running, peak, finished) = (0, 0, 0)
            for await event in events {
                switch event.kind {
                case .started:
                    running += 1
                    peak = max(peak, running)
                case .finished:
                    running -= 1
                    finished += 1
                default: break
                }
                if finished == 12 { break }
            }
            #expect(peak <= 2, "\(peak) images processed at once")
            #expect(pipeline.queue.counts.succeeded == 12)
        }

        @Test("URL sources: 50 callers, one download and one decode; a missing image fails naming its URL")
        func urlSources() async throws {
            let server = try await StubServer.start()
            let session = HTTPSession(
                configuration: .init(name: "images-http", timeouts: Self.heldTimeouts, retry: .never))
            let pipeline = ImagePipeline(configuration: .init(name: "urls", width: 2, session: session))
            let gate = StubGate()
            server.route(
                "/photo.jpg",
                StubResponse(body: Fixtures.picture(width: 640, height: 480)).header("etag", "\"v1\"").held(by: gate))
            let url = server.url("/photo.jpg")
            let thumbnails = try await withThrowingTaskGroup(of: Thumbnail.self) { group in
                for _ in 0..<50 {
                    group.addTask { try await pipeline.thumbnail(of: .url(url), ThumbnailOptions(width: 64)) }
                }
                await server.waitForOpenRequests(count: 1)
                gate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(thumbnails).count == 1 && thumbnails[0].width == 64)
            #expect(server.requests(to: "/photo.jpg").count == 1)
            #expect(pipeline.queue.counts.succeeded == 1)
            #expect(pipeline.cachedThumbnail(of: .url(url), ThumbnailOptions(width: 64)) == thumbnails[0])
            // Kept once, under its URL: not also under the downloaded bytes' identity.
            let body = ImageSource.bytes(Fixtures.picture(width: 640, height: 480), identity: "\(url) \"v1\"")
            #expect(pipeline.cachedThumbnail(of: body, ThumbnailOptions(width: 64)) == nil)
            let missing = server.url("/missing.jpg")
            let error = await #expect(throws: ImageError.self) {
                try await pipeline.thumbnail(of: .url(missing), ThumbnailOptions(width: 64))
            }
            #expect(error?.source == missing)
            #expect(error?.description.contains("404") == true, "\(String(describing: error))")
            try await session.shutdown()
            try await server.shutdown()
        }

        @Test("at most downloadWidth URL sources are in flight: the rest wait in the download queue, not in memory")
        func downloadWidth() async throws {
            let server = try await StubServer.start()
            let session = HTTPSession(
                configuration: .init(name: "images-width", timeouts: Self.heldTimeouts, retry: .never))
            let pipeline = ImagePipeline(
                configuration: .init(name: "download-width", width: 1, session: session, downloadWidth: 2))
            let gate = StubGate()
            let picture = Fixtures.picture(width: 64, height: 48)
            let urls = (0..<5).map { server.url("/\($0).jpg") }
            let submitted = pipeline.downloadQueue.events()
            for index in 0..<5 { server.route("/\(index).jpg", StubResponse(body: picture).held(by: gate)) }
            let thumbnails = try await withThrowingTaskGroup(of: Thumbnail.self) { group in
                for url in urls {
                    group.addTask { try await pipeline.thumbnail(of: .url(url), ThumbnailOptions(width: 16)) }
                }
                await server.waitForOpenRequests(count: 2)
                await waitFor(5, .submitted, in: submitted, "the five downloads are submitted")
                #expect(pipeline.downloadQueue.counts.pending == 3)
                #expect(pipeline.downloadQueue.counts.running == 2)
                #expect((0..<5).map { server.requests(to: "/\($0).jpg").count }.reduce(0, +) == 2)
                gate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(thumbnails.count == 5 && thumbnails.allSatisfy { $0.width == 16 })
            #expect(pipeline.downloadQueue.counts.succeeded == 5)
            try await session.shutdown()
            try await server.shutdown()
        }

        @Test("a URL asked again unless still its version: a 304 gives nil, a new version a new thumbnail")
        func urlVersions() async throws {
            let server = try await StubServer.start()
            let session = HTTPSession(configuration: .init(name: "images-versions", retry: .never))
            let pipeline = ImagePipeline(configuration: .init(name: "versions", session: session))
            let options = ThumbnailOptions(width: 64)
            let (wide, tall) = (Fixtures.picture(width: 640, height: 480), Fixtures.picture(width: 480, height: 640))
            server.route("/tagged.jpg", StubResponse(body: wide).header("etag", "\"v1\""))
            let url = server.url("/tagged.jpg")
            let first = try await pipeline.thumbnail(of: .url(url), options)
            let version = try #require(first.sourceVersion)
            #expect(version.validators.etag == "\"v1\"")
            #expect(try await pipeline.thumbnail(ofURL: url, options, unlessStill: version) == nil)
            #expect(server.requests(to: "/tagged.jpg").last?.header("if-none-match") == "\"v1\"")
            server.route("/tagged.jpg", StubResponse(body: tall).header("etag", "\"v2\""))
            let changed = try #require(try await pipeline.thumbnail(ofURL: url, options, unlessStill: version))
            #expect(changed.sourceVersion?.validators.etag == "\"v2\"" && changed.width == 48)
            // No validator: the bytes' hash is the version; the same bytes are unchanged, other bytes are not.
            server.route("/plain.jpg", StubResponse(body: wide))
            let plainURL = server.url("/plain.jpg")
            let plain = try #require(try await pipeline.thumbnail(of: .url(plainURL), options).sourceVersion)
            #expect(plain.contentHash != nil && plain.validators.isEmpty)
            #expect(try await pipeline.thumbnail(ofURL: plainURL, options, unlessStill: plain) == nil)
            server.route("/plain.jpg", StubResponse(body: tall))
            #expect(try await pipeline.thumbnail(ofURL: plainURL, options, unlessStill: plain)?.width == 48)
            try await session.shutdown()
            try await server.shutdown()
        }

        @Test("a visible request raises a URL prefetch whose render already waits: it renders before medium work")
        func urlPrefetchEscalation() async throws {
            let server = try await StubServer.start()
            let session = HTTPSession(configuration: .init(name: "images-escalation", retry: .never))
            let pipeline = ImagePipeline(configuration: .init(name: "url-escalation", width: 1, session: session))
            let picture = Fixtures.picture(width: 400, height: 300)
            server.route("/p.jpg", StubResponse(body: picture))
            let url = server.url("/p.jpg")
            let options = ThumbnailOptions(width: 32)
            let gate = Gate()
            let holder = await Self.holdSlot(of: pipeline, until: gate)
            let events = pipeline.queue.events()
            let prefetchRender = pipeline.queue.events()
            let prefetch = pipeline.prefetch([.url(url)], options)
            await waitFor(1, .submitted, in: prefetchRender, "the prefetch's render waits")
            let medium = ImageSource.bytes(picture, identity: "medium.jpg")
            let mediumRender = pipeline.queue.events()
            let other = Task { try await pipeline.thumbnail(of: medium, options, priority: .medium) }
            await waitFor(1, .submitted, in: mediumRender, "the medium render waits")
            #expect(pipeline.queue.counts.pending == 2)
            let visible = Task { try await pipeline.thumbnail(of: .url(url), options, priority: .userInitiated) }
            await CallbackExpectation.event("the visible request joined", within: .seconds(30)) {
                await pipeline.waitForCallers(2, for: .url(url), options)
            }
            gate.open()
            var started: [String] = []
            for await event in events where event.kind == .started && !event.jobName.hasPrefix("holder") {
                started.append(event.jobName)
                if started.count == 2 { break }
            }
            #expect(started.first?.contains("medium.jpg") == false, "\(started)")
            _ = try await visible.value
            _ = try await other.value
            await prefetch.value
            try await holder.value
            try await session.shutdown()
            try await server.shutdown()
        }

        /// Submits a job that holds a slot of `pipeline`'s queue until `gate` opens; returns once it runs.
        private static func holdSlot(of pipeline: ImagePipeline, until gate: Gate) async -> Task<Void, any Error> {
            let running = CallbackExpectation("the holder runs")
            let holder = Task {
                try await pipeline.queue.submit("holder") {
                    running.fulfill()
                    await gate.wait()
                }.value
            }
            await running.fulfillment(within: .seconds(30))
            return holder
        }
    }
#endif
