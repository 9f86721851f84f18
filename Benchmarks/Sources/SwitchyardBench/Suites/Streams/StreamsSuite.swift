import Foundation
import Switchyard
import Synchronization

/// `streams`: lines and CSV records from large generated files, against `wc -l`, `readLine()`, whole-file
/// splitting, SwiftCSV and CSV.swift, in the same run.
///
/// Goals (issue: streams): zero-copy lines ≥ 40 M lines/s, the `String`/`Substring` tier ≥ 18 M lines/s (checked
/// on both line shapes with `forEachSubstring`; `String` per line is reported beside it), resident memory growth
/// ≤ 1 MB while streaming; `switchyard lines` within 2× `wc -l`'s time; CSV records/s faster than both CSV packages,
/// in fixed memory. Times are the median of
/// the repetitions, files are read from the page cache (each is read once before timing).
struct StreamsSuite: BenchmarkSuite {
    let name = "streams"
    let summary = "lines and CSV records from 1 GiB / 5 M-row files vs wc -l, readLine, split, SwiftCSV, CSV.swift"

    func run(runner: Runner, report: Report) {
        do {
            let files = try StreamFiles()
            defer { files.remove() }
            try lines(files, runner, report)
            try counting(files, runner, report)
            try csv(files, runner, report)
        } catch {
            report.note("streams suite failed: \(error)")
        }
    }

    // MARK: Lines

    /// Two shapes: 1 GiB of short lines (0–20 bytes, 10 on average: the most lines per byte, the shape behind the
    /// issue's reference numbers, where `wc -l` reaches 100+ M lines/s), with every anchor and the goals; and
    /// 256 MiB of longer lines (0–62 bytes, 31 on average: CSV-like rows, one heap-allocated `String` each),
    /// reported for comparison.
    private func lines(_ files: StreamFiles, _ runner: Runner, _ report: Report) throws {
        let size = Int(Double(1 << 30) * runner.scale)
        let (path, count) = try files.lines(bytes: size, longest: 20, name: "short-lines.txt")
        let repetitions = runner.scale < 1 ? 1 : 3
        report.note("lines: \(size >> 20) MiB, \(count) lines of 0-20 bytes; median of \(repetitions)")
        _ = LineAnchors.wc(path)  // into the page cache

        let input = ByteInput.file(path)
        let wc = time(repetitions, expect: count) { LineAnchors.wc(path) ?? -1 }
        let zeroCopy = time(repetitions, expect: count) { Self.zeroCopy(input) }
        let strings = time(repetitions, expect: count) { Self.strings(input) }
        let substrings = time(repetitions, expect: count) { Self.substrings(input) }
        let asyncZeroCopy = time(repetitions, expect: count) {
            Self.blockingWait { (try? await Lines(input, options: Self.lineOptions).forEachLine { _ in })?.lines ?? -1 }
        }
        let asyncStrings = time(repetitions, expect: count) { Self.asyncStrings(input) }
        let readLine = time(repetitions, expect: count) { LineAnchors.readLines(path) }
        // Whole-file splitting holds the file twice: measured on a 128 MiB file (scaled), rate per line.
        let splitBytes = min(size, Int(Double(128 << 20) * runner.scale))
        let (splitPath, splitCount) = try files.lines(bytes: splitBytes, longest: 20, name: "split.txt")
        let split = time(repetitions, expect: splitCount) { LineAnchors.wholeFileSplit(splitPath) }

        let anchor = ("wc -l", wc.perItem)
        record(report, "lines/wc -l (subprocess)", wc)
        record(
            report, "lines/zero-copy forEachLine", zeroCopy, anchor: anchor,
            goal: ">= 40 M lines/s", met: zeroCopy.perSecond >= 40e6)
        record(
            report, "lines/Substring per line (forEachSubstring)", substrings, anchor: anchor,
            goal: ">= 18 M lines/s", met: substrings.perSecond >= 18e6)
        record(report, "lines/String per line (forEachLine + string())", strings, anchor: anchor)
        record(report, "lines/zero-copy async forEachLine", asyncZeroCopy, anchor: anchor)
        record(report, "lines/String per line (for try await)", asyncStrings, anchor: anchor)
        record(report, "lines/readLine() (anchor)", readLine, anchor: anchor)
        record(
            report, "lines/whole file + split (anchor, \(splitBytes >> 20) MiB)", split, anchor: anchor,
            peak: Self.probe("split", path: splitPath))

        for tier in ["zero-copy", "substring", "string", "async-string"] {
            guard let growth = Self.probe("lines-\(tier)", path: path) else {
                report.note("memory probe for \(tier) failed")
                continue
            }
            var measurement = Measurement(
                suite: name, name: "lines/memory growth, \(tier) (bytes)",
                nanosecondsPerOperation: Double(growth))
            measurement.peakMemoryBytes = growth
            measurement.goal = ("<= 1 MB resident growth", growth <= 1_000_000)
            report.record(measurement)
        }
        report.note("memory rows report bytes in the ns/op column (peak resident growth while streaming the file)")

        let longSize = Int(Double(256 << 20) * runner.scale)
        let (longPath, longCount) = try files.lines(bytes: longSize, longest: 62, name: "long-lines.txt")
        report.note("lines: \(longSize >> 20) MiB, \(longCount) lines of 0-62 bytes; median of \(repetitions)")
        _ = LineAnchors.wc(longPath)
        let longInput = ByteInput.file(longPath)
        let longWc = time(repetitions, expect: longCount) { LineAnchors.wc(longPath) ?? -1 }
        let longZeroCopy = time(repetitions, expect: longCount) { Self.zeroCopy(longInput) }
        let longStrings = time(repetitions, expect: longCount) { Self.strings(longInput) }
        let longSubstrings = time(repetitions, expect: longCount) { Self.substrings(longInput) }
        let longAsyncStrings = time(repetitions, expect: longCount) { Self.asyncStrings(longInput) }
        let longAnchor = ("wc -l", longWc.perItem)
        record(report, "long lines/wc -l (subprocess)", longWc)
        record(report, "long lines/zero-copy forEachLine", longZeroCopy, anchor: longAnchor)
        record(
            report, "long lines/Substring per line (forEachSubstring)", longSubstrings, anchor: longAnchor,
            goal: ">= 18 M lines/s", met: longSubstrings.perSecond >= 18e6)
        record(report, "long lines/String per line (forEachLine + string())", longStrings, anchor: longAnchor)
        record(report, "long lines/String per line (for try await)", longAsyncStrings, anchor: longAnchor)
    }

