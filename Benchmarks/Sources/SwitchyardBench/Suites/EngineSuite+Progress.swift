import Switchyard

extension EngineSuite {
    // MARK: Progress reporting per record

    /// Two jobs on a width-2 queue each run a loop of `records` iterations of a small computation (a stand-in for
    /// handling one record), with a progress observer attached; one case also calls `reportProgress` every
    /// iteration. Goal (issue: core soundness): reporting costs ≤ 2× the loop without it.
    func progressReporting(runner: Runner, report: Report) {
        let records = 10_000_000
        let samples = runner.interleaved([
            (records, .task(Runner.timedWhole { await Self.recordLoops($0, reporting: false) })),
            (records, .task(Runner.timedWhole { await Self.recordLoops($0, reporting: true) })),
        ])
        let (plain, reporting) = (samples[0], samples[1])
        record(report, "progress/2 jobs, a record loop", plain)
        record(
            report, "progress/2 jobs, reportProgress per record", reporting,
            anchor: ("the loop without reporting", plain),
            goal: "ratio <= 2", met: reporting.median <= 2 * plain.median)
    }

    /// `records` iterations in all, split between two jobs.
    static func recordLoops(_ records: Int, reporting: Bool) async {
        let queue = WorkQueue(name: "progress", width: 2)
        let observer = Task { for await _ in queue.progressUpdates(interval: .milliseconds(100)) {} }
        let perJob = records / 2
        let jobs = (0..<2).map { index in
            try! queue.trySubmit("records \(index)") { () -> UInt64 in
                let context = JobContext.current!
                var state = UInt64(index + 1)
                for record in 0..<perJob {
                    state = Self.handle(state)
                    if reporting { context.reportProgress(completed: Int64(record + 1), total: Int64(perJob)) }
                }
                return state
            }
        }
        for job in jobs { Blackhole.consume(Int(truncatingIfNeeded: try! await job.value)) }
        observer.cancel()
    }

    /// A few nanoseconds of dependent arithmetic, the stand-in for one record's work.
    @inline(never)
    static func handle(_ state: UInt64) -> UInt64 {
        var x = state
        for _ in 0..<4 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            x ^= x >> 29
        }
        return x
    }
}
