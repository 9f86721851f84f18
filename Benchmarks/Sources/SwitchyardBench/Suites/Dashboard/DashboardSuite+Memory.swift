import Foundation
import Switchyard
import SwitchyardDashboard

extension DashboardSuite {
    // MARK: 1,000 viewers' memory

    static let memoryViewers = 1_000
    /// One viewer in this many reads the response's header, then never reads again.
    static let slowViewerEvery = 10
    /// The intervals the server runs with its viewers (or without) before its memory is read.
    static let memoryIntervals = 12
    /// The child's queue: jobs that stay running, and held jobs, so that every update lists a full page.
    static let memoryChildProbe = "dashboard-server:4:100"

    /// What one child measured.
    struct ChildMemory {
        var peak: Int
        var resident: Int
        /// Events per fast viewer while the server ran with its viewers.
        var eventsPerViewer: Double
        var problem: String?
    }

    /// The peak resident set of a child serving a dashboard with 1,000 viewers (one in ten slow) against the same
    /// child with none, alternating; the clients are this process, so their memory is not counted.
    func viewersMemory(runner: Runner, report: Report) {
        #if os(Linux)
            let viewers = Self.memoryViewers
            // Our sockets, and the child's (which inherits the limit), with room for the rest of each process.
            let wanted = viewers + 256
            let limit = DescriptorLimit.raise(to: wanted)
            if limit.after < wanted {
                report.note(
                    "dashboard: the limit on open files is \(limit.after) (hard limit reached), \(wanted) needed; "
                        + "no memory rows")
                return
            }
            if limit.after != limit.before {
                report.note("dashboard: raised RLIMIT_NOFILE from \(limit.before) to \(limit.after) (setrlimit)")
            }
            var withoutViewers: [ChildMemory] = []
            var withViewers: [ChildMemory] = []
            for _ in 0..<(runner.scale < 1 ? 1 : 3) {
                if let measured = Self.measureChild(viewers: 0) { withoutViewers.append(measured) }
                if let measured = Self.measureChild(viewers: viewers) { withViewers.append(measured) }
            }
            guard !withoutViewers.isEmpty, !withViewers.isEmpty else {
                report.note("dashboard: the server child did not start or its memory could not be read; no memory rows")
                return
            }
            let problems = withViewers.compactMap(\.problem)
            let baseline = Sample(withoutViewers.map { Double($0.peak) })
            let loaded = Sample(withViewers.map { Double($0.peak) })
            let growth = loaded.median - baseline.median
            let residentGrowth =
                Clockwork.median(withViewers.map { Double($0.resident) })
                - Clockwork.median(withoutViewers.map { Double($0.resident) })
            record(report, "memory/server, no viewer (peak RSS bytes)", baseline)
            var row = Measurement(
                suite: name, name: "memory/server, \(viewers) SSE viewers, 1 in \(Self.slowViewerEvery) slow",
                nanosecondsPerOperation: loaded.median, range: (loaded.minimum, loaded.maximum))
            row.anchor = ("no viewer", baseline.median)
            row.peakMemoryBytes = Int(loaded.median)
            row.goal = ("peak RSS - no viewer's <= 64 MB", growth <= Double(64 << 20) && problems.isEmpty)
            row.extra = [
                ("growth_mb", growth / Double(1 << 20)), ("per_viewer_kb", growth / Double(viewers) / 1024),
                ("rss_growth_mb", residentGrowth / Double(1 << 20)),
                ("events_per_viewer", Clockwork.median(withViewers.map(\.eventsPerViewer))),
            ]
            report.record(row)
            report.note(
                "memory rows: bytes in the ns/op column; the server is a child process (VmHWM from /proc/PID/status "
                    + "after \(Self.memoryIntervals) intervals of 250 ms), its viewers connections of this process; "
                    + "median of \(withViewers.count) children each way")
            for problem in Set(problems).sorted() { report.note("dashboard: " + problem) }
        #else
            report.note("dashboard: the memory case reads /proc (Linux only); no memory rows")
        #endif
    }

    /// Starts a server child, connects `viewers` viewers (none: the baseline), lets it run ``memoryIntervals``
    /// intervals, and reads its peak and current resident set; nil if the child failed.
    static func measureChild(viewers: Int) -> ChildMemory? {
        guard let child = DashboardServerChild(probe: memoryChildProbe) else { return nil }
        defer { child.stop() }
        var problem: String?
        var sse: SSEViewers?
        if viewers > 0 {
            let connected = SSEViewers(
                port: child.port, path: child.eventsPath, count: viewers, slowEvery: slowViewerEvery)
            if !connected.waitUntilStreaming(seconds: 60) {
                problem =
                    "\(connected.connected) of \(viewers) viewers connected, \(connected.failures) failed; "
                    + "the goal needs all of them"
            }
            sse = connected
        }
        let eventsBefore = sse?.events ?? 0
        // The server runs for several intervals, its viewers reading (or not).
        Thread.sleep(forTimeInterval: Double(memoryIntervals) * 0.25)
        let peak = child.statusBytes("VmHWM:")
        let resident = child.statusBytes("VmRSS:")
        var eventsPerViewer = 0.0
        if let sse {
            eventsPerViewer = Double(sse.events - eventsBefore) / Double(max(1, sse.fastViewers))
            if sse.failures > 0 && problem == nil { problem = "\(sse.failures) viewers lost their stream" }
            if eventsPerViewer < 2 && problem == nil {
                problem = String(
                    format: "fast viewers received %.1f updates in %d intervals", eventsPerViewer, memoryIntervals)
            }
            sse.stop()
        }
        guard let peak, let resident else { return nil }
        return ChildMemory(peak: peak, resident: resident, eventsPerViewer: eventsPerViewer, problem: problem)
    }

    /// The memory case's child (`SWITCHYARD_BENCH_PROBE=dashboard-server:RUNNING:WAITING`): a queue with RUNNING
    /// jobs that stay running and WAITING held jobs, a dashboard of it at the floor interval served on 127.0.0.1;
    /// prints `dashboard-url URL`, then serves until its standard input ends, and exits.
    static func serverProbe(_ specification: String) -> Never {
        let parts = specification.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2 else {
            print("dashboard-server: RUNNING:WAITING")
            exit(1)
        }
        DescriptorLimit.raise(to: memoryViewers + 256)
        let (running, waiting) = (parts[0], parts[1])
        let queue = WorkQueue(name: "watched", width: max(1, running))
        let gate = JobGate()
        try! blockingRun { await DashboardWorkload.fill(queue, running: running, waiting: waiting, gate: gate) }
        let dashboard = Dashboard(
            sources: [WorkQueuesSource(queues: [queue])],
            configuration: DashboardConfiguration(interval: floorInterval))
        switch LocalDashboardServer.start(dashboard) {
        case .success(let server):
            // Written at once (print's output waits in a buffer when it goes to a pipe).
            FileHandle.standardOutput.write(Data((DashboardServerChild.urlPrefix + server.url + "\n").utf8))
            _ = FileHandle.standardInput.readDataToEndOfFile()
            exit(0)
        case .failure(let failure):
            print("dashboard-server: \(failure)")
            exit(1)
        }
    }
}
