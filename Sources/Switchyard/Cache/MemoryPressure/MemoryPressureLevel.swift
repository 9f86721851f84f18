/// How close the process is to running out of memory, as a ``MemoryPressureMonitor`` judges it.
///
/// Levels are ordered: `.normal < .warning < .critical`. The raw value is the rank (`0`, `1`, `2`).
/// A value type: safe to pass between threads and tasks; comparisons are O(1).
public enum MemoryPressureLevel: Int, Sendable, Comparable, CustomStringConvertible {
    /// No signal says memory is short.
    case normal
    /// Memory is getting short: drop what is cheap to rebuild (caches beyond a working set, prefetched data).
    case warning
    /// Memory is about to run out, or the kernel is already reclaiming hard or killing: drop everything that can
    /// be dropped.
    case critical

    /// Orders levels by severity.
    public static func < (lhs: MemoryPressureLevel, rhs: MemoryPressureLevel) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `"normal"`, `"warning"` or `"critical"`.
    public var description: String {
        switch self {
        case .normal: "normal"
        case .warning: "warning"
        case .critical: "critical"
        }
    }
}
