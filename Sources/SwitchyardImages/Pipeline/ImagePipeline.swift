#if Images
    import CVips
    import CoreMetrics
    import Logging
    @_spi(Testing) import Switchyard
    import SwitchyardHTTP
    import Synchronization

    import NIOConcurrencyHelpers

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// Makes thumbnails as jobs of a `WorkQueue`, decoding and encoding with libvips on threads of
    /// its own.
    ///
    /// ```swift
    /// let pipeline = ImagePipeline()
    /// let thumbnail = try await pipeline.thumbnail(of: .file("photo.jpg"), ThumbnailOptions(width: 256, fit: .cover))
    /// ```
    ///
    /// - **Coalescing**: requests for the same source and options while one is in flight share its job (one
    ///   decode), reference-counted: it is cancelled only when its last caller leaves. The job's priority is the
    ///   highest of its callers', so a visible request raises a prefetch it joins. The same source at two sizes is
    ///   decoded twice, by design: shrink-on-load makes the decode depend on the size (a JPEG is decoded at 1/8
    ///   scale for a small thumbnail), and a shared full-size decode would usually cost more than two scaled
    ///   ones. A URL's download is shared across sizes (the session coalesces identical requests in flight).
    /// - **Concurrency**: at most ``Configuration/width`` images at once (default: the active processors), each
    ///   decoded and encoded on one thread of the pipeline's `BlockingExecutor` (never the cooperative pool), at
    ///   ``Configuration/threadScheduling`` (by default nice 10 on Linux: the process's other threads first).
    /// - **Limits** (``ImageLimits``) are checked before any pixel is decoded.
    /// - **Cancellation**: a caller that leaves gets ``ImageError/Reason/cancelled`` at once. A job whose last
    ///   caller left is removed if it has not started; a running one stops promptly, freeing its thread: its
    ///   decode's reads are refused, and libvips' evaluation of its images is killed, so it ends within a region
    ///   of pixels (a few rows; a codec that decodes a whole WebP or HEIF frame in one call ends with that call).
    /// - **Shutdown**: after ``shutdown()`` every request fails at once with ``ImageError/Reason/shutDown``. Or run
    ///   the pipeline as a swift-service-lifecycle `Service` (``run()``): it shuts down when its `ServiceGroup` does.
    /// - **Memory cache**: finished thumbnails stay in a `Cache` of the core (cost: their bytes, at most
    ///   ``Configuration/memoryCacheCost``), trimmed under memory pressure. It is keyed by the source's identity
    ///   (a file's path; in-memory bytes' identity and SHA-256 digest, see ``ImageSource``) and the options: a
    ///   file changed in place under the same path is seen once its entries have left the cache (or after
    ///   ``removeCachedThumbnails()``).
    /// - **Prefetching**: ``prefetch(_:_:)`` makes thumbnails at background priority into the memory cache; a
    ///   request for one of them while it is made joins its job and raises it to the request's priority.
    /// - **Errors** name the source and what was wrong (``ImageError``); a failure is not remembered, so the next
    ///   request tries again (except libvips' own absence, ``libvipsProblem()``, which lasts the process).
    ///
    /// - **URL sources** are jobs of ``downloadQueue``: download (through ``Configuration/session``), then a render
    ///   job of ``queue`` joined like any other. At most ``Configuration/downloadWidth`` are in flight, so a caller
    ///   asking for thousands of URLs at once holds that many downloaded images, not thousands.
    ///
    /// Thread-safe. The queues are named after the pipeline: their snapshots show the jobs, named
    /// `"<name> <source> <options>"`, with their waiting reasons.
    ///
    /// ## Metrics
    ///
    /// Reported to the `metricsFactory` given at init (by default the one `MetricsSystem.bootstrap` installed); the
    /// metric objects are made once, with the pipeline, so a request records into objects that exist already. Every
    /// metric has the dimension `pipeline` (``Configuration/name``); none has a source, whose values no pipeline can
    /// bound. Pipelines of one name add up.
    ///
    /// | label | kind | what |
    /// |---|---|---|
    /// | `switchyard_image_requests_total` | counter, dimension `result` | requests (``thumbnail(of:_:priority:)``, ``thumbnail(ofURL:_:unlessStill:priority:)``, and each image of ``prefetch(_:_:)`` not in the memory cache), each counted once, when it returns or throws, by how it was served: `memory` (the memory cache, no job), `disk` (a job that read the disk cache), `rendered` (a job that rendered it), `unchanged` (a conditional URL request: the image is still the caller's version), `failed` (any other ``ImageError``), `cancelled` (``ImageError/Reason/cancelled``, and ``ImageError/Reason/shutDown``: requests in flight at ``shutdown()`` and every later one). A request that joined another's job counts as that job's result: 100 coalesced requests of one render are 100 `rendered`. ``cachedThumbnail(of:_:)`` is not a request |
    /// | `switchyard_image_render_duration_seconds` | timer | each render (decode, resize, encode, on the pipeline's threads) that ended with a thumbnail or an ``ImageError`` other than ``ImageError/Reason/cancelled``; not the disk cache's reads, nor a URL's download |
    /// | `switchyard_image_renders_in_flight` | gauge (a `Meter`, moved by one at each render's start and end) | renders running now: at most ``Configuration/width`` |
    /// | `switchyard_image_disk_cache_bytes` | gauge | the disk cache's ``ThumbnailDiskCache/totalBytes`` (an atomic read), sampled as the pipeline starts, when the cache's scan at open has merged, and after each job reads or writes the cache; only with a ``Configuration/diskCache`` |
    ///
    /// The `switchyard_image_requests_total` series exist from the pipeline's start (at zero). A request is counted
    /// (and its failure logged) before it returns or throws.
    ///
    /// ## Logs
    ///
    /// To the `logger` given at init (nil, the default: no lines, and nothing is built for them). Every line carries
    /// `image_pipeline` (``Configuration/name``). `image_source` is a file's last path component, a URL without its
    /// user information, query and fragment, or an in-memory image's size and the start of its digest: never its
    /// bytes nor its identity. `width` and `height` are in pixels.
    ///
    /// | event | level | metadata |
    /// |---|---|---|
    /// | `thumbnail rendered`: a job rendered it (once per job, however many requests joined it) | debug | `image_source` (a URL source's URL), `width`, `height`, `format` (the thumbnail's), `duration` (the render's) |
    /// | `thumbnail served from the disk cache`: a job read it there | trace | as `thumbnail rendered`; `duration` is the read's |
    /// | `render failed`: a request failed (each request, coalesced ones included), but for a cancellation or the shutdown | warning | `image_source`, `width`, `height`, `format` (the requested box and format), `reason` (the ``ImageError/Reason``), `duration` (the request's) |
    /// | `libvips unavailable`: the first request that found libvips unusable (later ones are counted, not logged) | error | as `render failed`; `reason` says why and how to install it |
    /// | `disk cache scan finished`: the disk cache's scan at open merged (at the pipeline's start if it had) | debug | `entries`, `bytes` (what the cache counts then) |
    /// | `image pipeline shut down`: the first ``shutdown()`` returns | info | |
    public final class ImagePipeline: Sendable {
        public struct Configuration: Sendable {
            /// The queue's name, and the prefix of its jobs' names.
            public var name: String
            /// The most images processed at once.
            public var width: Int
            public var limits: ImageLimits
            /// The memory cache's limit: the sum of the cached thumbnails' sizes in bytes (0: no memory cache).
            public var memoryCacheCost: Int
            /// Where encoded thumbnails are kept across runs; nil for none. Keyed by the source's identity (a
            /// file's path, size and modification time; in-memory bytes' identity and digest) and the options.
            public var diskCache: ThumbnailDiskCache?
            /// How the threads that decode and encode are scheduled (Linux). Default `.niced(10)`: the process's
            /// other threads (a main actor drawing at 60 Hz, a server's event loops) and other processes get the
            /// processors first when they want them, and the pipeline has them otherwise.
            public var threadScheduling: ThreadScheduling
            /// Downloads ``ImageSource/url(_:)`` sources; nil: they fail as unreadable. The pipeline does not shut
            /// it down.
            public var session: HTTPSession?
            /// The most URL sources in flight at once, from the start of their download to the end of their render
            /// (each holds its downloaded bytes meanwhile, so this bounds that memory); nil: 4 × ``width``. The
            /// session's per-host limits apply within it.
            public var downloadWidth: Int?

            public init(
                name: String = "images", width: Int = WorkQueue.defaultWidth, limits: ImageLimits = .init(),
                memoryCacheCost: Int = 64 << 20, diskCache: ThumbnailDiskCache? = nil, session: HTTPSession? = nil,
                threadScheduling: ThreadScheduling = .niced(10), downloadWidth: Int? = nil
            ) {
                self.downloadWidth = downloadWidth
                self.threadScheduling = threadScheduling
                self.diskCache = diskCache
                self.session = session
                self.name = name
                self.width = width
                self.limits = limits
                self.memoryCacheCost = memoryCacheCost
            }
        }

        public let configuration: Configuration
        /// The queue the thumbnails' jobs run on.
        public let queue: WorkQueue
        /// The queue of URL sources' jobs (download, then render on ``queue``), named `"<name> downloads"`.
        public let downloadQueue: WorkQueue
        let executor: BlockingExecutor
        /// Render jobs, one per source and options in flight.
        let coalescer: Coalescer<Request, Served>
        /// URL sources: download and render, one job per URL and options, in a queue of their own.
        let downloads: Coalescer<Request, Served?>
        /// Keyed by the source's identity, never by the source: a key holding in-memory bytes would keep them alive
        /// for as long as the thumbnail is cached, beyond the cache's cost.
        let memoryCache: Cache<CacheKey, Thumbnail>
        /// Set once by ``shutdown()``; read at each request and as each job starts.
        let shutDown = NIOLockedValueBox(false)
        /// Where the pipeline logs (with `image_pipeline` set), or nil.
        let logger: Logger?
        let metrics: ImagePipelineMetrics
        /// Set by the first request that logs ``ImageError/Reason/libvipsUnavailable(_:)``.
        let reportedLibvipsProblem = Atomic<Bool>(false)
        #if SWITCHYARD_TEST_HOOKS
            /// Test hook (debug builds only): called with each render's cancellation as its job starts, before it
            /// reads the image (see ``RenderCancellation/observeReads(_:)``).
            let renderStarts = NIOLockedValueBox<(@Sendable (RenderCancellation) -> Void)?>(nil)
        #endif

        typealias Outcome = ImagePipelineMetrics.Outcome

        /// A job's thumbnail, and how the job got it: what each of its callers counts (see "Metrics").
        struct Served: Sendable {
            var thumbnail: Thumbnail
            /// ``ImagePipelineMetrics/Outcome/disk`` or ``ImagePipelineMetrics/Outcome/rendered``.
            var outcome: Outcome
        }

        /// What the memory cache keys a thumbnail by.
        struct CacheKey: Hashable, Sendable {
            let source: ImageSource.Key
            let options: ThumbnailOptions
        }

        /// One coalesced unit of work: a source and what to make of it.
        struct Request: Hashable, Sendable, CustomStringConvertible {
            let source: ImageSource
            let options: ThumbnailOptions
            /// For a URL source: the version the caller has, asked about with a conditional request.
            var unlessStill: ImageVersion? = nil
            var description: String { "\(source) \(options)" + (unlessStill.map { " unless still \($0)" } ?? "") }

            /// The disk cache's key: the source's identity (a file's path, size and modification time, read now,
            /// nil if it cannot be read; in-memory bytes' digest and identity, length-prefixed so that no identity
            /// reads as another key) and the options. Blocking (a `stat`).
            func diskKey() -> String? {
                switch source {
                case .bytes(let encoded):
                    let identity = encoded.identity.map { "\($0.utf8.count):\($0)" } ?? "-"
                    return "bytes sha256 \(encoded.digest) \(identity) \(options)"
                case .url: return nil  // rendered from its bytes, keyed by the URL and its validator
                case .file(let path):
                    var status = stat()
                    guard stat(path, &status) == 0 else { return nil }
                    let modified = ThumbnailDiskCache.modificationTime(status)
                    return "file \(path) \(status.st_size) \(modified.seconds).\(modified.nanoseconds) \(options)"
                }
            }
        }

        /// A pipeline with its own queues, threads (started as needed) and memory cache, configured from
        /// `configuration`; libvips is loaded at the first image, not here.
        /// - Parameters:
        ///   - configuration: the pipeline's name, widths, caches, limits and thread scheduling.
        ///   - logger: where the pipeline logs (see "Logs"), or nil for no log lines.
        ///   - metricsFactory: where the pipeline's metrics go (see "Metrics"); by default the factory
        ///     `MetricsSystem.bootstrap` installed. The metrics are made here, once.
        /// - Precondition: ``Configuration/width`` and ``Configuration/downloadWidth`` are at least 1.
        public init(
            configuration: Configuration = .init(), logger: Logger? = nil,
            metricsFactory: any MetricsFactory = MetricsSystem.factory
        ) {
            precondition(configuration.width >= 1, "ImagePipeline: width must be at least 1")
            self.configuration = configuration
            self.logger = logger.map { logger in
                var logger = logger
                logger[metadataKey: "image_pipeline"] = "\(configuration.name)"
                return logger
            }
            metrics = ImagePipelineMetrics(
                pipeline: configuration.name, hasDiskCache: configuration.diskCache != nil, factory: metricsFactory)
            queue = WorkQueue(name: configuration.name, width: configuration.width)
            executor = BlockingExecutor(name: configuration.name, maximumThreads: configuration.width)
            coalescer = Coalescer(queue: queue, name: configuration.name)
            let downloadWidth = configuration.downloadWidth ?? 4 * configuration.width
            precondition(downloadWidth >= 1, "ImagePipeline: downloadWidth must be at least 1")
            downloadQueue = WorkQueue(name: "\(configuration.name) downloads", width: downloadWidth)
            downloads = Coalescer(queue: downloadQueue, name: "\(configuration.name) downloads")
            memoryCache = Cache(
                name: "\(configuration.name) memory", costLimit: configuration.memoryCacheCost, cost: { $0.cost })
            if let diskCache = configuration.diskCache { observeScan(of: diskCache) }
        }

        /// Limits glibc's malloc arenas to `count` for the whole process (Linux; elsewhere nothing). With one
        /// arena per thread, libvips' many short-lived buffers fragment the heap; sharp and imaginary recommend 2 for
        /// images processed in parallel. For programs whose main work is images (`switchyard thumbnails` calls it at
        /// start); it affects every allocation of the process, so a library should leave it to its program.
        public static func limitMallocArenas(to count: Int = 2) {
            _ = sy_limit_malloc_arenas(Int32(count))
        }

        /// Why libvips cannot be used in this process (not installed, too old, failed to start: the text says which,
        /// and how to install it), or nil when it can. The first call loads libvips (on the shared
        /// `BlockingExecutor`, not the caller's thread), as any first use of it does; the answer is kept for the life
        /// of the process. Without libvips every thumbnail not already cached fails with
        /// ``ImageError/Reason/libvipsUnavailable(_:)`` (a URL source before it is downloaded). On Linux the
        /// environment variable `SWITCHYARD_LIBVIPS` may name the library's file, when it is not where the dynamic
        /// loader looks. Thread-safe.
        public static func libvipsProblem() async -> String? { await Vips.start(on: .shared) }

        /// The thumbnail in the memory cache, if any; never starts work. - Complexity: O(1).
        public func cachedThumbnail(of source: ImageSource, _ options: ThumbnailOptions) -> Thumbnail? {
            memoryCache.value(forKey: CacheKey(source: source.key, options: options))
        }

        /// Empties the memory cache.
        public func removeCachedThumbnails() { memoryCache.removeAll() }

        /// Makes the thumbnails of `sources` at background priority, into the memory cache, at most
        /// ``Configuration/width`` at a time like any request; failures are dropped (a later request reports
        /// them). Cancel the returned task to stop: thumbnails no request waits for are then cancelled.
        @discardableResult
        public func prefetch(_ sources: [ImageSource], _ options: ThumbnailOptions) -> Task<Void, Never> {
            Task(priority: .background) {
                await withTaskGroup(of: Void.self) { group in
                    for source in sources where cachedThumbnail(of: source, options) == nil {
                        group.addTask { _ = try? await self.thumbnail(of: source, options, priority: .background) }
                    }
                }
            }
        }

        /// A thumbnail of `source` made per `options`: from the memory cache, by joining an identical request in
        /// flight, or made in a new job.
        /// - Parameters:
        ///   - source: the image.
        ///   - options: the thumbnail's box, fit and encoding.
        ///   - priority: the priority this request lends the job; by default the current task's.
        /// - Throws: ``ImageError`` naming the source: unreadable, not an image, over a limit, undecodable, an
        ///   unavailable format, no usable libvips, cancelled, or (at once, after ``shutdown()``) shut down.
        ///
        /// Counted once in `switchyard_image_requests_total`, and logged if it fails (see "Metrics" and "Logs").
        public func thumbnail(
            of source: ImageSource, _ options: ThumbnailOptions, priority: JobPriority? = nil
        ) async throws(ImageError) -> Thumbnail {
            try await counted(source, options) { () async throws(ImageError) -> (Thumbnail, Outcome) in
                try refuseIfShutDown(source.description)
                let cacheKey = CacheKey(source: source.key, options: options)
                if let cached = memoryCache.value(forKey: cacheKey) { return (cached, .memory) }
                guard case .url(let url) = source else {
                    let served = try await render(
                        Request(source: source, options: options), caching: cacheKey, priority: priority,
                        naming: source)
                    return (served.thumbnail, served.outcome)
                }
                guard let served = try await download(url, options, unlessStill: nil, priority: priority) else {
                    throw ImageError(source: url, reason: .unreadable("no image"))  // unconditional: never nil
                }
                return (served.thumbnail, served.outcome)
            }
        }

        /// `request`'s thumbnail from `coalescer`: by joining its job in flight, or from a new one running `make`.
        /// Errors name the request's source; a job cancelled by ``shutdown()`` (not by this caller) fails as
        /// ``ImageError/Reason/shutDown``.
        func joined<Value: Sendable>(
            _ coalescer: Coalescer<Request, Value>, _ request: Request, priority: JobPriority?,
            make: @escaping @Sendable (Request) async throws -> Value
        ) async throws(ImageError) -> Value {
            do throws(ImageError) {
                return try await joinedOrCancelled(coalescer, request, priority: priority, make: make)
            } catch {
                guard error.reason == .cancelled, !Task.isCancelled, shutDown.withLockedValue({ $0 }) else {
                    throw error
                }
                throw ImageError(source: error.source, reason: .shutDown)
            }
        }

        private func joinedOrCancelled<Value: Sendable>(
            _ coalescer: Coalescer<Request, Value>, _ request: Request, priority: JobPriority?,
            make: @escaping @Sendable (Request) async throws -> Value
        ) async throws(ImageError) -> Value {
            let source = request.source
            do {
                let thumbnail = try await coalescer.value(for: request, priority: priority, load: make)
                // Finished as this caller was cancelled: it gets the cancellation it asked for, never a late value.
                if Task.isCancelled { throw ImageError(source: source.description, reason: .cancelled) }
                return thumbnail
            } catch let error as ImageError {
                throw error
            } catch let error as JobError<any Error> {
                switch error {
                case .failed(let inner as ImageError): throw inner
                case .cancelled: throw ImageError(source: source.description, reason: .cancelled)
                case .failed(is CancellationError): throw ImageError(source: source.description, reason: .cancelled)
                default: throw ImageError(source: source.description, reason: .unreadable(String(describing: error)))
                }
            } catch {
                throw ImageError(source: source.description, reason: .unreadable(String(describing: error)))
            }
        }

        /// Callers waiting for the job `source` and `options` would join; 0 when none is in flight. For
        /// diagnostics and tests. - Complexity: O(1).
        public func callersWaiting(for source: ImageSource, _ options: ThumbnailOptions) -> Int {
            let request = Request(source: source, options: options)
            if case .url = source { return downloads.waiterCount(for: request) }
            return coalescer.waiterCount(for: request)
        }

        #if SWITCHYARD_TEST_HOOKS
            /// Returns once at least `count` callers wait for the job `source` and `options` would join (as
            /// ``callersWaiting(for:_:)`` counts them), or once the calling task is cancelled. For tests: an event to
            /// wait for instead of polling the count.
            @_spi(Testing)
            public func waitForCallers(_ count: Int, for source: ImageSource, _ options: ThumbnailOptions) async {
                let request = Request(source: source, options: options)
                if case .url = source { return await downloads.waitForWaiters(count, for: request) }
                await coalescer.waitForWaiters(count, for: request)
            }
        #endif

        /// Shuts the pipeline down: from this call on, every request (``thumbnail(of:_:priority:)``,
        /// ``thumbnail(ofURL:_:unlessStill:priority:)``, ``prefetch(_:_:)``) fails at once with
        /// ``ImageError/Reason/shutDown``, without looking at the caches; the queued and running jobs are
        /// cancelled, and their callers get ``ImageError/Reason/shutDown`` too (a caller whose own task was
        /// cancelled still gets ``ImageError/Reason/cancelled``). Returns once the pipeline's threads have exited;
        /// the first call then logs `image pipeline shut down` (info). ``cachedThumbnail(of:_:)`` still answers from
        /// the memory cache. Idempotent; the pipeline cannot be started again. The session
        /// (``Configuration/session``) and the disk cache are left as they are.
        public func shutdown() async {
            let first = shutDown.withLockedValue { isShutDown in
                defer { isShutDown = true }
                return !isShutDown
            }
            downloadQueue.cancelAll()
            queue.cancelAll()
            await executor.shutdown()
            if first { logger?.info("image pipeline shut down") }
        }

        /// Throws ``ImageError/Reason/shutDown``, naming `source`, once ``shutdown()`` has been called.
        /// - Complexity: O(1).
        func refuseIfShutDown(_ source: @autoclosure () -> String) throws(ImageError) {
            if shutDown.withLockedValue({ $0 }) { throw ImageError(source: source(), reason: .shutDown) }
        }
    }
#endif
