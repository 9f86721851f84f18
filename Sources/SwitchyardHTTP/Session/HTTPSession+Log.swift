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
        /// Not logged: the retry it leads to is, or the call's failure.
        func recordNoResponse(
            _ prepared: PreparedRequest, _ reason: HTTPError.Reason, since start: ContinuousClock.Instant
        ) {
            guard reason != .cancelled, reason != .sessionShutDown, !Task.isCancelled else { return }
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
        /// line shows of a URL. `https://user:secret@example.org/feed?token=x#top` is `https://example.org/feed`.
        /// - Complexity: O(length).
        static func loggableURL(_ url: String) -> String {
            let whole = url.prefix { $0 != "?" && $0 != "#" }
            guard let colon = whole.firstIndex(of: ":"), whole[colon...].hasPrefix("://") else { return String(whole) }
            let authorityStart = whole.index(colon, offsetBy: 3)
            let rest = whole[authorityStart...]
            let authority = rest.prefix { $0 != "/" }
            guard let at = authority.lastIndex(of: "@") else { return String(whole) }
            return String(whole[..<authorityStart]) + String(whole[whole.index(after: at)...])
        }
    }
#endif
