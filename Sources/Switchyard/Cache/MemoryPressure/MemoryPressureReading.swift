/// What one look at the memory-pressure files found: raw values, not yet a decision.
///
/// Every signal is optional: `nil` means the file that carries it does not exist on this system, could not be read,
/// or could not be parsed (the last two are explained in ``diagnostics``). ``MemoryPressureThresholds`` turns a
/// reading (and the one before it) into a ``MemoryPressureLevel``.
///
/// A value type: safe to pass between threads and tasks.
public struct MemoryPressureReading: Sendable, Hashable, CustomStringConvertible {
    /// Where the values came from, for diagnostics: for example `"cgroup v2 /sys/fs/cgroup/app.slice"` or
    /// `"cgroup v1 /sys/fs/cgroup/memory (no limit; usage from /proc/meminfo)"`.
    public var source: String

    /// Memory in use that the kernel cannot simply drop, in bytes: the cgroup's usage minus its inactive file
    /// cache (the "working set"), or `MemTotal − MemAvailable` when the usage comes from `/proc/meminfo`.
    public var usedBytes: UInt64?
    /// The most memory the process may use, in bytes: the cgroup's limit, or `MemTotal` when the cgroup has none.
    public var limitBytes: UInt64?

    /// PSI `some avg10` (cgroup v2 `memory.pressure`, or `/proc/pressure/memory`): the share of the last 10 seconds,
    /// in percent, during which at least one task was stalled waiting for memory.
    public var psiSomeAvg10: Double?
    /// PSI `full avg10`: the share of the last 10 seconds, in percent, during which all non-idle tasks were stalled
    /// waiting for memory.
    public var psiFullAvg10: Double?

    /// cgroup v2 `memory.events` `high`: how many times usage went over `memory.high` (reclaim was forced), since
    /// the cgroup was created. Only an increase between two readings means something.
    public var eventsHigh: UInt64?
    /// cgroup v2 `memory.events` `max`: how many times usage was about to go over `memory.max`.
    public var eventsMax: UInt64?
    /// cgroup v2 `memory.events` `oom`: how many times the cgroup ran out of memory.
    public var eventsOOM: UInt64?

    /// cgroup v1 `memory.pressure_level`: how many `medium` events the kernel delivered since the previous reading
    /// of the same source (`nil` when the events could not be registered; see ``diagnostics``).
    public var pressureLevelMedium: UInt64?
    /// cgroup v1 `memory.pressure_level`: how many `critical` events the kernel delivered since the previous
    /// reading of the same source.
    public var pressureLevelCritical: UInt64?

    /// `/proc/meminfo` `MemTotal`, in bytes, when the usage ratio comes from `/proc/meminfo`.
    public var meminfoTotalBytes: UInt64?
    /// `/proc/meminfo` `MemAvailable`, in bytes, when the usage ratio comes from `/proc/meminfo`.
    public var meminfoAvailableBytes: UInt64?

    /// What went wrong while reading, one message per problem: a file that could not be read, or a line that
    /// could not be parsed (naming the file and the line number). The signal concerned is `nil`.
    public var diagnostics: [String]

    /// Creates a reading; every signal is absent unless given. Useful for tests of ``MemoryPressureThresholds`` and
    /// for apps that read their own signals.
    public init(
        source: String,
        usedBytes: UInt64? = nil,
        limitBytes: UInt64? = nil,
        psiSomeAvg10: Double? = nil,
        psiFullAvg10: Double? = nil,
        eventsHigh: UInt64? = nil,
        eventsMax: UInt64? = nil,
        eventsOOM: UInt64? = nil,
        pressureLevelMedium: UInt64? = nil,
        pressureLevelCritical: UInt64? = nil,
        meminfoTotalBytes: UInt64? = nil,
        meminfoAvailableBytes: UInt64? = nil,
        diagnostics: [String] = []
    ) {
        self.source = source
        self.usedBytes = usedBytes
        self.limitBytes = limitBytes
        self.psiSomeAvg10 = psiSomeAvg10
        self.psiFullAvg10 = psiFullAvg10
        self.eventsHigh = eventsHigh
        self.eventsMax = eventsMax
        self.eventsOOM = eventsOOM
        self.pressureLevelMedium = pressureLevelMedium
        self.pressureLevelCritical = pressureLevelCritical
        self.meminfoTotalBytes = meminfoTotalBytes
        self.meminfoAvailableBytes = meminfoAvailableBytes
        self.diagnostics = diagnostics
    }

    /// `usedBytes / limitBytes`, or `nil` if either is unknown or the limit is zero. O(1).
    public var usageRatio: Double? {
        guard let usedBytes, let limitBytes, limitBytes > 0 else { return nil }
        return Double(usedBytes) / Double(limitBytes)
    }

    /// One line listing the signals present, for logs: `cgroup v2 /sys/fs/cgroup: used 900 of 1000 bytes (90.0%),
    /// psi some 1.23 full 0.0, events high 12 max 3 oom 0`, followed by the diagnostics, if any.
    public var description: String {
        var parts: [String] = []
        if let usedBytes, let limitBytes {
            let percent = usageRatio.map { " (\(Double(Int(($0 * 1000).rounded())) / 10)%)" } ?? ""
            parts.append("used \(usedBytes) of \(limitBytes) bytes\(percent)")
        } else if let usedBytes {
            parts.append("used \(usedBytes) bytes, limit unknown")
        }
        if let meminfoTotalBytes, let meminfoAvailableBytes {
            parts.append("meminfo total \(meminfoTotalBytes) available \(meminfoAvailableBytes)")
        }
        if psiSomeAvg10 != nil || psiFullAvg10 != nil {
            parts.append("psi some \(psiSomeAvg10.map { "\($0)" } ?? "?") full \(psiFullAvg10.map { "\($0)" } ?? "?")")
        }
        if eventsHigh != nil || eventsMax != nil || eventsOOM != nil {
            let counts = [("high", eventsHigh), ("max", eventsMax), ("oom", eventsOOM)]
                .map { "\($0.0) \($0.1.map { "\($0)" } ?? "?")" }
            parts.append("events " + counts.joined(separator: " "))
        }
        if pressureLevelMedium != nil || pressureLevelCritical != nil {
            parts.append("pressure_level medium \(pressureLevelMedium ?? 0) critical \(pressureLevelCritical ?? 0)")
        }
        var text = source + ": " + (parts.isEmpty ? "no signal" : parts.joined(separator: ", "))
        if !diagnostics.isEmpty {
            text += "; problems: " + diagnostics.joined(separator: "; ")
        }
        return text
    }
}
