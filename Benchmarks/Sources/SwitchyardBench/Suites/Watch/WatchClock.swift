import Foundation

/// The clocks the watch suite shares with its child processes, and its latency quantiles.
enum WatchClock {
    /// `CLOCK_MONOTONIC` in nanoseconds: one clock for every process of the machine, so that a time a child prints
    /// can be compared with the suite's own.
    static func monotonic() -> UInt64 { read(CLOCK_MONOTONIC) }

    /// `CLOCK_REALTIME` in nanoseconds since 1970: what `date +%s%N` prints in the commands the restart row runs.
    static func realtime() -> UInt64 { read(CLOCK_REALTIME) }

    private static func read(_ clock: clockid_t) -> UInt64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// The `quantile` (0…1) of `sorted` by nearest rank, as the other suites take it.
    static func quantile(_ sorted: [Double], _ quantile: Double) -> Double {
        sorted[min(sorted.count - 1, Int(Double(sorted.count) * quantile))]
    }
}
