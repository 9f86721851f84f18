/// When a ``MemoryPressureReading`` means `.warning` or `.critical`: the rules a ``MemoryPressureMonitor`` decides
/// by.
///
/// Every signal present in a reading gives a level, and the reading's level is the highest of them:
///
/// | signal | `.warning` | `.critical` |
/// |---|---|---|
/// | used / limit | ≥ ``warningUsageRatio`` (0.85) | ≥ ``criticalUsageRatio`` (0.95) |
/// | PSI `some avg10` | ≥ ``warningPSISomeAvg10`` (10 %) | |
/// | PSI `full avg10` | | ≥ ``criticalPSIFullAvg10`` (10 %) |
/// | cgroup v2 `memory.events` | `high` increased | `max` or `oom` increased |
/// | cgroup v1 `memory.pressure_level` | `medium` fired | `critical` fired |
///
/// Event counters are compared with the previous reading: without one (the first reading) they say nothing, and
/// a counter that went down (the cgroup was recreated) says nothing either. A signal that is absent (`nil`) says
/// nothing.
///
/// A value type; ``level(for:previous:)`` is a pure function, O(1).
public struct MemoryPressureThresholds: Sendable, Hashable {
    /// Used/limit ratio from which the level is at least `.warning`.
    public var warningUsageRatio: Double
    /// Used/limit ratio from which the level is `.critical`.
    public var criticalUsageRatio: Double
    /// PSI `some avg10` (percent) from which the level is at least `.warning`.
    public var warningPSISomeAvg10: Double
    /// PSI `full avg10` (percent) from which the level is `.critical`.
    public var criticalPSIFullAvg10: Double

    /// Creates thresholds; the defaults are those in the table above.
    public init(
        warningUsageRatio: Double = 0.85,
        criticalUsageRatio: Double = 0.95,
        warningPSISomeAvg10: Double = 10,
        criticalPSIFullAvg10: Double = 10
    ) {
        self.warningUsageRatio = warningUsageRatio
        self.criticalUsageRatio = criticalUsageRatio
        self.warningPSISomeAvg10 = warningPSISomeAvg10
        self.criticalPSIFullAvg10 = criticalPSIFullAvg10
    }

    /// The level `reading` indicates: the highest level of any of its signals, with `previous` (the reading before
    /// it from the same source, if any) as the baseline for event counters. Pure; O(1).
    public func level(for reading: MemoryPressureReading, previous: MemoryPressureReading?) -> MemoryPressureLevel {
        var level = MemoryPressureLevel.normal
        func raise(to candidate: MemoryPressureLevel, if condition: Bool) {
            if condition, candidate > level { level = candidate }
        }
        if let ratio = reading.usageRatio {
            raise(to: .critical, if: ratio >= criticalUsageRatio)
            raise(to: .warning, if: ratio >= warningUsageRatio)
        }
        if let some = reading.psiSomeAvg10 { raise(to: .warning, if: some >= warningPSISomeAvg10) }
        if let full = reading.psiFullAvg10 { raise(to: .critical, if: full >= criticalPSIFullAvg10) }
        raise(to: .warning, if: Self.increased(\.eventsHigh, from: previous, to: reading))
        raise(to: .critical, if: Self.increased(\.eventsMax, from: previous, to: reading))
        raise(to: .critical, if: Self.increased(\.eventsOOM, from: previous, to: reading))
        raise(to: .warning, if: (reading.pressureLevelMedium ?? 0) > 0)
        raise(to: .critical, if: (reading.pressureLevelCritical ?? 0) > 0)
        return level
    }

    /// Whether the counter at `key` is present in both readings and grew.
    private static func increased(
        _ key: KeyPath<MemoryPressureReading, UInt64?>,
        from previous: MemoryPressureReading?,
        to reading: MemoryPressureReading
    ) -> Bool {
        guard let before = previous?[keyPath: key], let now = reading[keyPath: key] else { return false }
        return now > before
    }
}
