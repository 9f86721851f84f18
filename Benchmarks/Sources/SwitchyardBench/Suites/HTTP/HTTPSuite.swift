import Foundation
import Switchyard
import Synchronization

/// `http`: SwitchyardHTTP against the clients it builds on or replaces, against a local nginx, in the same run.
///
/// Goals (issue: HTTP): 20,000 GETs of 1 KiB with 64 in flight in ≤ 1.15× the time of bare AsyncHTTPClient driven
/// the same way (URLSession's ratio reported); `switchyard fetch` in ≤ 1.0× the wall time of
/// `curl --parallel --parallel-max N` on 2,000 files of 16 KiB and on 4 files of 256 MiB (aria2c reported), with a
/// peak resident set ≤ 64 MB on the large files.
struct HTTPSuite: BenchmarkSuite {
    let name = "http"
    let summary = "20,000 GETs vs AsyncHTTPClient and URLSession; switchyard fetch vs curl --parallel and aria2c"

    func run(runner: Runner, report: Report) {
        let root = NSTemporaryDirectory() + "switchyard-bench-http-\(getpid())"
        try? FileManager.default.createDirectory(atPath: root + "/www", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        guard let server = LocalNginx(serving: root + "/www") else {
            report.note(
                "http: nginx not found (Debian: nginx-light, Scripts/install-system-packages.sh); suite skipped")
            return
        }
        defer { server.stop() }
        do {
            try overhead(server, root: root, runner: runner, report: report)
            try fetchComparison(server, root: root, runner: runner, report: report)
        } catch {
            report.note("http suite failed: \(error)")
        }
    }

    // MARK: Overhead of the engine around AsyncHTTPClient

    private func overhead(_ server: LocalNginx, root: String, runner: Runner, report: Report) throws {
        try Data(repeating: 0x61, count: 1024).write(to: URL(fileURLWithPath: root + "/www/small.bin"))
        let count = Int(20_000 * runner.scale)
        let width = 64
        let urls = (0..<count).map { server.url("/small.bin?n=\($0)") }
        let clients: [(String, @Sendable ([String], Int) async throws -> Int)] = [
            ("AsyncHTTPClient, task group of 64 (anchor)", HTTPClients.asyncHTTPClient),
            ("URLSession (FoundationNetworking), 64 in flight", HTTPClients.urlSession),
            ("HTTPSession.data(for:), 64 in flight", HTTPClients.switchyard),
        ]
        // Rounds interleave the clients, so that a slow moment of the machine touches all of them alike.
        var samples = [[Double]](repeating: [], count: clients.count)
        for _ in 0..<(runner.scale < 1 ? 2 : 5) {
            for (index, client) in clients.enumerated() {
                let started = Clockwork.now()
                let bytes = try blockingRun { try await client.1(urls, width) }
                samples[index].append(Double(Clockwork.now() - started) / Double(count))
                if bytes != count * 1024 {
                    report.note("http: \(client.0) received \(bytes) bytes, not \(count * 1024)")
                }
            }
        }
        report.note("overhead: \(count) GETs of 1 KiB from nginx on 127.0.0.1, median of \(samples[0].count) rounds")
        let anchor = Clockwork.median(samples[0])
        for (index, client) in clients.enumerated() {
            var measurement = Measurement(
                suite: name, name: "get/\(client.0)", nanosecondsPerOperation: Clockwork.median(samples[index]))
            measurement.range = (samples[index].min()!, samples[index].max()!)
            if index > 0 { measurement.anchor = ("AsyncHTTPClient", anchor) }
            if index == 2 {
                measurement.goal = ("<= 1.1x bare AsyncHTTPClient", Clockwork.median(samples[index]) <= anchor * 1.1)
            }
            report.record(measurement)
        }
    }

    /// For profiling one client of the overhead case alone (`SWITCHYARD_BENCH_PROBE=http-get:CLIENT:COUNT:URL`,
    /// CLIENT one of `ahc`, `urlsession`, `switchyard`; URL a 1 KiB file, `?n=I` appended): prints ns per GET.
    static func probe(_ specification: String) {
        let parts = specification.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count == 3, let count = Int(parts[1]) else { return print("http-get: CLIENT:COUNT:URL") }
        let client: @Sendable ([String], Int) async throws -> Int
        switch parts[0] {
        case "ahc": client = HTTPClients.asyncHTTPClient
        case "urlsession": client = HTTPClients.urlSession
        default: client = HTTPClients.switchyard
        }
        let urls = (0..<count).map { parts[2] + "?n=\($0)" }
        let started = Clockwork.now()
        do {
            _ = try blockingRun { try await client(urls, 64) }
            print("\(parts[0]): \(Double(Clockwork.now() - started) / Double(count)) ns per GET")
        } catch {
            print("http-get failed: \(error)")
        }
    }

    /// The fetch cases' floor (`SWITCHYARD_BENCH_PROBE=http-floor:WIDTH:LIST`): every URL of the list file
    /// through AsyncHTTPClient alone, `WIDTH` at a time, bodies read and dropped; with `:DIR` after the list,
    /// bodies written into `DIR` as curl writes them (``HTTPClients/asyncHTTPClientWriting(_:width:folder:)``).
    /// Exits 1 if a request failed.
    static func floorProbe(_ specification: String) {
        let parts = specification.split(separator: ":", maxSplits: 2).map(String.init)
        guard parts.count >= 2, let width = Int(parts[0]),
            let text = try? String(contentsOfFile: parts[1], encoding: .utf8)
        else { return print("http-floor: WIDTH:LIST[:DIR]") }
        let urls = text.split(separator: "\n").map(String.init)
        let folder = parts.count == 3 ? parts[2] : nil
        do {
            _ = try blockingRun {
                if let folder {
                    return try await HTTPClients.asyncHTTPClientWriting(urls, width: width, folder: folder)
                }
                return try await HTTPClients.asyncHTTPClientDiscarding(urls, width: width)
            }
        } catch {
            print("http-floor failed: \(error)")
            exit(1)
        }
    }

    // MARK: switchyard fetch against curl and aria2c

    private func fetchComparison(_ server: LocalNginx, root: String, runner: Runner, report: Report) throws {
        let small = Int(2_000 * runner.scale)
        let largeSize = runner.scale < 1 ? 16 << 20 : 256 << 20
        try FileManager.default.createDirectory(atPath: root + "/www/many", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/www/large", withIntermediateDirectories: true)
        let smallBody = Data((0..<16_384).map { UInt8(truncatingIfNeeded: $0 * 7) })
        for index in 0..<small { try smallBody.write(to: URL(fileURLWithPath: root + "/www/many/f\(index).bin")) }
        for index in 0..<4 { try Self.writeLarge(root + "/www/large/l\(index).bin", size: largeSize, seed: index) }
        let cases: [(label: String, urls: [String], parallel: Int, memoryGoal: Bool)] = [
            ("\(small) files of 16 KiB", (0..<small).map { server.url("/many/f\($0).bin") }, 16, false),
            ("4 files of \(largeSize >> 20) MiB", (0..<4).map { server.url("/large/l\($0).bin") }, 4, true),
        ]
        // Resolved: `/proc/self/exe` handed to GNU time would name GNU time.
        let bench = URL(fileURLWithPath: ChildProcess.ownExecutable).resolvingSymlinksInPath()
        let fetch = ChildProcess.builtBeside("switchyard")
        guard FileManager.default.isExecutableFile(atPath: fetch) else {
            report.note("http: \(fetch) not built (swift build -c release --package-path Benchmarks); no fetch cases")
            return
        }
        // Many small files are written to memory (tmpfs, when there is one): on a disk file system, creating
        // thousands of files costs what the file system's recent history says (ext4 skips inodes freed in the last
        // minutes, and this suite frees thousands), which no tool controls. The large files go to the disk.
        let smallFilesRoot = Self.memoryFolder(named: "switchyard-bench-http-\(getpid())") ?? root
        defer { if smallFilesRoot != root { try? FileManager.default.removeItem(atPath: smallFilesRoot) } }
        for item in cases {
            let list = root + "/list.txt"
            try item.urls.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
            let floor = "http-floor:\(item.parallel):\(list)"
            let common: [(String, [String], [String: String])] = [
                (
                    "curl --parallel --parallel-max \(item.parallel) (anchor)",
                    [
                        "/usr/bin/curl", "--silent", "--fail", "--parallel", "--parallel-max", "\(item.parallel)",
                        "--remote-name-all", "--output-dir", "OUT",
                    ] + item.urls, [:]
                ),
                (
                    "aria2c -j \(item.parallel)",
                    [
                        "/usr/bin/aria2c", "--quiet", "-j", "\(item.parallel)", "-x", "1", "--file-allocation=none",
                        "--allow-overwrite=true", "--auto-file-renaming=false", "-d", "OUT", "-i", list,
                    ], [:]
                ),
                (
                    "switchyard fetch --parallel \(item.parallel)",
                    [
                        fetch, "fetch", "-i", list, "--out", "OUT", "--parallel", "\(item.parallel)", "--per-host",
                        "\(item.parallel)",
                    ], [:]
                ),
                (
                    "AsyncHTTPClient alone, bodies dropped (floor)", [bench.path],
                    ["SWITCHYARD_BENCH_PROBE": floor]
                ),
            ]
            // Small files only: the ceiling of an AsyncHTTPClient-based tool that writes what curl writes.
            let ceiling: [(String, [String], [String: String])] =
                item.memoryGoal
                ? []
                : [
                    (
                        "AsyncHTTPClient alone, bodies written in place on a blocking thread (ceiling)",
                        [bench.path], ["SWITCHYARD_BENCH_PROBE": floor + ":OUT"]
                    )
                ]
            let tools = common + ceiling
            var results = [[(seconds: Double, kilobytes: Int)]](repeating: [], count: tools.count)
            // Many small files are kept until the case ends: deleting thousands of files makes the file system
            // busy (journal, discards) for the next run, whichever tool it is.
            var outputs: [String] = []
            defer { for out in outputs { try? FileManager.default.removeItem(atPath: out) } }
            for round in 0..<(runner.scale < 1 ? 1 : 3) {
                for (index, tool) in tools.enumerated() {
                    let out = (item.memoryGoal ? root : smallFilesRoot) + "/out-\(index)-\(round)"
                    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                    let arguments = tool.1.map { $0 == "OUT" ? out : $0 }
                    let environment = tool.2.mapValues { $0.hasSuffix(":OUT") ? String($0.dropLast(3)) + out : $0 }
                    // Every run starts with the disk's write-back done, so that no tool pays for the one before.
                    sync()
                    if let measured = TimedProcess.run(arguments, environment: environment) {
                        results[index].append(measured)
                    }
                    if item.memoryGoal {
                        try? FileManager.default.removeItem(atPath: out)
                        sync()
                    } else {
                        outputs.append(out)
                    }
                }
            }
            record(item.label, tools.map(\.0), results, memoryGoal: item.memoryGoal, report: report)
        }
        report.note("fetch rows: wall seconds per run in the ns/op column's place (as ns), peak RSS in peak_rss_mb")
    }

    private func record(
        _ label: String, _ names: [String], _ results: [[(seconds: Double, kilobytes: Int)]], memoryGoal: Bool,
        report: Report
    ) {
        guard results.allSatisfy({ !$0.isEmpty }) else {
            report.note("fetch \(label): a tool did not run (curl, aria2c and GNU time are needed)")
            return
        }
        let anchor = Clockwork.median(results[0].map(\.seconds))
        for (index, name) in names.enumerated() {
            let seconds = Clockwork.median(results[index].map(\.seconds))
            let peak = results[index].map(\.kilobytes).max()!
            var measurement = Measurement(
                suite: self.name, name: "fetch/\(label), \(name)", nanosecondsPerOperation: seconds * 1e9)
            measurement.range = (results[index].map(\.seconds).min()! * 1e9, results[index].map(\.seconds).max()! * 1e9)
            measurement.peakMemoryBytes = peak * 1024
            measurement.extra = [("seconds", seconds), ("peak_rss_mb", Double(peak) / 1024)]
            if index > 0 { measurement.anchor = ("curl", anchor * 1e9) }
            if index == 2 {
                let fast = seconds <= anchor
                if memoryGoal {
                    measurement.goal = ("<= 1.0x curl's wall time, peak RSS <= 64 MB", fast && peak <= 64 * 1024)
                } else {
                    measurement.goal = ("<= 1.0x curl's wall time", fast)
                }
            }
            report.record(measurement)
        }
        if results.count > 4 {
            let ours = Clockwork.median(results[2].map(\.seconds))
            let ceiling = Clockwork.median(results[4].map(\.seconds))
            if !memoryGoal {
                var measurement = Measurement(
                    suite: self.name, name: "fetch/\(label), switchyard fetch vs the AsyncHTTPClient ceiling",
                    nanosecondsPerOperation: ours * 1e9)
                measurement.anchor = (names[4], ceiling * 1e9)
                measurement.goal = ("<= 1.1x the ceiling's wall time", ours <= 1.1 * ceiling)
                report.record(measurement)
            }
            report.note(
                "fetch \(label): switchyard fetch ÷ the AsyncHTTPClient ceiling = \(String(format: "%.2f", ours / ceiling))x"
            )
        }
    }

    /// A new folder on `/dev/shm` (tmpfs) with room for the small-files case's outputs, or nil.
    private static func memoryFolder(named name: String) -> String? {
        var status = statvfs()
        guard statvfs("/dev/shm", &status) == 0, UInt64(status.f_bavail) * UInt64(status.f_frsize) > 2 << 30 else {
            return nil
        }
        let path = "/dev/shm/" + name
        return (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil
            ? path : nil
    }

    /// Writes `size` bytes of a varied pattern (not compressible to nothing, not all zero) in 1 MiB writes.
    private static func writeLarge(_ path: String, size: Int, seed: Int) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var block = [UInt8](repeating: 0, count: 1 << 20)
        for offset in stride(from: 0, to: size, by: block.count) {
            for index in block.indices {
                block[index] = UInt8(truncatingIfNeeded: (offset + index) &* 2_654_435_761 &+ seed)
            }
            try handle.write(contentsOf: block)
        }
    }
}
