#if Images
    import Switchyard
    import SwitchyardHTTP

    /// URL sources: a job of ``ImagePipeline/downloadQueue`` per URL and options downloads the image, then renders it
    /// as a job of ``ImagePipeline/queue`` joined like any other.
    extension ImagePipeline {
        /// The thumbnail of the image at `url`, unless the image is still `version` (the ``Thumbnail/sourceVersion``
        /// of an earlier thumbnail of it): then nil.
        ///
        /// The request is conditional (`if-none-match` / `if-modified-since`), so an unchanged image costs a
        /// `304 Not Modified` and no download; when `version` has no validator (the server sent none), the image is
        /// downloaded and its hash compared. The memory cache is not consulted (the point is to ask the server),
        /// and a new thumbnail is stored in it.
        /// - Throws: as ``thumbnail(of:_:priority:)``; ``ImageError/Reason/shutDown`` at once after ``shutdown()``.
        ///
        /// Counted once in `switchyard_image_requests_total` (`unchanged` when it returns nil), and logged if it
        /// fails (see ``ImagePipeline``'s "Metrics" and "Logs").
        public func thumbnail(
            ofURL url: String, _ options: ThumbnailOptions, unlessStill version: ImageVersion,
            priority: JobPriority? = nil
        ) async throws(ImageError) -> Thumbnail? {
            try await counted(.url(url), options) { () async throws(ImageError) -> (Thumbnail?, Outcome) in
                guard let served = try await download(url, options, unlessStill: version, priority: priority) else {
                    return (nil, .unchanged)
                }
                return (served.thumbnail, served.outcome)
            }
        }

        /// A URL source's thumbnail as a job of ``downloadQueue`` (joined by identical requests), stored in the
        /// memory cache, with how its render job got it; nil if the image is still `version`.
        func download(
            _ url: String, _ options: ThumbnailOptions, unlessStill version: ImageVersion?, priority: JobPriority?
        ) async throws(ImageError) -> Served? {
            try refuseIfShutDown(url)
            if let problem = await Vips.start(on: executor) {
                throw ImageError(source: url, reason: .libvipsUnavailable(problem))
            }
            let memoryCache = memoryCache
            let cacheKey = CacheKey(source: .url(url), options: options)
            let request = Request(source: .url(url), options: options, unlessStill: version)
            return try await joined(downloads, request, priority: priority) { _ in
                // A job that starts after shutdown() (its request raced with it) does nothing.
                try self.refuseIfShutDown(url)
                let served = try await self.fetch(url, options, unlessStill: version)
                if let served { memoryCache.setValue(served.thumbnail, forKey: cacheKey) }
                return served
            }
        }

        /// The thumbnail of the image at `url`: downloaded (the session coalesces identical downloads), then made
        /// from its bytes, whose identity is the URL without its user information, query and fragment (see
        /// ``loggableURL(_:)``: the identity names the render job, which snapshots, events and log lines show) and
        /// its version; nil if the image is still `version`. Bytes are told apart by their digest, not by that
        /// identity. Errors name the URL, and the render job's log lines as ``loggableSource(_:)`` shows it. Runs as
        /// a job of ``downloadQueue``, at its priority.
        private func fetch(
            _ url: String, _ options: ThumbnailOptions, unlessStill version: ImageVersion?
        ) async throws(ImageError) -> Served? {
            guard let session = configuration.session else {
                throw ImageError(
                    source: url, reason: .unreadable("URL sources need ImagePipeline.Configuration.session"))
            }
            let response: HTTPResponse
            do {
                var request = HTTPRequest(url: url, priority: JobPriority(Task.currentPriority))
                request.maximumResponseSize = configuration.limits.maximumBytes
                if let validators = version?.validators, !validators.isEmpty {
                    if let etag = validators.etag { request.headers.add(name: "if-none-match", value: etag) }
                    if let date = validators.lastModified {
                        request.headers.add(name: "if-modified-since", value: date)
                    }
                    request.requiresSuccessStatus = false  // a 304 is an answer, not a failure
                }
                response = try await session.data(for: request)
            } catch {
                if error.isCancelled { throw ImageError(source: url, reason: .cancelled) }
                throw ImageError(source: url, reason: .unreadable(error.description))
            }
            if response.status == 304, version != nil { return nil }
            guard (200..<300).contains(response.status) else {
                throw ImageError(source: url, reason: .unreadable(HTTPError.Reason.status(response.status).description))
            }
            // Without a validator the bytes themselves identify the image (a hash of them): a changed image at the
            // same URL must not be served from the disk cache.
            let current = ImageVersion(response)
            if let version, version == current { return nil }
            let source: ImageSource
            let identity = "\(Self.loggableURL(url)) \(current)"
            do {
                // The bytes' digest (O(their count)) is computed on a blocking thread, off the cooperative pool.
                source = try await BlockingExecutor.shared.run { ImageSource.bytes(response.body, identity: identity) }
            } catch {
                throw ImageError(source: url, reason: .cancelled)  // the run's only error
            }
            do {
                // Cached in memory by the caller, under the URL: not under the bytes' identity as well.
                let request = Request(source: source, options: options)
                var served = try await render(request, caching: nil, priority: nil, naming: .url(url))
                served.thumbnail.sourceVersion = current
                return served
            } catch {
                throw ImageError(source: url, reason: error.reason)  // named by the URL, not the bytes' identity
            }
        }
    }
#endif