    static let lineOptions = LineOptions(chunkSize: 256 * 1024)

    private static func zeroCopy(_ input: ByteInput) -> Int {
        (try? Lines(input, options: lineOptions).forEachLineBlocking { _ in })?.lines ?? -1
    }

    private static func strings(_ input: ByteInput) -> Int {
        var bytes = 0
        let summary = try? Lines(input, options: lineOptions).forEachLineBlocking {
            bytes &+= (try? $0.string())?.utf8.count ?? 0
        }
        return summary?.lines ?? -1
    }

    private static func substrings(_ input: ByteInput) -> Int {
        var bytes = 0
        let summary = try? Lines(input, options: lineOptions).forEachSubstringBlocking { bytes &+= $0.utf8.count }
        return summary?.lines ?? -1
    }

    private static func asyncStrings(_ input: ByteInput) -> Int {
        blockingWait {
            var lines = 0
            do { for try await _ in Lines(input, options: lineOptions) { lines += 1 } } catch { return -1 }
            return lines
        }
    }

    // MARK: CSV

    private func csv(_ files: StreamFiles, _ runner: Runner, _ report: Report) throws {
        let rows = Int(5_000_000 * runner.scale)
        let path = try files.stopTimes(rows: rows)
        let repetitions = runner.scale < 1 ? 1 : 3
        report.note("csv: stop_times.txt, \(rows) rows, 9 fields, CRLF, some quoted; median of \(repetitions)")
        let input = ByteInput.file(path)
        _ = try? CSVRecords(input).forEachRecordBlocking { _ in }  // into the page cache

        let zeroCopy = time(repetitions, expect: rows) {
            var bytes = 0
            let summary = try? CSVRecords(input).forEachRecordBlocking { record in
                for field in record { bytes &+= field.bytes.count }
            }
            return summary?.records ?? -1
        }
        let strings = time(repetitions, expect: rows) {
            var fields = 0
            let summary = try? CSVRecords(input).forEachRecordBlocking { fields &+= $0.strings().count }
            return summary?.records ?? -1
        }
        let owned = time(repetitions, expect: rows) {
            Self.blockingWait {
                var count = 0
                do { for try await _ in CSVRecords(input) { count += 1 } } catch { return -1 }
                return count
            }
        }
        let csvSwift = time(repetitions, expect: rows) { CSVSwiftAnchor.count(path) ?? -1 }
        // SwiftCSV holds the whole file and every row: measured on a 500k-row file (scaled).
        let smallRows = min(rows, Int(500_000 * runner.scale))
        let smallPath = try files.stopTimes(rows: smallRows, name: "stop_times_small.txt")
        let swiftCSV = time(repetitions, expect: smallRows) { SwiftCSVAnchor.count(smallPath) ?? -1 }

        let best = max(csvSwift.perSecond, swiftCSV.perSecond)
        let anchor = ("CSV.swift", csvSwift.perItem)
        record(report, "csv/CSV.swift (yaslab, streaming)", csvSwift)
        record(
            report, "csv/SwiftCSV (whole file, \(smallRows) rows)", swiftCSV, anchor: anchor,
            peak: Self.probe("swiftcsv", path: smallPath))
        record(
            report, "csv/zero-copy forEachRecord", zeroCopy, anchor: anchor,
            goal: "faster than both", met: zeroCopy.perSecond > best)
        record(
            report, "csv/String fields (forEachRecord + strings())", strings, anchor: anchor,
            goal: "faster than both", met: strings.perSecond > best)
        record(report, "csv/CSVRecord (for try await)", owned, anchor: anchor)
        if let growth = Self.probe("csv", path: path) {
            var measurement = Measurement(
                suite: name, name: "csv/memory growth, zero-copy (bytes)",
                nanosecondsPerOperation: Double(growth))
            measurement.peakMemoryBytes = growth
            measurement.goal = ("<= 1 MB resident growth", growth <= 1_000_000)
            report.record(measurement)
        }
    }

