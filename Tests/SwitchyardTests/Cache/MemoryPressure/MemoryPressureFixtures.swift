import Foundation

@testable import Switchyard

/// A directory tree in a fresh temporary directory, removed when the value is released. Tests write fake cgroup and
/// `/proc` files into it, so nothing depends on the real machine.
final class FakeFileTree: Sendable {
    /// The absolute path of the tree's root.
    let root: String

    init() throws {
        root =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("switchyard-memory-pressure-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The absolute path of `relative` inside the tree.
    func path(_ relative: String) -> String {
        KernelFile.join(root, relative)
    }

    /// Writes `contents` to `relative`, creating the directories on the way.
    func write(_ relative: String, _ contents: String) throws {
        let file = path(relative)
        let directory = (file as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try contents.write(toFile: file, atomically: true, encoding: .utf8)
    }

    /// Creates the directory `relative` (and its parents).
    func makeDirectory(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: path(relative), withIntermediateDirectories: true)
    }

    /// The text of the file at `relative`.
    func contents(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }

    // MARK: Fixtures

    /// Writes a cgroup v2 directory at `directory`: `memory.current`, `memory.max`, `memory.stat`, and PSI and
    /// events unless `nil`.
    func writeCgroupV2(
        at directory: String = "",
        current: UInt64,
        max: String,
        inactiveFile: UInt64 = 0,
        pressure: String? = "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"
            + "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
        events: String? = "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n"
    ) throws {
        try write(directory + "/memory.current", "\(current)\n")
        try write(directory + "/memory.max", max + "\n")
        try write(directory + "/memory.stat", "anon 100\nfile 200\nactive_file 50\ninactive_file \(inactiveFile)\n")
        if let pressure { try write(directory + "/memory.pressure", pressure) }
        if let events { try write(directory + "/memory.events", events) }
    }

    /// Writes a cgroup v1 memory directory at `directory`: `memory.usage_in_bytes`, `memory.limit_in_bytes` and
    /// `memory.stat`; no `memory.pressure_level`, so events cannot be registered.
    func writeCgroupV1(
        at directory: String, usage: UInt64, limit: UInt64, totalInactiveFile: UInt64 = 0,
        hierarchicalLimit: UInt64 = 9_223_372_036_854_771_712
    ) throws {
        try write(directory + "/memory.usage_in_bytes", "\(usage)\n")
        try write(directory + "/memory.limit_in_bytes", "\(limit)\n")
        try write(
            directory + "/memory.stat",
            """
            cache 9216000
            rss 4046848
            inactive_file 12288
            hierarchical_memory_limit \(hierarchicalLimit)
            total_inactive_file \(totalInactiveFile)

            """)
    }

    /// Writes a `/proc/meminfo`-format file at `relative`.
    func writeMeminfo(at relative: String = "proc/meminfo", totalKB: UInt64, availableKB: UInt64) throws {
        try write(
            relative,
            """
            MemTotal:       \(totalKB) kB
            MemFree:        1000 kB
            MemAvailable:   \(availableKB) kB
            HugePages_Total:       0

            """)
    }
}

/// A responder that records every level it is told, and optionally runs an action when told.
final class RecordingResponder: MemoryPressureResponder {
    let name: String
    private let log: TestMutex<[MemoryPressureLevel]> = TestMutex([])
    private let sharedLog: ResponderLog?

    init(_ name: String = "responder", sharedLog: ResponderLog? = nil) {
        self.name = name
        self.sharedLog = sharedLog
    }

    func respond(to level: MemoryPressureLevel) {
        log.withLock { $0.append(level) }
        sharedLog?.record(name, level)
    }

    /// Every level told so far, in order.
    var levels: [MemoryPressureLevel] { log.withLock { $0 } }
}

/// The calls to several responders, in the order they happened.
final class ResponderLog: Sendable {
    private let entries: TestMutex<[String]> = TestMutex([])

    func record(_ name: String, _ level: MemoryPressureLevel) {
        entries.withLock { $0.append("\(name): \(level)") }
    }

    var calls: [String] { entries.withLock { $0 } }
}
