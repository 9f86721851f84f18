#if Images
    import Switchyard
    import NIOConcurrencyHelpers

    /// Where one image is shown (a view, a table cell, a socket): each ``load(_:_:priority:)`` replaces the
    /// previous one, and only the latest request's results reach the slot's `display` handler.
    ///
    /// ```swift
    /// let slot = ImageSlot(pipeline: pipeline, delivery: .main) { content in
    ///     MainActor.assumeIsolated { cell.show(content) }   // .placeholder, .image(thumbnail) or .failure(error)
    /// }
    /// slot.load(.file(row.photoPath), ThumbnailOptions(width: 64, scale: 2, fit: .cover))   // on each reuse
    /// ```
    ///
    /// - **One gate for every path.** A load is numbered when it is made. Everything it shows (the placeholder,
    ///   a cached thumbnail, a new one, a failure, the placeholder of a load without a source) is handed to
    ///   `delivery` with that number, and `display` is called only if the number is still the slot's latest
    ///   when the delivery runs. `display` is private to the slot: there is no other way to reach it.
    /// - **Cancellation.** A new load (or ``cancel()``) cancels the previous load's request: the pipeline
    ///   cancels its job when no other caller waits for it.
    /// - **Order.** For each load, `display` sees `.placeholder` first (unless the memory cache has the
    ///   thumbnail, which is shown at once), then one `.image` or `.failure`, unless a later load came first.
    ///   With a serial delivery (`.main`, a serial queue), the displays of one load keep that order.
    /// - **Threads.** Thread-safe. The check is exact when loads are made where the deliveries run (the main
    ///   queue for `.main`: a cell reused on the main thread): a load made there is seen by every delivery that
    ///   runs after it. A load made on another thread cannot stop a delivery that has already passed its check.
    /// - `display` runs through `delivery`, never while the slot's lock is held, and may call ``load(_:_:priority:)``.
    public final class ImageSlot: Sendable {
        /// What a slot shows.
        public enum Content: Sendable {
            /// Nothing yet: a load started, or a load without a source.
            case placeholder
            case image(Thumbnail)
            case failure(ImageError)
        }

        private let delivery: Delivery
        private let display: @Sendable (Content) -> Void
        private let cached: @Sendable (ImageSource, ThumbnailOptions) -> Thumbnail?
        private let make: @Sendable (ImageSource, ThumbnailOptions, JobPriority) async throws(ImageError) -> Thumbnail
        /// The latest load's number, and the task making its thumbnail.
        private let state = NIOLockedValueBox<(latest: UInt64, task: Task<Void, Never>?)>((0, nil))

        /// A slot showing thumbnails of `pipeline` through `display`, called through `delivery`.
        public convenience init(
            pipeline: ImagePipeline, delivery: Delivery, display: @escaping @Sendable (Content) -> Void
        ) {
            self.init(
                delivery: delivery, display: display,
                cached: { pipeline.cachedThumbnail(of: $0, $1) },
                make: { (source, options, priority) async throws(ImageError) -> Thumbnail in
                    try await pipeline.thumbnail(of: source, options, priority: priority)
                })
        }

        /// A slot over any source of thumbnails: `cached` answers at once (nil: not cached), `make` makes one (it
        /// is cancelled when its load is replaced). The pipeline's initializer passes its memory cache and
        /// ``ImagePipeline/thumbnail(of:_:priority:)``; tests pass held results.
        public init(
            delivery: Delivery, display: @escaping @Sendable (Content) -> Void,
            cached: @escaping @Sendable (ImageSource, ThumbnailOptions) -> Thumbnail?,
            make: @escaping @Sendable (ImageSource, ThumbnailOptions, JobPriority) async throws(ImageError) -> Thumbnail
        ) {
            self.delivery = delivery
            self.display = display
            self.cached = cached
            self.make = make
        }

        /// Shows `source` per `options`, replacing the previous load.
        /// - Parameters:
        ///   - source: the image; nil shows the placeholder (a row without a picture).
        ///   - options: the thumbnail's box, fit and encoding.
        ///   - priority: the request's priority; by default user-initiated (it overtakes prefetching).
        public func load(_ source: ImageSource?, _ options: ThumbnailOptions, priority: JobPriority = .userInitiated) {
            let number = replace()
            guard let source else { return show(.placeholder, number) }
            if let thumbnail = cached(source, options) { return show(.image(thumbnail), number) }
            show(.placeholder, number)
            let make = make
            let task = Task {
                let content: Content
                do throws(ImageError) {
                    content = .image(try await make(source, options, priority))
                } catch {
                    content = .failure(error)
                }
                self.show(content, number)
            }
            let stale = state.withLockedValue { state -> Bool in
                guard state.latest == number else { return true }
                state.task = task
                return false
            }
            if stale { task.cancel() }
        }

        /// Cancels the current load; the slot shows nothing more until the next load.
        public func cancel() { _ = replace() }

        /// How many loads and cancels were made: the latest load's number (0 before the first). For tests and
        /// diagnostics.
        public var loads: UInt64 { state.withLockedValue { $0.latest } }

        /// Numbers a new load and cancels the previous one's task; returns the new number.
        private func replace() -> UInt64 {
            let (number, previous) = state.withLockedValue { state in
                state.latest += 1
                defer { state.task = nil }
                return (state.latest, state.task)
            }
            previous?.cancel()
            return number
        }

        /// The gate: `content` of load `number` reaches `display` only if that load is still the latest then.
        private func show(_ content: Content, _ number: UInt64) {
            delivery.deliver { [self] in
                guard state.withLockedValue({ $0.latest }) == number else { return }
                display(content)
            }
        }
    }
#endif
