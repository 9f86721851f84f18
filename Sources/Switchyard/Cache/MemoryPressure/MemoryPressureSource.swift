/// Where memory-pressure readings come from: a cgroup v2 or v1 directory, or `/proc/meminfo`.
///
/// ```swift
/// let source = MemoryPressureSource.detect()               // what this process runs under
/// let reading = try await BlockingExecutor.shared.run { source.read() }
/// print(reading)   // cgroup v2 /sys/fs/cgroup: used 734003200 of 1073741824 bytes (68.4%), psi some 0.0 full 0.0, …
/// ```
///
/// ## What is read
/// - **cgroup v2** (`directory` such as `/sys/fs/cgroup/app.slice`): `memory.current` minus `inactive_file` from
///   `memory.stat` (the working set) against `memory.max`, of the cgroup or of the ancestor whose limit leaves the
///   least room (a limit on a parent slice binds too); PSI `some`/`full avg10` from `memory.pressure`; the
///   `high`, `max` and `oom` counters of `memory.events`.
/// - **cgroup v1** (`directory` such as `/sys/fs/cgroup/memory/app`): `memory.usage_in_bytes` minus
///   `total_inactive_file` (else `inactive_file`) from `memory.stat`, against the tighter of
///   `memory.limit_in_bytes` and `memory.stat`'s `hierarchical_memory_limit`; `memory.pressure` if the kernel
///   provides it; and `memory.pressure_level` `medium`/`critical` events, through eventfds registered on the
///   first ``read()`` (when that is not permitted, the reading's diagnostics say so on every reading).
/// - **`/proc/meminfo`**: `MemTotal − MemAvailable` against `MemTotal`, and PSI from `pressure/memory` in the same
///   directory (`/proc/pressure/memory`) when present.
///
/// When a cgroup has no limit (v2: no `memory.max` other than `max` up to the root cgroup; v1 limits of 2^62 and
/// more), the used/limit pair comes from `meminfoPath` instead, and the cgroup's other signals are still read. The
/// limit is looked at on every reading, so a limit set later is picked up.
///
/// A reading never fails: a missing or unreadable file, or a line that does not parse, is reported in
/// ``MemoryPressureReading/diagnostics`` and its signal is left out.
///
/// ## Thread safety and cost
/// A value type holding shared, lock-protected state (the detected location and the v1 eventfds), so copies read
/// the same cgroup and share its event registrations. ``read()`` may be called from any thread, concurrently, but
/// it **blocks** on file I/O (a handful of small kernel files, O(their size)): call it on ``BlockingExecutor``.
public struct MemoryPressureSource: Sendable, CustomStringConvertible {
    /// The location a source reads.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// A cgroup v2 directory, and the meminfo file used when it has no limit.
        case cgroupV2(directory: String, meminfoPath: String)
        /// A cgroup v1 memory-controller directory, and the meminfo file used when it has no limit.
        case cgroupV1(directory: String, meminfoPath: String)
        /// A `/proc/meminfo`-format file.
        case procMeminfo(path: String)

