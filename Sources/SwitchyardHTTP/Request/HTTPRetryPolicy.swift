#if HTTP
    /// When a failed attempt of a request is repeated, and how long the session waits first.
    ///
    /// An attempt fails by a transport error (connection refused or dropped, a timeout between bytes) or by a status in
    /// ``retryableStatuses``. It is repeated while fewer than ``maximumAttempts`` have run, for idempotent methods
    /// (and others when the request opts in with ``HTTPRequest/retriesNonIdempotent``). The wait is the server's
    /// `Retry-After` when it sent one (seconds or an HTTP date; exactly that long, no jitter), otherwise
    /// `initialDelay × multiplier^(n−1)`, capped at ``maximumDelay``, less a random part of up to ``jitter`` of it (so
    /// that clients failing together do not retry together). A `Retry-After` longer than ``maximumRetryAfter`` ends the
    /// retries: the request fails with the server's answer. The wait runs on the session's clock and holds the host's
    /// slot (the server asked this host's requests to slow down). Cancellation is never retried.
    public struct HTTPRetryPolicy: Sendable, Hashable {
        /// The most attempts, the first included; 1 means no retry.
        public var maximumAttempts: Int
        /// The wait after the first failed attempt.
        public var initialDelay: Duration
        /// The factor between consecutive waits.
        public var multiplier: Double
        /// The longest computed wait.
        public var maximumDelay: Duration
        /// The largest fraction (0…1) taken off a computed wait at random.
        public var jitter: Double
        /// The longest `Retry-After` the session waits for.
        public var maximumRetryAfter: Duration
        /// Statuses that are retried: 408, 429, 500, 502, 503 and 504 by default.
        public var retryableStatuses: Set<Int>

        /// A policy; the defaults make three attempts, waiting about 0.5 s then 1 s.
        public init(
            maximumAttempts: Int = 3, initialDelay: Duration = .milliseconds(500), multiplier: Double = 2,
            maximumDelay: Duration = .seconds(30), jitter: Double = 0.2, maximumRetryAfter: Duration = .seconds(120),
            retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
        ) {
            precondition(maximumAttempts >= 1, "HTTPRetryPolicy: maximumAttempts must be at least 1")
            precondition((0...1).contains(jitter), "HTTPRetryPolicy: jitter must be within 0...1")
            self.maximumAttempts = maximumAttempts
            self.initialDelay = initialDelay
            self.multiplier = multiplier
            self.maximumDelay = maximumDelay
            self.jitter = jitter
            self.maximumRetryAfter = maximumRetryAfter
            self.retryableStatuses = retryableStatuses
        }

        /// No retries.
        public static let never = HTTPRetryPolicy(maximumAttempts: 1)

        /// The computed wait after the `attempt`-th failure (1-based), before jitter.
        public func backoff(afterAttempt attempt: Int) -> Duration {
            var wait = initialDelay
            for _ in 1..<max(attempt, 1) {
                wait = wait * multiplier
                if wait >= maximumDelay { return maximumDelay }
            }
            return min(wait, maximumDelay)
        }

        /// The wait after the `attempt`-th failure: `retryAfter` when the server sent one, otherwise the backoff less
        /// `randomFraction × jitter` of it. `nil` when `retryAfter` exceeds ``maximumRetryAfter``.
        func wait(afterAttempt attempt: Int, retryAfter: Duration?, randomFraction: Double) -> Duration? {
            if let retryAfter { return retryAfter <= maximumRetryAfter ? retryAfter : nil }
            let backoff = backoff(afterAttempt: attempt)
            return backoff - backoff * (jitter * randomFraction)
        }
    }
#endif
