import Foundation
import SwitchyardWatch
import SystemPackage

extension WatchSuite {
    // MARK: Write-to-event latency

    /// Writes at the start of each round that are not counted.
    static let latencyWarmups = 20

    /// Writes to one file of `tree`, one at a time, each timed from just before the write until it is reported: by
    /// a `FileWatcher` of the whole tree (quiet window zero: a batch per read of the kernel's queue), and by
    /// `inotifywait -m -e modify` on the file's directory (its line read from its standard output). The two
    /// alternate round by round, each round a fresh watcher or process.
    func latency(_ tree: WatchTree, tools: WatchTools, quick: Bool, report: Report) {
        let writes = quick ? 1_000 : 10_000
        let rounds = quick ? 2 : 5
        let descriptor = open(tree.sampleFile, O_WRONLY)
        guard descriptor >= 0 else {
            report.note("watch: latency: cannot open \(tree.sampleFile): errno \(errno); no latency rows")
            return
        }
        defer { close(descriptor) }
        var samples: [LatencyKey: [Double]] = [:]
        var problems: [String] = []
        for pinned in [true, false] {
            if pinned { ThreadAffinity.pinProcess(toCPU: 0) }
            defer { if pinned { ThreadAffinity.unpinProcess() } }
            for _ in 0..<rounds {
                do {
                    if let inotifywait = tools.inotifywait {
                        samples[LatencyKey(tool: .inotifywait, pinned: pinned), default: []] +=
                            try Self
                            .inotifywaitLatencies(
                                inotifywait, directory: tree.sampleDirectory, descriptor: descriptor,
                                writes: writes / rounds)
                    }
                    samples[LatencyKey(tool: .handler, pinned: pinned), default: []] += try Self.handlerLatencies(
                        root: tree.root, file: tree.sampleFile, descriptor: descriptor, writes: writes / rounds)
                    samples[LatencyKey(tool: .sequence, pinned: pinned), default: []] +=
                        try Self
                        .fileWatcherLatencies(
                            root: tree.root, file: tree.sampleFile, descriptor: descriptor, writes: writes / rounds)
                } catch {
                    problems.append("\(error)")
                }
                Self.settle()
            }
        }
        for problem in Set(problems).sorted() { report.note("watch: latency: " + problem) }
        recordLatency(samples.mapValues { $0.sorted() }, complete: problems.isEmpty, report: report)
    }

    /// Which measurement of the latency rows.
    struct LatencyKey: Hashable {
        enum Tool { case inotifywait, handler, sequence }
        var tool: Tool
        /// Measured with every thread of the process (and so inotifywait, its child) on one CPU.
        var pinned: Bool
    }

    private func recordLatency(_ samples: [LatencyKey: [Double]], complete: Bool, report: Report) {
        func p99(_ tool: LatencyKey.Tool, pinned: Bool) -> Double? {
            samples[LatencyKey(tool: tool, pinned: pinned)].flatMap { $0.isEmpty ? nil : WatchClock.quantile($0, 0.99) }
        }
        func row(_ tool: LatencyKey.Tool, _ name: String) -> Measurement? {
            guard let sorted = samples[LatencyKey(tool: tool, pinned: true)], !sorted.isEmpty else { return nil }
            var row = Measurement(
                suite: self.name, name: name, nanosecondsPerOperation: WatchClock.quantile(sorted, 0.99))
            row.extra = [
                ("p50_us", WatchClock.quantile(sorted, 0.5) / 1e3), ("p99_us", WatchClock.quantile(sorted, 0.99) / 1e3),
                ("max_us", sorted.last! / 1e3), ("writes", Double(sorted.count)),
            ]
            if let unpinned = p99(tool, pinned: false) { row.extra.append(("unpinned_p99_us", unpinned / 1e3)) }
            return row
        }
        let anchorP99 = p99(.inotifywait, pinned: true)
        if let anchor = row(.inotifywait, "latency/inotifywait -m -e modify, write to line p99 (anchor)") {
            report.record(anchor)
        }
        if var ours = row(.handler, "latency/FileWatcher onBatch, write to wake-up p99") {
            if let anchorP99 { ours.anchor = ("inotifywait", anchorP99) }
            ours.goal = (
                "p99 <= 2x inotifywait's p99",
                anchorP99.map { ours.nanosecondsPerOperation <= 2 * $0 } == true && complete
            )
            report.record(ours)
        }
        if var sequence = row(.sequence, "latency/FileWatcher as AsyncSequence, write to batch p99") {
            if let anchorP99 { sequence.anchor = ("inotifywait", anchorP99) }
            report.record(sequence)
        }
        report.note(
            "latency: ns/op = the p99 from just before a pwrite of 8 bytes until the writing thread learns of it, "
                + "quiet window zero, a FileWatcher of the whole tree: onBatch (on the watcher's thread) signals a "
                + "semaphore the writing thread waits on; as AsyncSequence, the writing task awaits the batch (a hop "
                + "through Swift's global executor); inotifywait: its line, read on the writing thread. Measured with "
                + "the process and inotifywait on one CPU (a wake-up across this VM's CPUs adds 10-40 us that neither "
                + "program controls; inotifywait's pipe wake-up keeps it beside the writer); unpinned_p99_us: the "
                + "same, unpinned. The first \(Self.latencyWarmups) writes of each round not counted")
    }

