/// When and how often a failed job runs again.
///
/// An attempt that throws (or times out, if ``retriesTimeouts``) is retried while fewer than ``maximumAttempts``
/// attempts have run and ``shouldRetry`` accepts the error. Between attempts the job waits ``delay(afterAttempt:)``
/// on the clock given to ``JobOptions/retrying(_:clock:)`` without holding a slot; its waiting reason reads
/// "retry backoff". Cancellation is never retried.
public struct RetryPolicy: Sendable {
    /// The most attempts in total, including the first. `1` means no retry.
    public var maximumAttempts: Int
    /// Whether an attempt that timed out is retried.
    public var retriesTimeouts: Bool
    /// Decides whether an error is worth another attempt. Called outside the engine's lock.
    public var shouldRetry: @Sendable (any Error) -> Bool
    private let backoff: @Sendable (Int) -> Duration

    /// A policy with a custom backoff: `backoff(n)` is the wait after the `n`-th failed attempt (1-based).
    public init(
        maximumAttempts: Int,
        retriesTimeouts: Bool = false,
        shouldRetry: @escaping @Sendable (any Error) -> Bool = { _ in true },
        backoff: @escaping @Sendable (_ failedAttempt: Int) -> Duration
    ) {
        precondition(maximumAttempts >= 1, "RetryPolicy: maximumAttempts must be at least 1")
        self.maximumAttempts = maximumAttempts
        self.retriesTimeouts = retriesTimeouts
        self.shouldRetry = shouldRetry
        self.backoff = backoff
    }

    /// The same wait between every attempt.
    public static func constant(
        maximumAttempts: Int, delay: Duration, retriesTimeouts: Bool = false
    ) -> RetryPolicy {
        RetryPolicy(maximumAttempts: maximumAttempts, retriesTimeouts: retriesTimeouts) { _ in delay }
    }

    /// Waits `initial`, then `initial × factor`, `initial × factor²`… capped at `maximum`.
    public static func exponential(
        maximumAttempts: Int, initial: Duration, factor: Double = 2, maximum: Duration = .seconds(60),
        retriesTimeouts: Bool = false
    ) -> RetryPolicy {
        RetryPolicy(maximumAttempts: maximumAttempts, retriesTimeouts: retriesTimeouts) { attempt in
            var wait = initial
            for _ in 1..<max(attempt, 1) {
                wait = wait * factor
                if wait >= maximum { return maximum }
            }
            return min(wait, maximum)
        }
    }

    /// The wait after the `attempt`-th failed attempt (1-based).
    public func delay(afterAttempt attempt: Int) -> Duration { backoff(attempt) }
}
