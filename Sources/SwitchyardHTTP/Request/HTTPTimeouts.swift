#if HTTP
    /// How long a request may take.
    ///
    /// ``connect`` and ``idle`` apply to every request of a session (``connect`` configures its connection pool,
    /// ``idle`` its idle sweep); ``total``
    /// bounds one call (``HTTPSession/data(for:)`` and the others) from its start to its end, attempts, waits for a host
    /// slot and retry waits included, on the session's clock. A request that exceeds one fails with
    /// ``HTTPError/Reason/timedOut(_:)``; a connect or idle timeout counts as a failed attempt and may be retried.
    public struct HTTPTimeouts: Sendable, Hashable {
        /// Establishing a connection (TCP, and TLS when used).
        public var connect: Duration
        /// The longest time an attempt waits for the server with nothing moving: from the attempt's start to its
        /// response's head (waiting for a connection and connecting count too: keep it above ``connect``), and
        /// between two parts of its response (or of a request body larger than 64 KiB, sent in parts of that size).
        /// Time the caller's side holds the body back does not count: a stream's consumer between two reads, a
        /// download's write of its file.
        ///
        /// One sweep per session checks every request every eighth of this (never more often than every 10 ms), on
        /// an event loop: an attempt fails after a silence of at least `idle` and at most about 1.25 × `idle` (more
        /// if the event loop is late, or for an `idle` under 80 ms, checked every 10 ms). The failure is
        /// ``HTTPError/Reason/timedOut(_:)``, a failed attempt that may be retried; once a stream's consumer was
        /// called, it is final.
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
