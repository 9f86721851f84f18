#if HTTP
    /// How long a request may take.
    ///
    /// ``connect`` and ``idle`` apply to every request of a session (they configure its connection pool); ``total``
    /// bounds one call (``HTTPSession/data(for:)`` and the others) from its start to its end, attempts, waits for a host
    /// slot and retry waits included, on the session's clock. A request that exceeds one fails with
    /// ``HTTPError/Reason/timedOut(_:)``; a connect or idle timeout counts as a failed attempt and may be retried.
    public struct HTTPTimeouts: Sendable, Hashable {
        /// Establishing a connection (TCP, and TLS when used).
        public var connect: Duration
        /// The longest silence while a response is awaited or read (no byte received).
        public var idle: Duration
        /// The whole call; `nil` for no bound.
        public var total: Duration?

        /// Timeouts; by default 10 s to connect, 60 s of silence, no total bound.
        public init(connect: Duration = .seconds(10), idle: Duration = .seconds(60), total: Duration? = nil) {
            self.connect = connect
            self.idle = idle
            self.total = total
        }
    }
#endif