        /// `"cgroup v2 <directory>"`, `"cgroup v1 <directory>"` or `"meminfo <path>"`.
        public var description: String {
            switch self {
            case .cgroupV2(let directory, _): "cgroup v2 \(directory)"
            case .cgroupV1(let directory, _): "cgroup v1 \(directory)"
            case .procMeminfo(let path): "meminfo \(path)"
            }
        }
    }

    private enum Origin: Sendable {
        case fixed(Kind)
        case detect(root: String)
    }

    private let origin: Origin
    private let sharedState = SharedState()

    private init(_ origin: Origin) {
        self.origin = origin
    }

    /// Reads the cgroup v2 cgroup at `directory` (such as `/sys/fs/cgroup/app.slice`); falls back to `meminfoPath`
    /// for the usage ratio while the cgroup has no limit. Touches no file until ``read()``.
    public static func cgroupV2(directory: String, meminfoPath: String = "/proc/meminfo") -> MemoryPressureSource {
        MemoryPressureSource(.fixed(.cgroupV2(directory: directory, meminfoPath: meminfoPath)))
    }

    /// Reads the cgroup v1 memory cgroup at `directory` (such as `/sys/fs/cgroup/memory/app`); falls back to
    /// `meminfoPath` for the usage ratio while the cgroup has no limit. Touches no file until ``read()``, which
    /// registers for `memory.pressure_level` events the first time.
    public static func cgroupV1(directory: String, meminfoPath: String = "/proc/meminfo") -> MemoryPressureSource {
        MemoryPressureSource(.fixed(.cgroupV1(directory: directory, meminfoPath: meminfoPath)))
    }

    /// Reads a `/proc/meminfo`-format file: the whole machine's memory, for processes outside any limited cgroup.
    public static func procMeminfo(path: String = "/proc/meminfo") -> MemoryPressureSource {
        MemoryPressureSource(.fixed(.procMeminfo(path: path)))
    }

    /// The cgroup this process belongs to, found under `root` (a directory standing for `/`, for tests) on the
    /// first ``read()``, so creating the source does no I/O.
    ///
    /// Reads `<root>/proc/self/cgroup` and looks at the mount layout:
    /// 1. cgroup v2 when the file has a `0::/<path>` line, no v1 hierarchy carries the `memory` controller, and
    ///    `<root>/sys/fs/cgroup` is a cgroup v2 mount (it has `cgroup.controllers`): the directory is
    ///    `<root>/sys/fs/cgroup/<path>`, or `<root>/sys/fs/cgroup` itself when that does not exist (inside a
    ///    container, the cgroup is mounted as the root).
    /// 2. else cgroup v1 when a line's controllers include `memory` and `<root>/sys/fs/cgroup/memory` exists: the
    ///    directory is `<root>/sys/fs/cgroup/memory/<path>`, with the same fallback to `<root>/sys/fs/cgroup/memory`.
    ///    This covers hybrid systems, whose `0::/` line names a v2 hierarchy without the memory controller.
    /// 3. else `<root>/proc/meminfo`.
    ///
    /// Either cgroup kind falls back to `<root>/proc/meminfo` for the usage ratio while it has no limit.
    public static func detect(root: String = "/") -> MemoryPressureSource {
        MemoryPressureSource(.detect(root: root))
    }

    /// The location this source reads: fixed at creation, or for ``detect(root:)`` the location detected by the
    /// first ``read()`` (`nil` before). Takes a lock briefly; no I/O.
    public var kind: Kind? {
        switch origin {
        case .fixed(let kind): kind
        case .detect: sharedState.detected.withLock { $0?.kind }
        }
    }

    /// Reads every signal of this source now. Never fails: problems are in the reading's diagnostics.
    ///
    /// **Blocks** on file I/O (and, the first time for cgroup v1, on registering eventfds): call on
    /// ``BlockingExecutor``. Thread-safe; concurrent reads of a cgroup v1 source split the pressure-level events
    /// between them.
    public func read() -> MemoryPressureReading {
        let (kind, detectionProblems) = resolve()
        var reading: MemoryPressureReading
        switch kind {
        case .cgroupV2(let directory, let meminfoPath):
            reading = Self.readCgroupV2(directory: directory, meminfoPath: meminfoPath)
        case .cgroupV1(let directory, let meminfoPath):
            reading = Self.readCgroupV1(
                directory: directory, meminfoPath: meminfoPath,
                listener: listener(directory: directory))
        case .procMeminfo(let path):
            reading = Self.readMeminfo(path: path)
        }
        reading.diagnostics.insert(contentsOf: detectionProblems, at: 0)
        return reading
    }

    /// The location, as `"cgroup v2 /sys/fs/cgroup"`; for a detecting source `"detected under /: …"` or
    /// `"detect under / (not read yet)"`. Takes a lock briefly; no I/O.
    public var description: String {
        switch origin {
        case .fixed(let kind):
            return kind.description
        case .detect(let root):
            return kind.map { "detected under \(root): \($0)" } ?? "detect under \(root) (not read yet)"
        }
    }

    // MARK: Shared state

    /// The detected location, its problems, and the cgroup v1 event listener, shared by every copy of a source.
    private final class SharedState: Sendable {
        let detected = PlatformLock<(kind: Kind, problems: [String])?>(nil)
        let listener = PlatformLock<PressureLevelListener?>(nil)
    }

    /// The location to read, detecting it on first use. Detection runs outside the lock (it does I/O); if two
    /// readers race, the first to finish wins and both use its answer.
    private func resolve() -> (kind: Kind, problems: [String]) {
        switch origin {
        case .fixed(let kind):
            return (kind, [])
        case .detect(let root):
            if let detected = sharedState.detected.withLock({ $0 }) { return detected }
            let detected = Self.detectKind(root: root)
            return sharedState.detected.withLock { stored in
                if let stored { return stored }
                stored = detected
                return detected
            }
        }
    }

    /// The cgroup v1 event listener, registered on first use outside the lock; a listener that loses a race is
    /// released, which closes (and so unregisters) its eventfds.
    private func listener(directory: String) -> PressureLevelListener {
        if let existing = sharedState.listener.withLock({ $0 }) { return existing }
        let made = PressureLevelListener(directory: directory)
        return sharedState.listener.withLock { stored in
            if let stored { return stored }
            stored = made
            return made
        }
    }
}
