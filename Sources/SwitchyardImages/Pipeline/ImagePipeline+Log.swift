#if Images
    import Logging
    import SwitchyardHTTP
    import Synchronization

    /// What the pipeline logs and counts, one function per event (the tables are in ``ImagePipeline``'s
    /// description). Without a logger, each one only counts: no metadata is built and no text formatted; with one,
    /// metadata is built only for a line its level lets through. `image_source` never shows an image's bytes, a
    /// URL's query or a file's folder; a failure's `reason` shows every URL in it as `image_source` shows a URL.
    extension ImagePipeline {
        /// Runs one public request's `body` and counts how it ended, once: by the outcome `body` returns, or by the
        /// ``ImageError`` it throws (`cancelled` for ``ImageError/Reason/cancelled`` and
        /// ``ImageError/Reason/shutDown``, else `failed`, logged: see ``recordFailure(_:_:_:since:)``).
        func counted<Value>(
            _ source: ImageSource, _ options: ThumbnailOptions,
            _ body: () async throws(ImageError) -> (Value, ImagePipelineMetrics.Outcome)
        ) async throws(ImageError) -> Value {
            let start: ContinuousClock.Instant? = logger == nil ? nil : .now
            do throws(ImageError) {
                let (value, outcome) = try await body()
                metrics.record(outcome)
                return value
            } catch {
                let outcome = ImagePipelineMetrics.Outcome(failure: error.reason)
                metrics.record(outcome)
                if outcome == .failed, let start { recordFailure(error, source, options, since: start) }
                throw error
            }
        }

        /// A request for `source` per `options` that began at `start` failed with `error`: logged as `render failed`
        /// (warning), or, for ``ImageError/Reason/libvipsUnavailable(_:)``, as `libvips unavailable` (error) the
        /// first time only.
        func recordFailure(
            _ error: ImageError, _ source: ImageSource, _ options: ThumbnailOptions,
            since start: ContinuousClock.Instant
        ) {
            guard let logger else { return }
            let elapsed = start.duration(to: .now)
            if case .libvipsUnavailable(let problem) = error.reason {
                let first = reportedLibvipsProblem.compareExchange(expected: false, desired: true, ordering: .relaxed)
                guard first.exchanged else { return }
                logger.error(
                    "libvips unavailable",
                    metadata: Self.metadata(
                        source, width: options.pixelWidth, height: options.pixelHeight, format: options.format,
                        duration: elapsed, extra: ["reason": "\(problem)"]))
                return
            }
            logger.warning(
                "render failed",
                metadata: Self.metadata(
                    source, width: options.pixelWidth, height: options.pixelHeight, format: options.format,
                    duration: elapsed, extra: ["reason": "\(Self.loggableReason(error.reason, of: source))"]))
        }

        /// A render job made `thumbnail` of `source` in `elapsed`: logged (`thumbnail rendered`, debug) to `logger`.
        static func recordRendered(
            _ thumbnail: Thumbnail, of source: ImageSource, in elapsed: Duration, to logger: Logger?
        ) {
            logger?.debug(
                "thumbnail rendered",
                metadata: Self.metadata(
                    source, width: thumbnail.width, height: thumbnail.height, format: thumbnail.format,
                    duration: elapsed))
        }

        /// A render job read `thumbnail` of `source` from the disk cache in `elapsed`: logged (`thumbnail served
        /// from the disk cache`, trace) to `logger`.
        static func recordDiskHit(
            _ thumbnail: Thumbnail, of source: ImageSource, in elapsed: Duration, to logger: Logger?
        ) {
            logger?.trace(
                "thumbnail served from the disk cache",
                metadata: Self.metadata(
                    source, width: thumbnail.width, height: thumbnail.height, format: thumbnail.format,
                    duration: elapsed))
        }

        /// Samples `diskCache`'s size now, and once its scan at open has merged: then logs `disk cache scan
        /// finished` (debug) with the entries and bytes it counts. Called once, as the pipeline starts.
        func observeScan(of diskCache: ThumbnailDiskCache) {
            metrics.sample(diskCache)
            let (counts, log) = (metrics, logger)
            diskCache.whenScanned {
                counts.sample(diskCache)
                log?.debug(
                    "disk cache scan finished",
                    metadata: ["entries": "\(diskCache.entryCount)", "bytes": "\(diskCache.totalBytes)"])
            }
        }

        /// The line's metadata: `image_source` (see ``loggableSource(_:)``), `width`, `height`, `format`, `duration`
        /// and `extra`. `image_pipeline` is the logger's own.
        static func metadata(
            _ source: ImageSource, width: Int, height: Int, format: ImageFormat, duration: Duration,
            extra: Logger.Metadata = [:]
        ) -> Logger.Metadata {
            var metadata = extra
            metadata["image_source"] = "\(loggableSource(source))"
            metadata["width"] = "\(width)"
            metadata["height"] = "\(height)"
            metadata["format"] = "\(format)"
            metadata["duration"] = "\(duration)"
            return metadata
        }

        /// What a log line shows of `source`: a file's last path component (`photos/2024/a.jpg` is `a.jpg`), a URL
        /// without its user information, query and fragment (see ``loggableURL(_:)``), and for bytes in memory their
        /// size and the start of their digest (never their identity, which may hold a URL, nor the bytes).
        /// - Complexity: O(the path's or URL's length).
        static func loggableSource(_ source: ImageSource) -> String {
            switch source {
            case .file(let path): return path.split(separator: "/").last.map(String.init) ?? path
            case .url(let url): return loggableURL(url)
            case .bytes(let encoded): return "\(encoded.bytes.count) bytes, sha256 \(encoded.digest.prefix(16))"
            }
        }

        /// `url` without its user information, query and fragment, which may hold credentials or tokens, as the HTTP
        /// session shows a URL (``HTTPSession``'s `loggableURL`).
        /// `https://user:secret@example.org/a.jpg?token=x#top` is `https://example.org/a.jpg`.
        /// - Complexity: O(length).
        static func loggableURL(_ url: String) -> String { HTTPSession.loggableURL(url) }

        /// `reason`'s text as a log line shows it: every URL in it (a URL source's own, and any other, such as a
        /// redirect's) without its user information, query and fragment. A URL source's URL is replaced whole
        /// first, so that one holding a space goes too; others are the runs of non-space characters around a `://`
        /// (``HTTPSession``'s `loggableText`). - Complexity: O(the reason's and the URL's length).
        static func loggableReason(_ reason: ImageError.Reason, of source: ImageSource) -> String {
            var text = reason.description
            if case .url(let url) = source, !url.isEmpty { text = text.replacing(url, with: loggableURL(url)) }
            return HTTPSession.loggableText(text)
        }
    }
#endif
