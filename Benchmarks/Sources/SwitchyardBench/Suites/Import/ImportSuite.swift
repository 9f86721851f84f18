import Foundation
import Switchyard
import SwitchyardPostgres
import SwitchyardSampleFeeds
import SwitchyardTransit
import Synchronization

/// `import`: GTFS feeds into SQLite through `GTFSImporter`, against `sqlite3 .import` in the same run; and into
/// PostgreSQL against `psql \copy` (see `ImportSuite+Postgres.swift`).
///
/// Goals (issue: import): stop_times from the zip ≥ 1 M rows/s and ≥ 0.9× `sqlite3 .import` of the same rows;
/// peak resident memory ≤ 64 MB for feeds of 1 M and 10 M stop_times, not growing with the feed; a VBB-sized
/// sample feed end to end (load, indexes, checks) in < 15 s. Also a batch-size sweep, which chose
/// ``ImportOptions/defaultBatchSize``.
struct ImportSuite: BenchmarkSuite {
    let name = "import"
    let summary =
        "GTFS zip → SQLite and PostgreSQL: 5 M stop_times vs sqlite3 .import and psql \\copy, batch sizes, peak memory, VBB end to end"

    func run(runner: Runner, report: Report) {
        let folder = NSTemporaryDirectory() + "switchyard-bench-import-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            try throughput(folder, runner, report)
            try batchSizes(folder, runner, report)
            try memory(folder, runner, report)
            try endToEnd(folder, runner, report)
        } catch {
            report.note("import suite failed: \(error)")
        }
    }

    // MARK: Throughput against sqlite3 .import

    private func throughput(_ folder: String, _ runner: Runner, _ report: Report) throws {
        let rows = Int(5_000_000 * runner.scale)
        let zip = folder + "/feed-5m.zip"
        let statistics = try SampleFeedFiles.write(.stopTimes(rows), to: zip)
        let stopTimesRows = statistics.records["stop_times.txt"] ?? 0
        // The same stop_times as a plain CSV file for sqlite3 (extracted from the zip, so identical bytes).
        let csv = folder + "/stop_times.txt"
        try extract("stop_times.txt", from: zip, to: csv)
        guard let sqlite3 = Self.sqlite3 else {
            report.note("sqlite3 not found (install the sqlite3 package): the anchor is skipped")
            return
        }
        // Both files were just written, so both are read from the page cache.
        let repetitions = runner.scale < 1 ? 1 : 3
        report.note(
            "import: \(stopTimesRows) stop_times rows (\(statistics.bytes >> 20) MiB of CSV), median of \(repetitions)")

        var anchorSeconds: [Double] = []
        var oursStopTimes: [Double] = []
        var oursWhole: [Double] = []
        var totalRows = 0
        for repetition in 0..<repetitions {
            let anchorDatabase = folder + "/anchor-\(repetition).sqlite"
            let started = Clockwork.now()
            _ = ChildProcess.output(
                sqlite3, arguments: [anchorDatabase, "-cmd", ".mode csv", ".import \(csv) stop_times"])
            anchorSeconds.append(Double(Clockwork.now() - started) / 1e9)
            let anchorRows =
                Int(ChildProcess.output(sqlite3, arguments: [anchorDatabase, "SELECT count(*) FROM stop_times"]) ?? "")
                ?? -1
            if anchorRows != stopTimesRows {
                report.note("sqlite3 .import: \(anchorRows) rows, expected \(stopTimesRows)")
            }
            removeDatabase(anchorDatabase)

            let database = folder + "/ours-\(repetition).sqlite"
            let (summary, stopTimesSeconds, seconds) = try Self.importFeed(zip, database: database)
            oursStopTimes.append(stopTimesSeconds)
            oursWhole.append(seconds)
            totalRows = summary.files.reduce(0) { $0 + $1.imported }
            if summary.files.first(where: { $0.name == "stop_times.txt" })?.imported != stopTimesRows {
                report.note("import: WRONG stop_times row count")
            }
            removeDatabase(database)
        }
        let anchor = median(anchorSeconds) * 1e9 / Double(stopTimesRows)
        let ours = median(oursStopTimes) * 1e9 / Double(stopTimesRows)
        record(
            report, "load/sqlite3 .import stop_times.txt (anchor)", nanoseconds: anchor, samples: anchorSeconds,
            items: stopTimesRows)
        record(
            report, "load/stop_times from the zip (GTFSImporter)", nanoseconds: ours, samples: oursStopTimes,
            items: stopTimesRows, anchor: ("sqlite3 .import", anchor),
            goal: ">= 1 M rows/s and >= 0.9x sqlite3 .import", met: 1e9 / ours >= 1e6 && ours <= anchor / 0.9)
        record(
            report, "load/whole feed, load + indexes + checks (\(totalRows) rows)",
            nanoseconds: median(oursWhole) * 1e9 / Double(totalRows), samples: oursWhole, items: totalRows)
        try postgresThroughput(
            zip: zip, csv: csv, rows: stopTimesRows, repetitions: repetitions, runner, report)
    }

    // MARK: Batch sizes

    private func batchSizes(_ folder: String, _ runner: Runner, _ report: Report) throws {
        let zip = folder + "/feed-1m.zip"
        let statistics = try SampleFeedFiles.write(.stopTimes(Int(1_000_000 * runner.scale)), to: zip)
        let rows = statistics.records["stop_times.txt"] ?? 0
        let repetitions = runner.scale < 1 ? 1 : 3
        report.note("batch sizes: \(rows) stop_times rows, median of \(repetitions) imports each")
        for batchSize in [1_000, 5_000, 20_000, 100_000] {
            let database = folder + "/batch-\(batchSize).sqlite"
            var samples: [Double] = []
            for _ in 0..<repetitions {
                samples.append(try Self.importFeed(zip, database: database, batchSize: batchSize).1)
                removeDatabase(database)
            }
            let seconds = median(samples)
            var measurement = Measurement(
                suite: name,
                name: "batch/size \(batchSize)\(batchSize == ImportOptions.defaultBatchSize ? " (default)" : "")",
                nanosecondsPerOperation: seconds * 1e9 / Double(rows))
            measurement.extra = [("million_per_s", Double(rows) / seconds / 1e6)]
            report.record(measurement)
        }
    }

    // MARK: Peak memory

    private func memory(_ folder: String, _ runner: Runner, _ report: Report) throws {
        var peaks: [Int] = []
        for fullRows in [1_000_000, 10_000_000] {
            let rows = Int(Double(fullRows) * runner.scale)
            let zip = folder + "/memory-\(rows).zip"
            try SampleFeedFiles.write(.stopTimes(rows), to: zip)
            let peak = ChildProcess.probe("import:\(zip)").map { Int($0) } ?? -1
            try? FileManager.default.removeItem(atPath: zip)
            peaks.append(peak)
            var measurement = Measurement(
                suite: name, name: "memory/peak resident, \(Self.rowCount(rows)) stop_times (bytes)",
                nanosecondsPerOperation: Double(peak))
            measurement.peakMemoryBytes = peak
            let bounded = peak > 0 && peak <= 64 << 20
            if runner.scale >= 1 {
                let flat = peaks.count < 2 || Double(peaks[1]) <= Double(peaks[0]) * 1.25
                measurement.goal = ("<= 64 MB, not growing with the feed", bounded && flat)
            } else {
                // Below a million rows the fixed costs (the runtime, SQLite's page cache, the buffers) make most of
                // the peak, so comparing two small feeds says nothing about growth: that is judged at full size.
                measurement.goal = ("<= 64 MB (growth is judged at full size)", bounded)
            }
            report.record(measurement)
        }
        report.note(
            "memory rows report bytes in the ns/op column (peak resident set of a child process importing the zip)")
    }

    /// `rows` for a case name: "1 M", "10 M", or "100k" for the smaller feeds of a quick run.
    private static func rowCount(_ rows: Int) -> String {
        rows >= 1_000_000 && rows % 1_000_000 == 0 ? "\(rows / 1_000_000) M" : "\(rows / 1_000)k"
    }

    /// Runs in the child process: imports `zip` and prints the peak resident set size.
    static func probe(zip: String) {
        let database = zip + ".probe.sqlite"
        _ = try? importFeed(zip, database: database)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
        print(PeakMemory.peakBytes() ?? -1)
    }

    // MARK: VBB end to end

    private func endToEnd(_ folder: String, _ runner: Runner, _ report: Report) throws {
        let profile: SampleFeedProfile = runner.scale < 1 ? .small : .vbb
        let feed = folder + "/\(profile.name)"
        let generated = Clockwork.now()
        let statistics = try SampleFeedFiles.write(profile, to: feed)
        let generation = Double(Clockwork.now() - generated) / 1e9
        let (summary, _, seconds) = try Self.importFeed(feed, database: folder + "/\(profile.name).sqlite")
        let rows = summary.files.reduce(0) { $0 + $1.imported }
        report.note(
            "\(profile.name) sample: \(statistics.records["stop_times.txt"] ?? 0) stop_times, \(rows) rows in all, generated in \(formatted(generation, decimals: 1)) s"
        )
        var measurement = Measurement(
            suite: name, name: "vbb/\(profile.name) sample feed end to end (s)", nanosecondsPerOperation: seconds * 1e9)
        measurement.extra = [("seconds", seconds), ("rows", Double(rows))]
        if profile == .vbb { measurement.goal = ("< 15 s", seconds < 15 && summary.isComplete) }
        report.record(measurement)
        report.note("the end-to-end rows report the whole import's time in the ns/op column")
        postgresEndToEnd(feed: feed, profile: profile, report)
    }

    // MARK: Helpers

    /// Imports `path` into a fresh `database`; returns the summary, the seconds stop_times took (from its first
    /// read to its last commit) and the seconds of the whole run.
    static func importFeed(
        _ path: String, database: String = "", postgres: PostgresURL? = nil,
        batchSize: Int = ImportOptions.defaultBatchSize
    ) throws -> (ImportSummary, Double, Double) {
        try blockingWait {
            let options = ImportOptions(mode: .replace, batchSize: batchSize)
            let feed = try GTFSFeed.open(path)
            let importer =
                if let postgres {
                    GTFSImporter(feed: feed, postgres: postgres, options: options)
                } else {
                    GTFSImporter(feed: feed, database: database, options: options)
                }
            let watcher = Task {
                var seconds = 0.0
                for await progress in importer.progressUpdates(interval: .milliseconds(20), minimumChange: 0) {
                    if let file = progress.files.first(where: { $0.name == "stop_times.txt" }), file.isComplete {
                        if seconds == 0 { seconds = file.secondsThisRun }
                    }
                }
                return seconds
            }
            let started = Clockwork.now()
            let summary = try await importer.run()
            let whole = Double(Clockwork.now() - started) / 1e9
            let stopTimes = await watcher.value
            return (summary, stopTimes > 0 ? stopTimes : whole, whole)
        }
    }

    private static var sqlite3: String? {
        ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    private func extract(_ entry: String, from zip: String, to path: String) throws {
        let archive = try ZipArchive(path: zip)
        guard let found = archive.entries.first(where: { $0.path.hasSuffix(entry) }) else { return }
        let reader = try archive.openEntry(found)
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { break }
            handle.write(Data(buffer[..<count]))
        }
    }

    private func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    func record(
        _ report: Report, _ name: String, nanoseconds: Double, samples: [Double], items: Int,
        anchor: (String, Double)? = nil, goal: String? = nil, met: Bool = true
    ) {
        var measurement = Measurement(suite: self.name, name: name, nanosecondsPerOperation: nanoseconds)
        let sorted = samples.sorted()
        measurement.range = (sorted.first! * 1e9 / Double(items), sorted.last! * 1e9 / Double(items))
        measurement.anchor = anchor
        measurement.extra = [("million_per_s", 1e3 / nanoseconds)]
        if let goal { measurement.goal = (goal, met) }
        report.record(measurement)
    }
}

/// Runs an async body from the benchmark's main thread (not a cooperative thread) and waits for it.
private func blockingWait<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) throws -> Result {
    let done = DispatchSemaphore(value: 0)
    let box = ResultSlot<Result>()
    Task.detached {
        do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
        done.signal()
    }
    done.wait()
    return try box.get()
}

/// A result handed from the task to the waiting thread; the semaphore orders the write before the read.
private final class ResultSlot<Value: Sendable>: Sendable {
    private let value = Mutex<Result<Value, any Error>?>(nil)
    func set(_ result: Result<Value, any Error>) { value.withLock { $0 = result } }
    func get() throws -> Value { try value.withLock { $0! }.get() }
}
