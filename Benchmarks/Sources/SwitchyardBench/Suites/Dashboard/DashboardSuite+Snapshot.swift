import Foundation
import Switchyard
import SwitchyardDashboard

extension DashboardSuite {
    // MARK: Snapshot cost, and submissions while snapshots run

    /// The running jobs of the snapshot case, and the nanoseconds between its paced submissions (50,000 a second).
    static let snapshotRunning = 1_000
    static let submitPeriod: UInt64 = 20_000

    /// `Dashboard.snapshot()` of one queue holding 100,000 waiting and 1,000 running jobs (a quick run: 10,000
    /// waiting), then the latency of submissions to that same queue (the worst case: the snapshot reads the lock the
    /// submissions take) with snapshots taken back to back by a task, against the same submissions with none.
    func snapshotCost(runner: Runner, report: Report) {
        let quick = runner.scale < 1
        let waiting = quick ? 10_000 : 100_000
        let submits = quick ? 5_000 : 50_000
        let running = Self.snapshotRunning
        // Wider than the gated jobs, so that the submitted no-op jobs run (and finish) as they would in a program.
        let queue = WorkQueue(name: "watched", width: running + WorkQueue.defaultWidth)
        let gate = JobGate()
        let dashboard = Dashboard(
            sources: [WorkQueuesSource(queues: [queue])],
            configuration: DashboardConfiguration(interval: Self.floorInterval))
        try! blockingRun { await DashboardWorkload.fill(queue, running: running, waiting: waiting, gate: gate) }
        defer { try! blockingRun { await DashboardWorkload.drain(queue, gate: gate) } }

        // The snapshot alone: every repetition one `snapshot()`, timed in the task that awaits it. With no viewer,
        // each call reads every source and encodes the update.
        let count = quick ? 5 : max(21, runner.repetitions)
        let (times, last) = try! blockingRun {
            var times: [Double] = []
            var last: DashboardSnapshot?
            for round in 0..<(runner.warmups + count) {
                let start = Clockwork.now()
                let snapshot = await dashboard.snapshot()
                let elapsed = Clockwork.now() - start
                if round >= runner.warmups { times.append(Double(elapsed)) }
                last = snapshot
            }
            return (times, last!)
        }
        let snapshot = Sample(times)
        let source = last.sources.first
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let encodeStart = Clockwork.now()
        let json = (try? encoder.encode(last))?.count ?? 0
        let encodeNanoseconds = Double(Clockwork.now() - encodeStart)
        record(
            report, "snapshot(), \(waiting / 1000)k waiting + \(running / 1000)k running jobs", snapshot,
            goal: "<= 10 ms", met: snapshot.median <= 10e6,
            extra: [
                ("ms", snapshot.median / 1e6), ("waiting_total", Double(source?.waitingTotal ?? 0)),
                ("running_total", Double(source?.runningTotal ?? 0)), ("json_bytes", Double(json)),
                ("json_encode_ms", encodeNanoseconds / 1e6),
            ])
        if source?.waitingTotal != waiting || source?.runningTotal != running {
            report.note(
                "dashboard: the snapshot counted \(source?.waitingTotal ?? 0) waiting and "
                    + "\(source?.runningTotal ?? 0) running jobs, not \(waiting) and \(running)")
        }

        // Submissions, alone and beside back-to-back snapshots, alternating round by round.
        var alone: [PacedSubmits] = []
        var beside: [PacedSubmits] = []
        var snapshotsTaken: [Double] = []
        for round in 0..<(runner.warmups + runner.repetitions) {
            let quiet = Self.pacedSubmits(queue, count: submits)
            let (busy, taken) = Self.pacedSubmitsDuringSnapshots(queue, dashboard, count: submits)
            if round >= runner.warmups {
                alone.append(quiet)
                beside.append(busy)
                snapshotsTaken.append(Double(taken))
            }
        }
        let anchorP99 = Sample(alone.map { $0.call(0.99) })
        let p99 = Sample(beside.map { $0.call(0.99) })
        record(
            report, "submit latency p99, no snapshot (anchor)", anchorP99,
            extra: Self.latencyValues(alone))
        record(
            report, "submit latency p99, snapshots back to back", p99, anchor: ("no snapshot", anchorP99),
            goal: "p99 <= 1 ms", met: p99.median <= 1e6,
            extra: Self.latencyValues(beside) + [("snapshots_per_round", Clockwork.median(snapshotsTaken))])
        report.note(
            "submit latency: \(submits) no-op jobs submitted to the queue the snapshots read, one every "
                + "\(Self.submitPeriod / 1000) µs from one thread; ns/op = the p99 of the trySubmit calls (median over "
                + "rounds; call_max_us, the slowest call, shows preemption as much as locks: the anchor has one too); p50_us … max_us run from each "
                + "submission's scheduled time, so they also count the submitting thread's preemption by the snapshot "
                + "loop and the engine's workers on a machine with few cores")
    }

