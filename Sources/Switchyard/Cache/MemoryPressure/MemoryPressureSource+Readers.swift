extension MemoryPressureSource {
    /// Reads a cgroup v2 directory. **Blocks** on file I/O.
    ///
    /// The usage ratio comes from the cgroup, or from the ancestor whose limit leaves the least room: a limit set on
    /// a parent (a systemd slice's `MemoryMax=`, a container whose processes sit in a child such as `init.scope`)
    /// binds too, though the cgroup's own `memory.max` says `max`. Ancestors are read up to the first directory
    /// without a `memory.max` (the cgroup root), at most ``maximumAncestors`` levels. Only when no cgroup on the way
    /// has a limit does the reading fall back to `meminfoPath`.
    static func readCgroupV2(directory: String, meminfoPath: String) -> MemoryPressureReading {
        var builder = ReadingBuilder(source: "cgroup v2 \(directory)")
        let file = { KernelFile.join(directory, $0) }
        builder.readPressure(file("memory.pressure"))
        let loadedEvents = builder.load(file("memory.events"), required: false, MemoryPressureFormats.parseMemoryEvents)
        if let events = loadedEvents.value {
            builder.reading.eventsHigh = events.high
            builder.reading.eventsMax = events.max
            builder.reading.eventsOOM = events.oom
        }
        var tightest: (used: UInt64, limit: UInt64, directory: String)?
        var current: String? = directory
        var level = 0
        while let cgroup = current, level <= maximumAncestors {
            guard let usage = builder.limitedUsageV2(cgroup, isOwn: level == 0) else { break }
            if case .limited(let used, let limit) = usage,
                tightest.map({ Int128(limit) - Int128(used) < Int128($0.limit) - Int128($0.used) }) ?? true
            {
                tightest = (used, limit, cgroup)
            }
            // Own limit unknown: the diagnostics say why.
            if case .unknown = usage, level == 0 { return builder.reading }
            current = KernelFile.parent(of: cgroup)
            level += 1
        }
        if let tightest {
            builder.reading.usedBytes = tightest.used
            builder.reading.limitBytes = tightest.limit
            if tightest.directory != directory { builder.reading.source += " (limit of \(tightest.directory))" }
        } else {
            builder.useMeminfo(meminfoPath)  // no limit anywhere up to the root
        }
        return builder.reading
    }

    /// The most ancestors of a cgroup v2 directory whose limits are read.
    static var maximumAncestors: Int { 16 }

    /// Reads a cgroup v1 memory directory and drains its pressure-level events. **Blocks** on file I/O.
    static func readCgroupV1(
        directory: String, meminfoPath: String, listener: PressureLevelListener
    ) -> MemoryPressureReading {
        var builder = ReadingBuilder(source: "cgroup v1 \(directory)")
        let file = { KernelFile.join(directory, $0) }
        builder.readPressure(file("memory.pressure"))
        if let reason = listener.unavailableReason {
            builder.reading.diagnostics.append(reason)
        } else {
            let (counts, problems) = listener.drain()
            builder.reading.pressureLevelMedium = counts["medium"]
            builder.reading.pressureLevelCritical = counts["critical"]
            builder.reading.diagnostics += problems
        }
        let stat = builder.load(file("memory.stat"), required: true, MemoryPressureFormats.parseKeyedNumbers)
        let ownLimit = builder.load(
            file("memory.limit_in_bytes"), required: true,
            MemoryPressureFormats.parseLimitInBytes)
        let limit = MemoryPressureFormats.effectiveLimitV1(own: ownLimit.value ?? nil, stat: stat.value ?? [:])
        switch limit {
        case .bytes(let limit)?:
            let usage = builder.load(file("memory.usage_in_bytes"), required: true, MemoryPressureFormats.parseNumber)
            if case .parsed(let usage?) = usage {
                let inactive = stat.value.flatMap(MemoryPressureFormats.inactiveFileV1(stat:))
                builder.reading.usedBytes = MemoryPressureFormats.workingSet(usage: usage, inactiveFile: inactive)
                builder.reading.limitBytes = limit
            }
        case .unlimited?:
            builder.useMeminfo(meminfoPath)
        case nil:
            break  // the limit is unknown: no usage ratio (the diagnostics say why)
        }
        return builder.reading
    }

    /// Reads a `/proc/meminfo`-format file and the PSI file `pressure/memory` beside it. **Blocks** on file I/O.
    static func readMeminfo(path: String) -> MemoryPressureReading {
        var builder = ReadingBuilder(source: "meminfo \(path)")
        builder.useMeminfo(path, describe: false)
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? "."
        builder.readPressure(KernelFile.join(directory, "pressure/memory"))
        return builder.reading
    }
}