    /// One write of the latency rows: the 8 bytes of `index` at offset 0 (the file keeps its size; its contents and
    /// modification time change, and the kernel reports IN_MODIFY).
    static func writeSample(_ descriptor: Int32, _ index: Int) -> Bool {
        var value = index
        return withUnsafeBytes(of: &value) { pwrite(descriptor, $0.baseAddress, $0.count, 0) } == 8
    }

    /// One round of the anchor: `inotifywait -m -e modify --format %w%f DIRECTORY`; after each write, its next line
    /// is read from its standard output. Nanoseconds per write.
    static func inotifywaitLatencies(
        _ executable: String, directory: String, descriptor: Int32, writes: Int
    ) throws -> [Double] {
        guard
            let child = WatchProcess(
                executable, ["-m", "-e", "modify", "--format", "%w%f", directory], output: .pipe, errors: .pipe)
        else { throw WatchBenchError("did not start") }
        defer { child.stop() }
        guard child.errors?.waitForLine(containing: "Watches established.", within: 30) == true,
            let output = child.output
        else { throw WatchBenchError("did not print \"Watches established.\" within 30 s") }
        var latencies: [Double] = []
        latencies.reserveCapacity(writes)
        for index in 0..<(latencyWarmups + writes) {
            let start = Clockwork.now()
            guard writeSample(descriptor, index) else { throw WatchBenchError("pwrite failed: errno \(errno)") }
            guard output.nextLine(within: 10) != nil else {
                throw WatchBenchError("no line for write \(index) within 10 s")
            }
            if index >= latencyWarmups { latencies.append(Double(Clockwork.now() - start)) }
        }
        return latencies
    }

    /// One round of ours with a handler: a `FileWatcher` of `root` (quiet window zero) whose `onBatch`, on the
    /// watcher's thread, signals a semaphore when a batch holds `modified(file)`; the writing thread waits on it
    /// after each write. Nanoseconds per write.
    static func handlerLatencies(root: String, file: String, descriptor: Int32, writes: Int) throws -> [Double] {
        let target = FilePath(file)
        let seen = DispatchSemaphore(value: 0)
        let watcher = try blockingRun { () async throws -> FileWatcher in
            try await FileWatcher(FilePath(root), options: .init(quietWindow: .zero)) { batch in
                if batch.contains(.modified(target)) { seen.signal() }
            }
        }
        defer { watcher.stop() }
        var latencies: [Double] = []
        latencies.reserveCapacity(writes)
        for index in 0..<(latencyWarmups + writes) {
            let start = Clockwork.now()
            guard writeSample(descriptor, index) else { throw WatchBenchError("pwrite failed: errno \(errno)") }
            guard seen.wait(timeout: .now() + 10) == .success else {
                throw WatchBenchError("no event for write \(index) within 10 s")
            }
            if index >= latencyWarmups { latencies.append(Double(Clockwork.now() - start)) }
        }
        return latencies
    }

    /// One round of ours: a `FileWatcher` of `root` (quiet window zero); after each write, batches are awaited until
    /// one holds `modified(file)`. Nanoseconds per write. A round that stalls is ended by a watchdog.
    static func fileWatcherLatencies(root: String, file: String, descriptor: Int32, writes: Int) throws -> [Double] {
        try blockingRun { () async throws -> [Double] in
            let watcher = try await FileWatcher(FilePath(root), options: .init(quietWindow: .zero))
            defer { watcher.stop() }
            let watchdog = Task {
                do {
                    try await Task.sleep(for: .seconds(30 + writes / 100))
                    watcher.stop()
                } catch {}
            }
            defer { watchdog.cancel() }
            let target = FilePath(file)
            let warmups = WatchSuite.latencyWarmups
            var iterator = watcher.makeAsyncIterator()
            var latencies: [Double] = []
            latencies.reserveCapacity(writes)
            for index in 0..<(warmups + writes) {
                let start = Clockwork.now()
                guard WatchSuite.writeSample(descriptor, index) else {
                    throw WatchBenchError("pwrite failed: errno \(errno)")
                }
                while true {
                    guard let batch = try await iterator.next() else {
                        throw WatchBenchError("no event for write \(index): the watch ended (or stalled)")
                    }
                    if batch.contains(.modified(target)) { break }
                }
                if index >= warmups { latencies.append(Double(Clockwork.now() - start)) }
            }
            return latencies
        }
    }
}
