#if Images
    import Logging
    import Switchyard

    /// Render jobs: one job of ``ImagePipeline/queue`` per source and options in flight, which reads the thumbnail
    /// from the disk cache or renders it, on a thread of the pipeline's `BlockingExecutor`; what it records.
    extension ImagePipeline {
        /// The thumbnail `request` asks for, by joining an identical request in flight or in a new job, which
        /// stores it in the memory cache under `caching` (nil: not stored). A new job's log lines name `named` (a
        /// URL for its downloaded bytes).
        func render(
            _ request: Request, caching cacheKey: CacheKey?, priority: JobPriority?, naming named: ImageSource
        ) async throws(ImageError) -> Served {
            let limits = configuration.limits
            let (executor, memoryCache, diskCache) = (executor, memoryCache, configuration.diskCache)
            #if SWITCHYARD_TEST_HOOKS
                let renderStarts = renderStarts
            #endif
            let (scheduling, shutDownFlag) = (configuration.threadScheduling, shutDown)
            let (metrics, logger) = (metrics, logger)
            return try await joined(coalescer, request, priority: priority) { request in
                // A job that starts after shutdown() (its request raced with it) does nothing.
                if shutDownFlag.withLockedValue({ $0 }) {
                    throw ImageError(source: request.source.description, reason: .shutDown)
                }
                // The job is cancelled when its last caller leaves: the decode then stops promptly.
                let cancellation = RenderCancellation()
                #if SWITCHYARD_TEST_HOOKS
                    renderStarts.withLockedValue { $0 }?(cancellation)
                #endif
                let served = try await withTaskCancellationHandler {
                    try await executor.run { () throws(ImageError) -> Served in
                        // Each time: a system call, nothing beside an image; a thread-local flag would go stale
                        // when the executor replaces a thread.
                        scheduling.applyToCurrentThread()
                        return try ImagePipeline.readOrRender(
                            request, diskCache: diskCache, limits: limits, cancellation: cancellation, named: named,
                            metrics: metrics, logger: logger)
                    }
                } onCancel: {
                    cancellation.cancel()
                }
                if let cacheKey { memoryCache.setValue(served.thumbnail, forKey: cacheKey) }
                return served
            }
        }

        /// A render job's work, on the executor's thread: `request`'s thumbnail from `diskCache` if it holds it,
        /// else rendered (and stored there). Records the render's time and its place in
        /// `switchyard_image_renders_in_flight`, samples the disk cache's size after using it, and logs the hit or
        /// the render (naming `named`). Blocking.
        /// - Throws: the render's ``ImageError``; ``ImageError/Reason/cancelled`` once `cancellation` is cancelled.
        static func readOrRender(
            _ request: Request, diskCache: ThumbnailDiskCache?, limits: ImageLimits, cancellation: RenderCancellation,
            named: ImageSource, metrics: ImagePipelineMetrics, logger: Logger?
        ) throws(ImageError) -> Served {
            let key = diskCache == nil ? nil : request.diskKey()
            if let key, let diskCache {
                let start: ContinuousClock.Instant? = logger == nil ? nil : .now
                let stored = diskCache.thumbnail(forKey: key)
                metrics.sample(diskCache)  // a read may count an entry, or drop a torn one
                if let stored {
                    if let start { recordDiskHit(stored, of: named, in: start.duration(to: .now), to: logger) }
                    return Served(thumbnail: stored, outcome: .disk)
                }
            }
            metrics.rendersInFlight.increment()
            let start = ContinuousClock.now
            let thumbnail: Thumbnail
            do throws(ImageError) {
                thumbnail = try ThumbnailRenderer.render(
                    request.source, request.options, limits: limits, cancellation: cancellation)
            } catch {
                metrics.rendersInFlight.decrement()
                if error.reason != .cancelled { metrics.recordRender(start.duration(to: .now)) }
                throw error
            }
            let elapsed = start.duration(to: .now)
            metrics.rendersInFlight.decrement()
            metrics.recordRender(elapsed)
            recordRendered(thumbnail, of: named, in: elapsed, to: logger)
            if let key, let diskCache {
                diskCache.store(thumbnail, forKey: key)
                metrics.sample(diskCache)
            }
            return Served(thumbnail: thumbnail, outcome: .rendered)
        }
    }
#endif