    // MARK: Measuring

    /// The median time of `repetitions` runs of `body`, which returns the items it saw (checked against `expect`).
    struct Timing {
        var seconds: Double
        var minimum: Double
        var maximum: Double
        var items: Int
        var correct: Bool
        var perSecond: Double { Double(items) / seconds }
        var perItem: Double { seconds * 1e9 / Double(items) }
    }

    func time(_ repetitions: Int, expect: Int, _ body: () -> Int) -> Timing {
        var samples: [Double] = []
        var correct = true
        for _ in 0..<repetitions {
            let start = Clockwork.now()
            let items = body()
            samples.append(Double(Clockwork.now() - start) / 1e9)
            correct = correct && items == expect
        }
        samples.sort()
        return Timing(
            seconds: samples[samples.count / 2], minimum: samples.first!, maximum: samples.last!,
            items: expect, correct: correct)
    }

    func record(
        _ report: Report, _ name: String, _ timing: Timing, anchor: (String, Double)? = nil,
        goal: String? = nil, met: Bool = true, peak: Int? = nil
    ) {
        var measurement = Measurement(suite: self.name, name: name, nanosecondsPerOperation: timing.perItem)
        measurement.range = (timing.minimum * 1e9 / Double(timing.items), timing.maximum * 1e9 / Double(timing.items))
        measurement.anchor = anchor
        measurement.extra = [("million_per_s", timing.perSecond / 1e6)]
        if let goal { measurement.goal = (goal, met && timing.correct) }
        if let peak { measurement.peakMemoryBytes = peak }
        if !timing.correct { report.note("\(name): WRONG item count") }
        report.record(measurement)
    }

    /// Runs an async body from the benchmark's main thread (not a cooperative thread) and waits for it.
    private static func blockingWait(_ body: @escaping @Sendable () async -> Int) -> Int {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox()
        Task.detached {
            result.set(await body())
            done.signal()
        }
        done.wait()
        return result.value
    }

    // MARK: Memory probe (child process)

    /// The probe kinds this suite's child processes understand.
    static let probeKinds: Set<String> = [
        "lines-zero-copy", "lines-substring", "lines-string", "lines-async-string", "csv", "split", "swiftcsv",
        "readline",
    ]

    /// Peak resident growth of one streaming pass, measured in a fresh child process of this executable.
    private static func probe(_ kind: String, path: String) -> Int? {
        ChildProcess.probe("\(kind):\(path)").map { Int($0) }
    }

    /// Runs in the child: one warm-up pass over a small file (code pages, allocator), then resets the kernel's
    /// peak and prints how far the peak rose above the resident size while streaming `path`.
    static func probe(kind: String, path: String) {
        if kind == "readline" { return LineAnchors.countStandardInputLines() }
        let warmUp = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-probe-\(getpid()).txt")
        try? Data("a,b\n1,2\n".utf8).write(to: warmUp)
        defer { try? FileManager.default.removeItem(at: warmUp) }
        let options = lineOptions
        func pass(_ path: String) {
            switch kind {
            case "lines-zero-copy": _ = try? Lines(.file(path), options: options).forEachLineBlocking { _ in }
            case "lines-string":
                _ = try? Lines(.file(path), options: options).forEachLineBlocking { _ = try? $0.string() }
            case "lines-substring":
                _ = try? Lines(.file(path), options: options).forEachSubstringBlocking { _ = $0.count }
            case "lines-async-string":
                _ = blockingWait {
                    var count = 0
                    do { for try await _ in Lines(.file(path), options: options) { count += 1 } } catch {}
                    return count
                }
            case "csv": _ = try? CSVRecords(.file(path)).forEachRecordBlocking { _ = $0.count }
            case "split": _ = LineAnchors.wholeFileSplit(path)
            case "swiftcsv": _ = SwiftCSVAnchor.count(path)
            default: break
            }
        }
        pass(warmUp.path)
        PeakMemory.resetPeak()
        let before = PeakMemory.currentBytes() ?? 0
        pass(path)
        let peak = PeakMemory.peakBytes() ?? 0
        print(max(0, peak - before))
    }
}

/// Carries one result out of a task to the waiting main thread (the semaphore orders the store and the load).
private final class ResultBox: Sendable {
    private let stored = Atomic<Int>(0)
    func set(_ value: Int) { stored.store(value, ordering: .releasing) }
    var value: Int { stored.load(ordering: .acquiring) }
}