extension MemoryPressureSource {
    /// Collects one reading: loads and parses files, and records what went wrong in the reading's diagnostics.
    /// **Blocks** on file I/O; a local value, not shared.
    struct ReadingBuilder {
        var reading: MemoryPressureReading

        /// What loading one file gave.
        enum Loaded<Value> {
            /// The file was read and parsed (problems with single lines are already in the diagnostics).
            case parsed(Value)
            /// The file does not exist.
            case missing
            /// The file exists but could not be read (the diagnostics say why).
            case unreadable

            /// The parsed value, if any.
            var value: Value? {
                if case .parsed(let value) = self { value } else { nil }
            }
        }

        init(source: String) {
            reading = MemoryPressureReading(source: source)
        }

        /// Reads and parses `path`. A missing file is a diagnostic only if `required`.
        mutating func load<Value>(
            _ path: String, required: Bool,
            _ parse: (String, String) -> MemoryPressureFormats.Parsed<Value>
        ) -> Loaded<Value> {
            switch KernelFile.contents(of: path) {
            case .success(let text):
                let parsed = parse(text, path)
                reading.diagnostics += parsed.problems
                return .parsed(parsed.value)
            case .failure(.missing):
                if required { reading.diagnostics.append("\(path): missing") }
                return .missing
            case .failure(.failed(let message)):
                reading.diagnostics.append("\(path): \(message)")
                return .unreadable
            }
        }

        /// Reads PSI from `path` if it exists.
        mutating func readPressure(_ path: String) {
            guard let averages = load(path, required: false, MemoryPressureFormats.parsePressure).value else { return }
            reading.psiSomeAvg10 = averages.some
            reading.psiFullAvg10 = averages.full
        }

        /// What one cgroup v2 directory says about its limit.
        enum CgroupUsage {
            case limited(used: UInt64, limit: UInt64)
            /// `memory.max` is `max`.
            case unlimited
            /// The limit or usage could not be read or parsed (the diagnostics say why).
            case unknown
        }

        /// The working set and limit of the cgroup v2 directory `directory`, or nil if it has no `memory.max`
        /// (the root cgroup, or not a cgroup at all). `isOwn`: the process's own cgroup, whose missing files are
        /// reported; an ancestor's are not.
        mutating func limitedUsageV2(_ directory: String, isOwn: Bool) -> CgroupUsage? {
            let file = { KernelFile.join(directory, $0) }
            switch load(file("memory.max"), required: false, MemoryPressureFormats.parseMemoryMax) {
            case .missing: return nil
            case .parsed(.unlimited?): return .unlimited
            case .parsed(nil), .unreadable: return .unknown
            case .parsed(.bytes(let limit)?):
                let current = load(file("memory.current"), required: true, MemoryPressureFormats.parseNumber)
                let stat = load(file("memory.stat"), required: isOwn, MemoryPressureFormats.parseKeyedNumbers)
                guard case .parsed(let usage?) = current else { return .unknown }
                let inactive = stat.value.flatMap(MemoryPressureFormats.inactiveFileV2(stat:))
                return .limited(
                    used: MemoryPressureFormats.workingSet(usage: usage, inactiveFile: inactive), limit: limit)
            }
        }

        /// Takes the used/limit pair from the meminfo file at `path`; with `describe`, notes the fallback in the
        /// reading's source.
        mutating func useMeminfo(_ path: String, describe: Bool = true) {
            if describe { reading.source += " (no limit; usage from \(path))" }
            guard let info = load(path, required: true, MemoryPressureFormats.parseMeminfo).value else { return }
            reading.meminfoTotalBytes = info.totalBytes
            reading.meminfoAvailableBytes = info.availableBytes
            guard let total = info.totalBytes, let available = info.availableBytes else {
                let absent = [("MemTotal", info.totalBytes), ("MemAvailable", info.availableBytes)]
                    .filter { $0.1 == nil }.map(\.0).joined(separator: " and ")
                reading.diagnostics.append("\(path): no \(absent)")
                return
            }
            reading.usedBytes = total > available ? total - available : 0
            reading.limitBytes = total
        }
    }
}
