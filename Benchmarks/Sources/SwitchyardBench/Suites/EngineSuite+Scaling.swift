import Switchyard

extension EngineSuite {
    // MARK: Scaling: independent queues driven from two threads

    /// Tiny jobs on two independent queues (no shared limit domain, no edges), each driven by its own task,
    /// against the same total on one queue driven by one task; the anchor does the same with bare `Task`s (one
    /// stream against two). Scaling factor = 2-driver throughput ÷ 1-driver throughput, taken per round (the four
    /// cases of a round run back to back, so a slow spell of the machine affects both sides of each ratio) and
    /// reported as the median over rounds (at least 21 in a full run: a ratio of ratios is noisy). Goal (issue:
    /// core soundness): ours ≥ 0.9 × the bare-`Task` factor.
    func scaling(runner: Runner, report: Report) {
        let jobs = 100_000
        let samples = runner.interleaved(
            [
                (jobs, .task(Runner.timedWhole { await Self.drive(streams: 1, total: $0, Self.queueStream) })),
                (jobs, .task(Runner.timedWhole { await Self.drive(streams: 2, total: $0, Self.queueStream) })),
                (jobs, .task(Runner.timedWhole { await Self.drive(streams: 1, total: $0, Self.taskStream) })),
                (jobs, .task(Runner.timedWhole { await Self.drive(streams: 2, total: $0, Self.taskStream) })),
            ], minimumRounds: 21)
        let (ours1, ours2, tasks1, tasks2) = (samples[0], samples[1], samples[2], samples[3])
        let ourFactor = Clockwork.median(zip(ours1.values, ours2.values).map { $0 / $1 })
        let taskFactor = Clockwork.median(zip(tasks1.values, tasks2.values).map { $0 / $1 })
        record(report, "scaling/1 queue, 1 driver", ours1)
        record(report, "scaling/Task, 1 stream", tasks1)
        record(report, "scaling/Task, 2 streams", tasks2, anchor: ("Task, 1 stream", tasks1))
        record(
            report, "scaling/2 independent queues, 2 drivers", ours2, anchor: ("1 queue, 1 driver", ours1),
            goal: "scaling factor >= 0.9 x bare Task's", met: ourFactor >= 0.9 * taskFactor,
            extra: [("scaling_factor", ourFactor), ("task_scaling_factor", taskFactor)])
    }

    /// Runs `streams` drivers at once, each `stream(total / streams)`, and waits for all.
    static func drive(streams: Int, total: Int, _ stream: @escaping @Sendable (Int) async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<streams { group.addTask { await stream(total / streams) } }
        }
    }

    /// `n` tiny jobs submitted to a queue of its own, then awaited.
    @Sendable static func queueStream(_ n: Int) async {
        await tinyWorkQueueJobs(n)
    }

    /// `n` bare tasks created, then awaited.
    @Sendable static func taskStream(_ n: Int) async {
        var tasks: [Task<Void, Never>] = []
        tasks.reserveCapacity(n)
        for _ in 0..<n { tasks.append(Task {}) }
        for task in tasks { await task.value }
    }
}
