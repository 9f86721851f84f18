#if Images
    import Logging
    import MetricsTestKit
    import NIOConcurrencyHelpers
    import ServiceLifecycle
    import Switchyard
    import SwitchyardTesting
    import Testing

    @testable import SwitchyardImages

    /// Log lines kept in memory, with the logger's own metadata (`image_pipeline`) merged into each line's. Behind
    /// NIO's lock, which Thread Sanitizer sees: lines come from the pipeline's threads.
    final class CapturedLog: Sendable {
        struct Entry: Sendable {
            var level: Logger.Level
            var message: String
            var metadata: [String: String]

            /// The message and every metadata value: what a reader of the line sees.
            var text: String { ([message] + metadata.map { "\($0.key)=\($0.value)" }).joined(separator: " ") }
        }

        private let lines = NIOLockedValueBox<[Entry]>([])

        var entries: [Entry] { lines.withLockedValue { $0 } }

        /// A logger at `trace` that keeps every line here.
        var logger: Logger {
            var logger = Logger(label: "test") { _ in Handler(log: self) }
            logger.logLevel = .trace
            return logger
        }

        /// The lines with `message`, in the order they were logged.
        func lines(_ message: String) -> [Entry] { entries.filter { $0.message == message } }

        struct Handler: LogHandler {
            let log: CapturedLog
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace

            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }

            func log(event: LogEvent) {
                let merged = metadata.merging(event.metadata ?? [:]) { $1 }.mapValues { "\($0)" }
                log.lines.withLockedValue {
                    $0.append(Entry(level: event.level, message: "\(event.message)", metadata: merged))
                }
            }
        }
    }

    @Suite("ImagePipeline observability: swift-metrics, swift-log, and a swift-service-lifecycle service")
    struct ImageObservabilityTests {
        /// The service group's own logger: its lines are not under test.
        static let quiet = Logger(label: "group") { _ in SwiftLogNoOpLogHandler() }
        static let options = ThumbnailOptions(width: 80)

        /// What ``scenario()`` requested and recorded.
        struct Scenario {
            let metrics: TestMetrics
            let log: CapturedLog
            /// The folder of the images and the disk cache: no log line may name it.
            let folder: String
            /// The disk cache's size as the second pipeline left it.
            let diskCacheBytes: Int
        }

        /// Two pipelines named `observed`, one after the other, over one disk cache folder, with one logger and one
        /// metrics factory: the first makes `photo.jpg`'s thumbnail (rendered), makes it again (memory), and fails
        /// on `broken.jpg` (a JPEG cut in half: undecodable); the second, fresh, gets `photo.jpg`'s from the disk
        /// cache. Both are shut down.
        static func scenario() async throws -> Scenario {
            let metrics = TestMetrics()
            let log = CapturedLog()
            return try await withFolder { folder in
                let photo = folder + "/photo.jpg"
                let broken = folder + "/broken.jpg"
                let jpeg = Fixtures.picture(width: 800, height: 600)
                DiskCacheTests.write(photo, jpeg)
                DiskCacheTests.write(broken, Array(jpeg.prefix(jpeg.count / 2)))
                func openPipeline() async -> (ImagePipeline, ThumbnailDiskCache) {
                    let cache = ThumbnailDiskCache(folder: folder + "/cache", byteLimit: 1 << 20)
                    let pipeline = ImagePipeline(
                        configuration: .init(name: "observed", width: 1, diskCache: cache), logger: log.logger,
                        metricsFactory: metrics)
                    // The pipeline began waiting first: its scan line is logged by the time this returns.
                    await cache.waitUntilScanned()
                    return (pipeline, cache)
                }

                let (first, _) = await openPipeline()
                let rendered = try await first.thumbnail(of: .file(photo), Self.options)
                #expect((rendered.width, rendered.height) == (80, 60))
                #expect(try await first.thumbnail(of: .file(photo), Self.options) == rendered)
                let error = await #expect(throws: ImageError.self) {
                    try await first.thumbnail(of: .file(broken), Self.options)
                }
                await first.shutdown()
                guard case .undecodable = error?.reason else {
                    Issue.record("broken.jpg failed with \(String(describing: error))")
                    return Scenario(metrics: metrics, log: log, folder: folder, diskCacheBytes: 0)
                }

                let (second, cache) = await openPipeline()
                #expect(try await second.thumbnail(of: .file(photo), Self.options) == rendered)
                await second.shutdown()
                return Scenario(metrics: metrics, log: log, folder: folder, diskCacheBytes: cache.totalBytes)
            }
        }

        @Test("requests by result, render times, renders in flight and the disk cache's size")
        func metricsByResult() async throws {
            let scenario = try await Self.scenario()
            let metrics = scenario.metrics
            let pipeline = ("pipeline", "observed")
            func requests(_ result: String) throws -> Int64 {
                try metrics.expectCounter("switchyard_image_requests_total", [pipeline, ("result", result)]).totalValue
            }
            #expect(try requests("rendered") == 1)
            #expect(try requests("memory") == 1)
            #expect(try requests("disk") == 1)
            #expect(try requests("failed") == 1)
            #expect(try requests("cancelled") == 0)  // made with the pipeline, though never counted
            #expect(try requests("unchanged") == 0)
            // photo.jpg's render, and broken.jpg's, which ended with an ImageError: not the disk cache's read.
            let durations = try metrics.expectTimer("switchyard_image_render_duration_seconds", [pipeline])
            #expect(durations.values.count == 2)
            #expect(durations.values.allSatisfy { $0 >= 0 })
            let inFlight = try metrics.expectMeter("switchyard_image_renders_in_flight", [pipeline])
            #expect(inFlight.values == [1, 0, 1, 0])
            let diskBytes = try metrics.expectGauge("switchyard_image_disk_cache_bytes", [pipeline])
            #expect(scenario.diskCacheBytes > 0)
            #expect(diskBytes.lastValue == Double(scenario.diskCacheBytes))
            #expect(diskBytes.values.contains(0), "sampled as the first pipeline started, the cache empty")
        }

        @Test("log lines carry the pipeline, the source's file name, the size, format and duration; never a folder")
        func logLines() async throws {
            let scenario = try await Self.scenario()
            let log = scenario.log
            let entries = log.entries
            #expect(!entries.isEmpty)
            for entry in entries {
                #expect(entry.metadata["image_pipeline"] == "observed", "\(entry.text)")
                #expect(!entry.text.contains(scenario.folder), "\(entry.text)")
            }

            let rendered = log.lines("thumbnail rendered")
            #expect(rendered.count == 1, "photo.jpg once (then a memory hit, then a disk hit); broken.jpg failed")
            let photo = try #require(rendered.first)
            #expect(photo.level == .debug)
            #expect(photo.metadata["image_source"] == "photo.jpg")
            #expect(photo.metadata["width"] == "80")
            #expect(photo.metadata["height"] == "60")
            #expect(photo.metadata["format"] == "jpeg")
            #expect(photo.metadata["duration"] != nil)

            let disk = try #require(log.lines("thumbnail served from the disk cache").first)
            #expect(disk.level == .trace)
            #expect(disk.metadata["image_source"] == "photo.jpg")
            #expect(disk.metadata["width"] == "80")
            #expect(disk.metadata["height"] == "60")
            #expect(disk.metadata["format"] == "jpeg")
            #expect(disk.metadata["duration"] != nil)

            let failed = try #require(log.lines("render failed").first)
            #expect(log.lines("render failed").count == 1)
            #expect(failed.level == .warning)
            #expect(failed.metadata["image_source"] == "broken.jpg")
            #expect(failed.metadata["reason"]?.hasPrefix("is truncated or corrupt") == true, "\(failed.text)")
            #expect(failed.metadata["width"] == "80")  // the box asked for
            #expect(failed.metadata["height"] == "80")
            #expect(failed.metadata["format"] == "jpeg")
            #expect(failed.metadata["duration"] != nil)

            let scans = log.lines("disk cache scan finished")
            #expect(scans.map(\.level) == [.debug, .debug])
            #expect(scans.map { $0.metadata["entries"] } == ["0", "1"])
            #expect(scans.first?.metadata["bytes"] == "0")
            #expect(scans.last?.metadata["bytes"] == "\(scenario.diskCacheBytes)")

            #expect(log.lines("image pipeline shut down").map(\.level) == [.info, .info])
            #expect(entries.last?.message == "image pipeline shut down")
            #expect(log.lines("libvips unavailable").isEmpty)
        }

        @Test("a ServiceGroup's graceful shutdown ends run(); a later request fails with shutDown, counted cancelled")
        func serviceGroupShutsDown() async throws {
            let metrics = TestMetrics()
            let log = CapturedLog()
            let pipeline = ImagePipeline(
                configuration: .init(name: "served", width: 1), logger: log.logger, metricsFactory: metrics)
            let group = ServiceGroup(services: [pipeline], logger: Self.quiet)
            let running = Task { try await group.run() }
            let source = ImageSource.bytes(Fixtures.picture(), identity: "served.jpg")
            #expect(try await pipeline.thumbnail(of: source, Self.options).width == 80)
            await group.triggerGracefulShutdown()
            try await running.value
            let error = await #expect(throws: ImageError.self) {
                try await pipeline.thumbnail(of: source, Self.options)
            }
            #expect(error?.reason == .shutDown)
            let name = ("pipeline", "served")
            func requests(_ result: String) throws -> Int64 {
                try metrics.expectCounter("switchyard_image_requests_total", [name, ("result", result)]).totalValue
            }
            #expect(try requests("rendered") == 1)
            #expect(try requests("cancelled") == 1)
            #expect(try requests("failed") == 0)
            #expect(log.lines("image pipeline shut down").map(\.level) == [.info])
            #expect(log.lines("render failed").isEmpty, "a shutdown is not a failure")
        }

        @Test("a request waiting at the group's graceful shutdown fails with shutDown: nothing is drained")
        func waitingRequestFailsAtShutdown() async throws {
            let metrics = TestMetrics()
            let pipeline = ImagePipeline(configuration: .init(name: "held", width: 1), metricsFactory: metrics)
            let group = ServiceGroup(services: [pipeline], logger: Self.quiet)
            let running = Task { try await group.run() }
            // The one slot is held: the request's job waits in the queue.
            let gate = Gate()
            let holding = CallbackExpectation("the holder runs")
            let holder = Task {
                try await pipeline.queue.submit("holder") {
                    holding.fulfill()
                    await gate.wait()
                }.value
            }
            await holding.fulfillment(within: .seconds(30))
            let submitted = pipeline.queue.events()
            let source = ImageSource.bytes(Fixtures.picture(), identity: "held.jpg")
            let request = Task { try await pipeline.thumbnail(of: source, Self.options) }
            await waitFor(1, .submitted, in: submitted, "the request's job is queued")
            await group.triggerGracefulShutdown()
            try await running.value
            let error = await #expect(throws: ImageError.self) { try await request.value }
            #expect(error?.reason == .shutDown)
            #expect(error?.source == "held.jpg")
            gate.open()
            _ = try? await holder.value  // cancelled by the shutdown, or finished
            let name = ("pipeline", "held")
            for result in ImagePipelineMetrics.Outcome.allCases.map(\.label) {
                let counter = try metrics.expectCounter("switchyard_image_requests_total", [name, ("result", result)])
                #expect(counter.totalValue == (result == "cancelled" ? 1 : 0), "\(result)")
            }
            #expect(try metrics.expectMeter("switchyard_image_renders_in_flight", [name]).values.isEmpty)
        }

        @Test("a logged source is a file name, a URL without credentials, query or fragment, or a size and digest")
        func loggableSources() {
            #expect(ImagePipeline.loggableSource(.file("/srv/photos/2024/a.jpg")) == "a.jpg")
            #expect(ImagePipeline.loggableSource(.file("a.jpg")) == "a.jpg")
            #expect(
                ImagePipeline.loggableSource(.url("https://user:secret@example.org:8443/a.jpg?token=x#top"))
                    == "https://example.org:8443/a.jpg")
            #expect(ImagePipeline.loggableSource(.url("http://example.org?key=1")) == "http://example.org")
            let bytes = ImageSource.bytes([1, 2, 3], identity: "https://example.org/a.jpg?token=secret")
            let shown = ImagePipeline.loggableSource(bytes)
            #expect(shown.hasPrefix("3 bytes, sha256 ") && !shown.contains("secret"), "\(shown)")
            let url = "https://example.org/a.jpg?token=secret"
            let reason = ImageError.Reason.unreadable("GET \(url) failed: status 404")
            #expect(
                ImagePipeline.loggableReason(reason, of: .url(url))
                    == "cannot be read: GET https://example.org/a.jpg failed: status 404")
        }
    }
#endif
