#if Images
    import Switchyard

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
    ///   highest of its callers', so a visible request raises a prefetch it joins.
    /// - **Concurrency**: at most ``Configuration/width`` images at once (default: the active processors), each
    ///   decoded and encoded on one thread of the pipeline's `BlockingExecutor` (never the cooperative pool).
    /// - **Limits** (``ImageLimits``) are checked before any pixel is decoded.
    /// - **Cancellation**: a caller that leaves gets ``ImageError/Reason/cancelled`` at once. A job whose last
    ///   caller left is removed if it has not started; a running decode finishes on its thread and is dropped.
    /// - **Errors** name the source and what was wrong (``ImageError``); a failure is not remembered, so the next
    ///   request tries again.
    ///
    /// Thread-safe. The queue (``queue``) is named after the pipeline: its snapshots show the jobs, named
    /// `"<name> <source> <options>"`, with their waiting reasons.
    public final class ImagePipeline: Sendable {
        public struct Configuration: Sendable {
            /// The queue's name, and the prefix of its jobs' names.
            public var name: String
            /// The most images processed at once.
            public var width: Int
            public var limits: ImageLimits

            public init(name: String = "images", width: Int = WorkQueue.defaultWidth, limits: ImageLimits = .init()) {
                self.name = name
                self.width = width
                self.limits = limits
            }
        }

        public let configuration: Configuration
        /// The queue the thumbnails' jobs run on.
        public let queue: WorkQueue
        private let executor: BlockingExecutor
        private let coalescer: Coalescer<Request, Thumbnail>

        /// One coalesced unit of work: a source and what to make of it.
        struct Request: Hashable, Sendable, CustomStringConvertible {
            let source: ImageSource
            let options: ThumbnailOptions
            var description: String { "\(source) \(options)" }
        }

        public init(configuration: Configuration = .init()) {
            precondition(configuration.width >= 1, "ImagePipeline: width must be at least 1")
            self.configuration = configuration
            queue = WorkQueue(name: configuration.name, width: configuration.width)
            executor = BlockingExecutor(name: configuration.name, maximumThreads: configuration.width)
            coalescer = Coalescer(queue: queue, name: configuration.name)
        }

        /// A thumbnail of `source` made per `options`, joining an identical request in flight.
        /// - Parameter priority: the priority this request lends the job; by default the current task's.
        /// - Throws: ``ImageError`` naming the source: unreadable, not an image, over a limit, undecodable, an
        ///   unavailable format, or cancelled.
        public func thumbnail(
            of source: ImageSource, _ options: ThumbnailOptions, priority: JobPriority? = nil
        ) async throws(ImageError) -> Thumbnail {
            let limits = configuration.limits
            let executor = executor
            do {
                let thumbnail = try await coalescer.value(
                    for: Request(source: source, options: options), priority: priority
                ) { request in
                    try await executor.run {
                        try ThumbnailRenderer.render(request.source, request.options, limits: limits)
                    }
                }
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
            coalescer.waiterCount(for: Request(source: source, options: options))
        }

        /// Cancels the queued and running jobs, and lets the pipeline's threads exit. Requests made afterwards
        /// still run (on threads started for them).
        public func shutdown() async {
            queue.cancelAll()
            await executor.shutdown()
        }
    }
#endif