    /// The latencies of one round of paced submissions, in nanoseconds, sorted.
    struct PacedSubmits {
        var fromScheduled: [Double]
        var calls: [Double]

        func fromSchedule(_ quantile: Double) -> Double { Self.quantile(fromScheduled, quantile) }
        func call(_ quantile: Double) -> Double { Self.quantile(calls, quantile) }

        static func quantile(_ sorted: [Double], _ quantile: Double) -> Double {
            sorted[min(sorted.count - 1, Int(Double(sorted.count) * quantile))]
        }
    }

    /// The extra values of a latency row: medians over rounds, in microseconds.
    static func latencyValues(_ rounds: [PacedSubmits]) -> [(key: String, value: Double)] {
        func median(_ value: (PacedSubmits) -> Double) -> Double { Clockwork.median(rounds.map(value)) / 1e3 }
        return [
            ("p50_us", median { $0.fromSchedule(0.5) }), ("p99_us", median { $0.fromSchedule(0.99) }),
            ("p999_us", median { $0.fromSchedule(0.999) }), ("max_us", median { $0.fromScheduled.last! }),
            ("call_p99_us", median { $0.call(0.99) }),
            ("call_max_us", (rounds.map { $0.calls.last! }.max() ?? 0) / 1e3),
        ]
    }

    /// Submits `count` no-op jobs to `queue` from the calling (main) thread, one every ``submitPeriod`` nanoseconds
    /// (spinning between them), and returns each one's latency from its scheduled time and of its call alone.
    static func pacedSubmits(_ queue: WorkQueue, count: Int) -> PacedSubmits {
        var fromScheduled: [Double] = []
        var calls: [Double] = []
        fromScheduled.reserveCapacity(count)
        calls.reserveCapacity(count)
        let start = Clockwork.now()
        for index in 0..<count {
            let due = start + UInt64(index) * submitPeriod
            var called = Clockwork.now()
            while called < due { called = Clockwork.now() }
            try! queue.trySubmit("no-op") {}
            let returned = Clockwork.now()
            fromScheduled.append(Double(returned - due))
            calls.append(Double(returned - called))
        }
        return PacedSubmits(fromScheduled: fromScheduled.sorted(), calls: calls.sorted())
    }

    /// ``pacedSubmits(_:count:)`` while a task takes snapshots of `dashboard` back to back (from its first one
    /// until the submissions end); also the number of snapshots it took meanwhile.
    static func pacedSubmitsDuringSnapshots(
        _ queue: WorkQueue, _ dashboard: Dashboard, count: Int
    ) -> (PacedSubmits, Int) {
        let stop = DashboardFlag()
        let taken = DashboardCounter()
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            while !stop.isSet {
                _ = await dashboard.snapshot()
                taken.increment()
            }
            finished.signal()
        }
        // The snapshots are under way (one finished) before the first submission.
        while taken.count == 0 { sched_yield() }
        let before = taken.count
        let submits = pacedSubmits(queue, count: count)
        let during = taken.count - before
        stop.set()
        finished.wait()
        return (submits, during)
    }
}
