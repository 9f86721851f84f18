import Foundation
import Switchyard
import SwitchyardDashboard

/// `dashboard`: what SwitchyardDashboard costs the program it watches, over Server-Sent Events on 127.0.0.1.
///
/// - **Throughput with 50 viewers**: tiny jobs (submit → run → await, empty bodies; the `engine` suite's tiny-job
///   case) on a `WorkQueue` as wide as the active processors, watched by a `Dashboard` at its floor interval
///   (250 ms) served by `DashboardServer`: with 50 viewers reading `GET /events` (real connections, read by one
///   thread of this process), with the server up and no viewer, and on a queue no dashboard watches; the three
///   alternate round by round. Goal: throughput with the viewers ≥ 0.95× without (median of the per-round ratios).
/// - **Snapshot cost**: `Dashboard.snapshot()` of a queue holding 100,000 waiting jobs and 1,000 running ones,
///   median. Goal: ≤ 10 ms. Then submissions to that same queue, one every 20 µs from a thread of their own, while a
///   task takes snapshots back to back, against the same submissions with no snapshot: each latency counted from the
///   submission's scheduled time. Goal: p99 ≤ 1 ms.
/// - **1,000 viewers' memory**: the peak resident set of a child process serving a dashboard with 1,000 viewers
///   connected (one in ten a slow reader that stops reading after the response's header), minus the same child's
///   with none. Goal: ≤ 64 MB.
struct DashboardSuite: BenchmarkSuite {
    let name = "dashboard"
    let summary = "live dashboard: throughput with 50 SSE viewers, snapshot cost, submit latency, 1,000 viewers' memory"

    /// The dashboard's shortest interval between updates, which every case uses.
    static let floorInterval = Duration.milliseconds(250)

    func run(runner: Runner, report: Report) {
        throughputWithViewers(runner: runner, report: report)
        snapshotCost(runner: runner, report: report)
        viewersMemory(runner: runner, report: report)
    }

    // MARK: Throughput with 50 viewers

    static let throughputViewers = 50

    /// Tiny-job throughput with no dashboard, with a dashboard nobody watches and with 50 viewers, alternating
    /// round by round. The viewers connect before a round's clock starts and leave after it stops; a round with
    /// viewers then waits until the dashboard counts none and its producer has stopped.
    private func throughputWithViewers(runner: Runner, report: Report) {
        // A tiny job takes about a microsecond here: a full round spans several intervals of 250 ms, a quick one
        // at least one.
        let jobs = runner.scale < 1 ? 500_000 : 2_000_000
        let watched = WorkQueue(name: "tiny")
        let unwatched = WorkQueue(name: "tiny, unwatched")
        let dashboard = Dashboard(
            sources: [WorkQueuesSource(queues: [watched])],
            configuration: DashboardConfiguration(interval: Self.floorInterval))
        let server: LocalDashboardServer
        switch LocalDashboardServer.start(dashboard) {
        case .success(let started): server = started
        case .failure(let failure):
            report.note("dashboard: \(failure); no throughput rows")
            return
        }
        // Problems with the viewers make the goal unmet (a round nobody watched proves nothing); notes do not.
        var problems: [String] = []
        var notes: [String] = []
        var eventsPerViewer: [Double] = []
        let viewers = Self.throughputViewers
        // Rounds are long (seconds): the operation count is not scaled again by the runner.
        let rounds = Runner(repetitions: runner.repetitions, warmups: runner.warmups, scale: 1)
        let samples = rounds.interleaved([
            (jobs, .mainThread { n in DashboardWorkload.timedTinyJobs(unwatched, n) }),
            (jobs, .mainThread { n in DashboardWorkload.timedTinyJobs(watched, n) }),
            (
                jobs,
                .mainThread { n in
                    let sse = SSEViewers(port: server.port, path: server.eventsPath, count: viewers)
                    if !sse.waitUntilStreaming(seconds: 30) {
                        problems.append(
                            "\(sse.connected) of \(viewers) viewers connected, \(sse.failures) failed before streaming")
                    }
                    let before = sse.events
                    let elapsed = DashboardWorkload.timedTinyJobs(watched, n)
                    eventsPerViewer.append(Double(sse.events - before) / Double(max(1, sse.fastViewers)))
                    if sse.failures > 0 { problems.append("\(sse.failures) viewers lost their stream during a round") }
                    sse.stop()
                    if !Self.waitUntilUnwatched(dashboard, seconds: 10) {
                        notes.append("the dashboard still counted viewers or produced 10 s after the viewers left")
                    }
                    return elapsed
                }
            ),
        ])
        if !server.stop() { notes.append("the server's task did not end within 5 s of its cancellation") }
        let (none, idle, viewed) = (samples[0], samples[1], samples[2])
        // Per round, the two sides ran back to back: the median of those ratios resists a slow spell of the machine.
        let ratio = Clockwork.median(zip(idle.values, viewed.values).map { $0 / $1 })
        let events = Clockwork.median(eventsPerViewer)
        if events < 1 { problems.append("the viewers received no snapshot while the clock ran") }
        record(report, "tiny jobs, no dashboard", none, extra: [("jobs", Double(jobs))])
        record(
            report, "tiny jobs, dashboard served, no viewer", idle, anchor: ("no dashboard", none),
            extra: [("jobs", Double(jobs))])
        record(
            report, "tiny jobs, \(viewers) SSE viewers at 250 ms", viewed, anchor: ("no viewer", idle),
            goal: "throughput >= 0.95x no viewer's", met: ratio >= 0.95 && problems.isEmpty,
            extra: [("throughput_ratio", ratio), ("events_per_viewer", events), ("jobs", Double(jobs))])
        report.note(
            "throughput: \(jobs) tiny jobs per round; throughput_ratio = median over rounds of no viewer's time ÷ "
                + "the viewers' time; events_per_viewer = snapshots each viewer received while the clock ran")
        for text in Set(problems + notes).sorted() { report.note("dashboard: " + text) }
    }

    /// Waits (on the calling thread, checking every millisecond) until `dashboard` counts no viewer and its
    /// producer has stopped; false if `seconds` passed first.
    static func waitUntilUnwatched(_ dashboard: Dashboard, seconds: Double) -> Bool {
        let deadline = Clockwork.now() + UInt64(seconds * 1e9)
        while dashboard.viewerCount != 0 || dashboard.isProducing {
            if Clockwork.now() > deadline { return false }
            usleep(1_000)
        }
        return true
    }
}
