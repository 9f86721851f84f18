#if Observability
    import Logging
    import Switchyard

    /// How ``WorkQueueService`` logs a queue's job events with swift-log: one line per event, with the metadata
    /// `queue`, `job` (its name), `job_number`, `attempt` and `state`.
    ///
    /// | event | level |
    /// |---|---|
    /// | finished: failed, timed out, dependency failed | `error` |
    /// | retrying, timed out (the attempt) | `warning` |
    /// | finished: cancelled | `notice` |
    /// | submitted, started, finished: succeeded, priority changed | `debug` |
    ///
    /// A logger whose level is above an event's costs one comparison per event.
    public enum WorkQueueLog {
        /// The level `event` is logged at.
        public static func level(of event: JobEvent) -> Logger.Level {
            switch event.kind {
            case .finished:
                switch event.state {
                case .succeeded: .debug
                case .cancelled: .notice
                default: .error
                }
            case .retrying, .timedOut: .warning
            case .submitted, .started, .priorityChanged: .debug
            }
        }

        /// Logs `event` to `logger` at ``level(of:)``.
        public static func log(_ event: JobEvent, to logger: Logger) {
            let level = level(of: event)
            guard logger.logLevel <= level else { return }
            let message: Logger.Message =
                switch event.kind {
                case .submitted: "job submitted"
                case .started: "job started"
                case .retrying: "job attempt failed; retrying"
                case .timedOut: "job attempt timed out"
                case .priorityChanged: "job priority changed"
                case .finished: "job finished: \(event.state)"
                }
            var metadata: Logger.Metadata = [
                "queue": "\(event.queueName)", "job": "\(event.jobName)", "job_number": "\(event.jobNumber)",
                "attempt": "\(event.attempts)", "state": "\(event.state)",
            ]
            if event.kind == .finished, let startedAt = event.startedAt {
                metadata["duration"] = "\(event.time - startedAt)"
            }
            logger.log(level: level, message, metadata: metadata)
        }
    }
#endif
