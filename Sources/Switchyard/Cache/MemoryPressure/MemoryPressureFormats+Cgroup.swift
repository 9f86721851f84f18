extension MemoryPressureFormats {
    /// A cgroup's memory limit.
    enum Limit: Hashable {
        /// No limit (`max` in cgroup v2, a huge number in cgroup v1).
        case unlimited
        /// At most this many bytes.
        case bytes(UInt64)
    }

    /// The counters of a cgroup v2 `memory.events` file that the thresholds use.
    struct EventCounts: Hashable {
        var high: UInt64?
        var max: UInt64?
        var oom: UInt64?
    }

    /// From this value up, a cgroup v1 `memory.limit_in_bytes` means "no limit": the kernel reports
    /// `PAGE_COUNTER_MAX` pages (9223372036854771712 with 4 KiB pages), never anything a machine has.
    static let unlimitedV1Threshold: UInt64 = 1 << 62

    // MARK: cgroup v2

    /// cgroup v2 `memory.events` (`low 0\nhigh 12\nmax 3\noom 0\noom_kill 0\n`): `high`, `max` and `oom`.
    static func parseMemoryEvents(_ text: String, file: String) -> Parsed<EventCounts> {
        let keyed = parseKeyedNumbers(text, file: file)
        let counts = EventCounts(high: keyed.value["high"], max: keyed.value["max"], oom: keyed.value["oom"])
        return Parsed(value: counts, problems: keyed.problems)
    }

    /// cgroup v2 `memory.max`: `max` (no limit) or a number of bytes.
    static func parseMemoryMax(_ text: String, file: String) -> Parsed<Limit?> {
        let lines = lines(of: text)
        if lines.count == 1, lines[0].text == "max" { return Parsed(value: .unlimited) }
        guard lines.count == 1, let bytes = UInt64(lines[0].text) else {
            guard let bad = lines.count > 1 ? lines[1] : lines.first else {
                return Parsed(value: nil, problems: ["\(file): empty, expected \"max\" or a number"])
            }
            return Parsed(
                value: nil,
                problems: [
                    problem(
                        file, bad.number, expected: "\"max\" or a number",
                        got: bad.text)
                ])
        }
        return Parsed(value: .bytes(bytes))
    }

    /// The inactive file cache in a cgroup v2 `memory.stat`: `inactive_file`.
    static func inactiveFileV2(stat: [String: UInt64]) -> UInt64? {
        stat["inactive_file"]
    }

    // MARK: cgroup v1

    /// cgroup v1 `memory.limit_in_bytes`: a number of bytes, or `.unlimited` from ``unlimitedV1Threshold`` up.
    static func parseLimitInBytes(_ text: String, file: String) -> Parsed<Limit?> {
        let number = parseNumber(text, file: file)
        return Parsed(value: number.value.map(limitV1), problems: number.problems)
    }

    /// A cgroup v1 limit value as a ``Limit``.
    static func limitV1(_ bytes: UInt64) -> Limit {
        bytes >= unlimitedV1Threshold ? .unlimited : .bytes(bytes)
    }

    /// The inactive file cache in a cgroup v1 `memory.stat`: `total_inactive_file` (the cgroup and its
    /// descendants, like `memory.usage_in_bytes`), else `inactive_file`.
    static func inactiveFileV1(stat: [String: UInt64]) -> UInt64? {
        stat["total_inactive_file"] ?? stat["inactive_file"]
    }

    /// The tighter of a cgroup v1 cgroup's own limit and `hierarchical_memory_limit` from its `memory.stat` (the
    /// smallest limit among the cgroup and its ancestors, when the kernel reports it).
    static func effectiveLimitV1(own: Limit?, stat: [String: UInt64]) -> Limit? {
        let hierarchical = stat["hierarchical_memory_limit"].map(limitV1)
        switch (own, hierarchical) {
        case (.bytes(let a)?, .bytes(let b)?): return .bytes(min(a, b))
        case (.bytes?, _), (nil, nil): return own
        case (_, .bytes?): return hierarchical
        case (.unlimited?, _), (nil, .unlimited?): return .unlimited
        }
    }

    // MARK: Both

    /// The working set: usage minus the inactive file cache (which the kernel can drop at once), never below 0.
    static func workingSet(usage: UInt64, inactiveFile: UInt64?) -> UInt64 {
        let inactive = inactiveFile ?? 0
        return usage > inactive ? usage - inactive : 0
    }
}
