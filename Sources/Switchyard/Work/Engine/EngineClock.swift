/// The engine's timestamps: offsets on `ContinuousClock` from one process-wide origin, stored as `Duration`.
///
/// `ContinuousClock.Instant` is a resilient type: every copy, store and optional of one would go through runtime
/// value witnesses. A `Duration` has a layout known at compile time. Snapshots turn offsets back into instants
/// exactly (`origin + offset`).
enum EngineClock {
    /// The instant offsets count from: the first use of the engine's clock in the process.
    static let origin = ContinuousClock.now

    /// Now, as an offset from `origin`. - Complexity: O(1), one clock read.
    static func now() -> Duration { origin.duration(to: .now) }

    /// The instant at `offset` from `origin`.
    static func instant(_ offset: Duration) -> ContinuousClock.Instant { origin + offset }
}
