#if HTTP
    import CoreMetrics
    import Logging

    /// What the session logs and counts, one function per event (the tables are in ``HTTPSession``'s description).
    /// Without a logger, each one only counts: no metadata is built and no text formatted; with one, metadata is built
    /// only for a line its level lets through. No line carries a header field's value or a body.
    extension HTTPSession {
        /// An attempt of `prepared` (number `attempt` of its hop) received a response head of `status`; it began at
        /// `start`. Counted by status class, timed, and logged (`request finished`, debug).
        func recordResponse(
            _ prepared: PreparedRequest, attempt: Int, status: Int, since start: ContinuousClock.Instant
        ) {
            let elapsed = start.duration(to: .now)
            metrics.recordAttempt(status: status, elapsed)
            logger?.debug(
                "request finished",
                metadata: Self.metadata(prepared, attempt: attempt, status: status, duration: elapsed))
        }

        /// An attempt of `prepared` that began at `start` ended without a response, with `reason`: counted as `error`
        /// and timed, unless it was cancelled (by its caller, or by the session's shutdown), which is not counted.
        /// `timedOutIdle` says the idle timeout ended it by cancelling its task (see ``watchingIdle(_:)``): counted.
        /// Not logged: the retry it leads to is, or the call's failure.
        func recordNoResponse(
            _ prepared: PreparedRequest, _ reason: HTTPError.Reason, since start: ContinuousClock.Instant,
            timedOutIdle: Bool = false
        ) {
            guard reason != .cancelled, reason != .sessionShutDown, timedOutIdle || !Task.isCancelled else { return }
            metrics.recordAttempt(status: nil, start.duration(to: .now))
        }

        /// Attempt `attempt` of `prepared` failed with `reason`, and the next one starts after `delay`. Counted, and
        /// logged (`retry scheduled`, notice).
        func recordRetry(_ prepared: PreparedRequest, after attempt: Int, _ reason: HTTPError.Reason, delay: Duration) {
            metrics.retries.increment()
            logger?.notice(
                "retry scheduled",
                metadata: Self.metadata(
                    prepared, attempt: attempt, status: Self.status(of: reason),
                    extra: ["reason": "\(reason)", "delay": "\(delay)"]))
        }

        /// The call on `prepared` failed for good with `error`, having started at `start`: logged as `request failed`
        /// (warning), or as `request cancelled` (debug) when its caller or the session's shutdown ended it.
        func recordFailure(_ error: HTTPError, _ prepared: PreparedRequest, since start: ContinuousClock.Instant) {
            guard let logger else { return }
            let ended = error.reason == .cancelled || error.reason == .sessionShutDown
            let message: Logger.Message = ended ? "request cancelled" : "request failed"
            logger.log(
                level: ended ? .debug : .warning, message,
                metadata: Self.metadata(
                    prepared, attempt: error.attempts.count, status: Self.status(of: error.reason),
                    duration: start.duration(to: .now), extra: ["reason": "\(error.reason)"]))
        }

        /// The download call on `prepared`, started at `start`, ended with `result`: logged when it resumed a partial
        /// file (`download resumed`) or found the file current (`download unchanged`), both info.
        func recordDownload(_ result: DownloadResult, _ prepared: PreparedRequest, since start: ContinuousClock.Instant)
        {
            guard let logger else { return }
            switch result.outcome {
            case .resumed(let offset):
                logger.info(
                    "download resumed",
                    metadata: Self.metadata(
                        prepared, duration: start.duration(to: .now),
                        extra: ["resumed_from": "\(offset)", "size": "\(result.size)"]))
            case .unchanged:
                logger.info(
                    "download unchanged",
                    metadata: Self.metadata(
                        prepared, status: 304, duration: start.duration(to: .now), extra: ["size": "\(result.size)"]))
            case .downloaded:
                break
            }
        }

        /// A download hop of `prepared` resumed from byte `offset` put together a file whose checksum is not the
        /// expected one (`reason`): logged (`download checksum mismatch`, warning) as it starts over in full.
        func recordChecksumRestart(_ prepared: PreparedRequest, resumedFrom offset: Int64, _ reason: HTTPError.Reason) {
            logger?.warning(
                "download checksum mismatch; downloading it again in full",
                metadata: Self.metadata(prepared, extra: ["resumed_from": "\(offset)", "reason": "\(reason)"]))
        }

        /// The line's metadata: `http_method` and `http_url` of `prepared` (see ``loggableURL(_:)``), and the others
        /// when given. `http_session` is the logger's own.
        static func metadata(
            _ prepared: PreparedRequest, attempt: Int? = nil, status: Int? = nil, duration: Duration? = nil,
            extra: Logger.Metadata = [:]
        ) -> Logger.Metadata {
            var metadata = extra
            metadata["http_method"] = "\(prepared.request.method.rawValue)"
            metadata["http_url"] = "\(loggableURL(prepared.request.url))"
            if let attempt { metadata["attempt"] = "\(attempt)" }
            if let status { metadata["http_status"] = "\(status)" }
            if let duration { metadata["duration"] = "\(duration)" }
            return metadata
        }

        /// The status a reason names, if it is ``HTTPError/Reason/status(_:)``.
        static func status(of reason: HTTPError.Reason) -> Int? {
            if case .status(let status) = reason { return status }
            return nil
        }

        /// `url` without its user information, query and fragment, which may hold credentials or tokens: what a log
        /// line, an error, a job's name or a response's description shows of a URL.
        /// `https://user:secret@example.org/feed?token=x#top` is `https://example.org/feed`. What follows the first
        /// `?` or `#` goes whatever precedes it, and the user information of every `://` in what remains (a URL in
        /// the path of another). - Complexity: O(length).
        package static func loggableURL(_ url: String) -> String { loggablePart(url[...]) }

        /// `text` with each URL in it shown as ``loggableURL(_:)`` shows it: for a text that may name URLs (an
        /// error's, a reason's) on its way to a log line. A URL here is the run of characters other than white
        /// space around a `://`, so one that holds a space is cut short at it (the session's own texts name URLs
        /// through ``loggableURL(_:)`` already). `GET https://u:p@example.org/a?t=1 failed` is
        /// `GET https://example.org/a failed`. - Complexity: O(length).
        package static func loggableText(_ text: String) -> String {
            guard text.contains("://") else { return text }
            var shown = ""
            var rest = text[...]
            while let separator = rest.firstRange(of: "://") {
                let before = rest[..<separator.lowerBound]
                let start = before.lastIndex(where: \.isWhitespace).map { rest.index(after: $0) } ?? rest.startIndex
                let end = rest[separator.upperBound...].firstIndex(where: \.isWhitespace) ?? rest.endIndex
                shown += rest[..<start]
                shown += loggablePart(rest[start..<end])
                rest = rest[end...]
            }
            shown += rest
            return shown
        }

        /// ``loggableURL(_:)`` of a part of a text. Works on the UTF-8 bytes (every delimiter is ASCII): a URL without
        /// user information costs one pass up to its first `?` or `#` and one copy.
        private static func loggablePart(_ url: Substring) -> String {
            let end = url.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? url.endIndex
            var rest = url[..<end]
            guard rest.utf8.contains(UInt8(ascii: "@")) else { return String(rest) }
            var shown = ""
            while let separator = URLAuthority.schemeSeparator(in: rest.utf8) {
                let start = rest.utf8.index(separator, offsetBy: 3)
                let stop = rest.utf8[start...].firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
                let authority = rest[start..<stop]
                shown += rest[..<start]
                shown +=
                    authority.utf8.lastIndex(of: UInt8(ascii: "@")).map {
                        authority[authority.utf8.index(after: $0)...]
                    } ?? authority
                rest = rest[stop...]
            }
            shown += rest
            return shown
        }
    }
#endif
