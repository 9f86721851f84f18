import Foundation
import SwitchyardWatch
import Synchronization
import SystemPackage

/// How the burst row's watching process consumes while the files are made.
enum WatchBurstMode: String, Sendable, CaseIterable {
    /// The consumer iterates throughout.
    case live
    /// The consumer does not iterate until the burst has ended (the watcher's thread still reads the kernel's queue
    /// and merges what it reads).
    case paused
    /// The whole watching process is stopped (SIGSTOP) during the burst, so that nothing reads the kernel's queue
    /// and it overflows: the watcher must rescan.
    case stopped
}

/// The files of a burst: `ROOT/sK/fJ` for K below `directories` and J below `perDirectory`.
struct WatchBurstPlan: Sendable {
    let root: String
    let directories: Int
    let perDirectory: Int

    var files: Int { directories * perDirectory }

    func directory(_ index: Int) -> String { root + "/s\(index)" }

    /// The index of `path` among the burst's files (K × perDirectory + J), or nil for any other path.
    func index(of path: FilePath) -> Int? {
        let text = path.string
        let prefix = root + "/s"
        guard text.hasPrefix(prefix) else { return nil }
        let rest = text.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/"), let directory = Int(rest[..<slash]) else { return nil }
        let name = rest[rest.index(after: slash)...]
        guard name.first == "f", let file = Int(name.dropFirst()) else { return nil }
        guard directory >= 0, directory < directories, file >= 0, file < perDirectory else { return nil }
        return directory * perDirectory + file
    }
}

/// What the probe reports when it is done, as one line: `done FOUND RESCANS LIMITS BATCHES DONE_AT PEAK BASELINE`.
struct WatchBurstReport: Sendable {
    /// Distinct burst files reported (created, modified, or the target of a rename).
    var found = 0
    /// `rescanNeeded` events.
    var rescans = 0
    /// `watchLimitReached` events.
    var limitReports = 0
    var batches = 0
    /// `CLOCK_MONOTONIC` when the last file was reported; 0 if not every file was.
    var doneAt: UInt64 = 0
    /// The process's peak resident set while it watched (`VmHWM` after a reset to the start), in bytes.
    var peakBytes = 0
    /// Its resident set just before the watcher started, in bytes.
    var baselineBytes = 0

    init() {}

    var line: String {
        "done \(found) \(rescans) \(limitReports) \(batches) \(doneAt) \(peakBytes) \(baselineBytes)"
    }

    init?(parsing line: String) {
        let fields = line.split(separator: " ")
        guard fields.count == 8, fields[0] == "done" else { return nil }
        let numbers = fields.dropFirst().compactMap { UInt64($0) }
        guard numbers.count == 7 else { return nil }
        found = Int(numbers[0])
        rescans = Int(numbers[1])
        limitReports = Int(numbers[2])
        batches = Int(numbers[3])
        doneAt = numbers[4]
        peakBytes = Int(numbers[5])
        baselineBytes = Int(numbers[6])
    }
}

/// The burst row's watching process: `SWITCHYARD_BENCH_PROBE=watch-burst:MODE:DIRECTORIES:PER_DIRECTORY:ROOT`.
///
/// Starts a `FileWatcher` of ROOT (default options), prints `ready`, and consumes batches (in mode `paused`, from
/// the line `go` on its standard input) until every file of the plan was reported, or 60 s after the line `end`;
/// then prints a ``WatchBurstReport`` line and exits. Its memory is this process's alone: the files are made by
/// the parent.
enum WatchBurstProbe {
    /// How long the probe keeps consuming after the parent's `end`.
    static let timeoutSeconds: UInt64 = 60

    static func run(_ specification: String) -> Never {
        let parts = specification.split(separator: ":", maxSplits: 3).map(String.init)
        guard parts.count == 4, let mode = WatchBurstMode(rawValue: parts[0]), let directories = Int(parts[1]),
            let perDirectory = Int(parts[2]), directories > 0, perDirectory > 0
        else {
            emit("failed: watch-burst:MODE:DIRECTORIES:PER_DIRECTORY:ROOT")
            exit(1)
        }
        let plan = WatchBurstPlan(root: parts[3], directories: directories, perDirectory: perDirectory)
        let control = WatchBurstControl()
        control.startReading()
        PeakMemory.resetPeak()
        let baseline = PeakMemory.currentBytes() ?? 0
        do {
            var report = try blockingRun { try await WatchBurstProbe.consume(plan, mode: mode, control: control) }
            report.peakBytes = PeakMemory.peakBytes() ?? 0
            report.baselineBytes = baseline
            emit(report.line)
            exit(0)
        } catch {
            emit("failed: \(error)")
            exit(1)
        }
    }

    /// Watches the plan's root and counts the files reported, until all were or the time is up.
    static func consume(
        _ plan: WatchBurstPlan, mode: WatchBurstMode, control: WatchBurstControl
    ) async throws -> WatchBurstReport {
        let watcher = try await FileWatcher(FilePath(plan.root))
        emit("ready")
        let startedAt = WatchClock.monotonic()
        let watchdog = Task {
            while !Task.isCancelled {
                if control.expired(startedAt: startedAt) {
                    watcher.stop()
                    return
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { watchdog.cancel() }
        if mode == .paused {
            while !control.go.load(ordering: .acquiring) && !control.expired(startedAt: startedAt) {
                try await Task.sleep(for: .milliseconds(1))
            }
        }
        var seen = [Bool](repeating: false, count: plan.files)
        var report = WatchBurstReport()
        for try await batch in watcher {
            report.batches += 1
            for event in batch {
                switch event {
                case .created(let path), .modified(let path), .renamed(_, let path):
                    if let index = plan.index(of: path), !seen[index] {
                        seen[index] = true
                        report.found += 1
                    }
                case .rescanNeeded: report.rescans += 1
                case .watchLimitReached: report.limitReports += 1
                default: break
                }
            }
            if report.found == plan.files {
                report.doneAt = WatchClock.monotonic()
                break
            }
        }
        watcher.stop()
        return report
    }

    /// Writes `text` and a newline to standard output at once (`print` would buffer it in a pipe).
    static func emit(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// The parent's lines to the probe, read on a thread of their own: `go` (start consuming) and `end` (the burst is
/// over: the 60 s start).
final class WatchBurstControl: Sendable {
    let go = Atomic<Bool>(false)
    /// `CLOCK_MONOTONIC` when `end` arrived; 0 before.
    let endedAt = Atomic<UInt64>(0)

    func startReading() {
        let thread = Thread { [self] in
            while let line = readLine() {
                if line == "go" || line == "end" { go.store(true, ordering: .releasing) }
                if line == "end" { endedAt.store(WatchClock.monotonic(), ordering: .releasing) }
            }
        }
        thread.start()
    }

    /// Whether the probe should stop waiting: 60 s after `end`, or 10 minutes after `startedAt` if `end` never came.
    func expired(startedAt: UInt64) -> Bool {
        let now = WatchClock.monotonic()
        let ended = endedAt.load(ordering: .acquiring)
        if ended > 0 { return now > ended + WatchBurstProbe.timeoutSeconds * 1_000_000_000 }
        return now > startedAt + 600 * 1_000_000_000
    }
}
