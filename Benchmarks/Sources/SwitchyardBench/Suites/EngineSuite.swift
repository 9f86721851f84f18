import Dispatch
import Foundation
import Switchyard
import Synchronization

/// `engine`: the work engine against bare `Task`, `withTaskGroup`, `DispatchQueue.async` + group and Foundation
/// `OperationQueue`, on tiny jobs, a backlog of tiny jobs, dependency chains, fan-in/fan-out, O(1) cancel and priority change, O(1) leaving
/// of coalesced waiters, and memory per pending job.
///
/// Goals (issue: the work engine): tiny-job overhead ≤ 2× bare `Task` and ≥ 5× faster than `OperationQueue`;
/// chains, fan-in and fan-out linear (per-job cost at 100k within 1.5× of 10k) and ≤ 5 µs per job; cancel and
/// priority change O(1) (same linearity test); ≤ 512 bytes per pending job; `reportProgress` per record costs
/// ≤ 2× the same loop without it; two independent queues scale at least 0.9× as well as bare tasks do.
struct EngineSuite: BenchmarkSuite {
    let name = "engine"
    let summary = "job graphs vs Task/withTaskGroup/Dispatch/OperationQueue; chains, fans, cancel, memory"

    func run(runner: Runner, report: Report) {
        tinyJobs(runner: runner, report: report)
        backlog(runner: runner, report: report)
        graphs(runner: runner, report: report)
        pendingOperations(runner: runner, report: report)
        progressReporting(runner: runner, report: report)
        scaling(runner: runner, report: report)
        memory(runner: runner, report: report)
    }

    // MARK: Tiny jobs: submit → run → await, empty bodies

    private func tinyJobs(runner: Runner, report: Report) {
        let jobs = 100_000
        // Every case alternates round by round with the others: the ratios are what the goals are about, and a
        // slow spell of the machine then lands on all of them instead of on one case's rounds.
        let samples = runner.interleaved([
            (
                jobs,
                .task(
                    Runner.timedWhole { n in
                        var tasks: [Task<Void, Never>] = []
                        tasks.reserveCapacity(n)
                        for _ in 0..<n { tasks.append(Task {}) }
                        for task in tasks { await task.value }
                    })
            ),
            (
                jobs,
                .task(
                    Runner.timedWhole { n in
                        await withTaskGroup(of: Void.self) { group in
                            for _ in 0..<n { group.addTask {} }
                            await group.waitForAll()
                        }
                    })
            ),
            (
                jobs,
                .mainThread { n in
                    let start = Clockwork.now()
                    let group = DispatchGroup()
                    let queue = DispatchQueue.global()
                    for _ in 0..<n { queue.async(group: group) {} }
                    group.wait()
                    return Clockwork.now() - start
                }
            ),
            (
                jobs,
                .mainThread { n in
                    let start = Clockwork.now()
                    let queue = OperationQueue()
                    queue.maxConcurrentOperationCount = WorkQueue.defaultWidth
                    for _ in 0..<n { queue.addOperation {} }
                    queue.waitUntilAllOperationsAreFinished()
                    return Clockwork.now() - start
                }
            ),
            (jobs, .task(Runner.timedWhole { await Self.tinyWorkQueueJobs($0) })),
            (
                jobs,
                .mainThread { n in
                    // The dispatch anchor's shape: submitted from a thread into a group, then a blocking wait.
                    let start = Clockwork.now()
                    let queue = WorkQueue(name: "tiny")
                    let options = JobOptions(group: JobGroup(name: "tiny"))
                    for _ in 0..<n { try! queue.trySubmit("tiny", options: options) {} }
                    _ = options.group!.waitBlocking()
                    return Clockwork.now() - start
                }
            ),
        ])
        let (task, group, dispatch, operationQueue, ours) = (samples[0], samples[1], samples[2], samples[3], samples[4])
        let grouped = samples[5]
        record(report, "tiny/Task", task)
        record(report, "tiny/withTaskGroup", group)
        record(report, "tiny/DispatchQueue.async + group", dispatch)
        record(report, "tiny/OperationQueue", operationQueue)

        record(
            report, "tiny/WorkQueue", ours, anchor: ("Task", task), goal: "ratio <= 2",
            met: ours.median <= 2 * task.median)
        record(report, "tiny/WorkQueue vs withTaskGroup", ours, anchor: ("withTaskGroup", group))
        record(
            report, "tiny/WorkQueue vs Dispatch", ours, anchor: ("DispatchQueue.async + group", dispatch),
            goal: "ratio <= 1.0", met: ours.median <= dispatch.median)
        record(
            report, "tiny/WorkQueue vs OperationQueue", ours, anchor: ("OperationQueue", operationQueue),
            goal: "ratio <= 0.2", met: ours.median * 5 <= operationQueue.median)
        record(
            report, "tiny/WorkQueue + JobGroup from a thread", grouped,
            anchor: ("DispatchQueue.async + group", dispatch))
    }

    // MARK: Backlog: a suspended queue's pending tiny jobs, run once it resumes

    /// How fast workers get through jobs already waiting (submission not timed): the engine's per-job cost on the
    /// workers' side alone, against `OperationQueue` doing the same. No goal; it shows where a tiny job's time goes.
    private func backlog(runner: Runner, report: Report) {
        let jobs = 100_000
        let samples = runner.interleaved([
            (jobs, .task { await Self.backlogJobs($0) }),
            (
                jobs,
                .mainThread { n in
                    let queue = OperationQueue()
                    queue.maxConcurrentOperationCount = WorkQueue.defaultWidth
                    queue.isSuspended = true
                    for _ in 0..<n { queue.addOperation {} }
                    let start = Clockwork.now()
                    queue.isSuspended = false
                    queue.waitUntilAllOperationsAreFinished()
                    return Clockwork.now() - start
                }
            ),
        ])
        let (ours, operationQueue) = (samples[0], samples[1])
        record(report, "backlog/OperationQueue", operationQueue)
        record(report, "backlog/WorkQueue", ours, anchor: ("OperationQueue", operationQueue))
    }

    /// Submits `n` empty jobs to a fresh suspended queue, then returns the nanoseconds from its resumption until
    /// it is idle.
    static func backlogJobs(_ n: Int) async -> UInt64 {
        let queue = WorkQueue(name: "backlog")
        queue.suspend()
        var last: Job<Void, Never>?
        for _ in 0..<n { last = try! queue.trySubmit("tiny") {} }
        let start = Clockwork.now()
        queue.resume()
        try! await last!.value
        await queue.waitUntilIdle()
        return Clockwork.now() - start
    }

    /// Submits `n` empty jobs to a fresh queue, then awaits each.
    static func tinyWorkQueueJobs(_ n: Int) async {
        let queue = WorkQueue(name: "tiny")
        var handles: [Job<Void, Never>] = []
        handles.reserveCapacity(n)
        for _ in 0..<n { handles.append(try! queue.trySubmit("tiny") {}) }
        for handle in handles { try! await handle.value }
    }

    // MARK: Graphs: chains, fan-in, fan-out

    private func graphs(runner: Runner, report: Report) {
        let (chain10k, chain100k) = runner.nanosecondsPerOperationAsync(operations: 10_000, against: 100_000) {
            await chain($0)
        }
        record(report, "chain/10k", chain10k, goal: "<= 5000 ns/job", met: chain10k.median <= 5000)
        record(
            report, "chain/100k", chain100k, anchor: ("chain/10k", chain10k), goal: "ratio <= 1.5 and <= 5000 ns/job",
            met: chain100k.median <= 1.5 * chain10k.median && chain100k.median <= 5000)

        let (fanIn10k, fanIn100k) = runner.nanosecondsPerOperationAsync(operations: 10_000, against: 100_000) {
            await fanIn($0)
        }
        record(
            report, "fan-in/100k → 1", fanIn100k, anchor: ("fan-in/10k → 1", fanIn10k),
            goal: "ratio <= 1.5 and <= 5000 ns/job",
            met: fanIn100k.median <= 1.5 * fanIn10k.median && fanIn100k.median <= 5000)

        let (fanOut10k, fanOut100k) = runner.nanosecondsPerOperationAsync(operations: 10_000, against: 100_000) {
            await fanOut($0)
        }
        record(
            report, "fan-out/1 → 100k", fanOut100k, anchor: ("fan-out/1 → 10k", fanOut10k),
            goal: "ratio <= 1.5 and <= 5000 ns/job",
            met: fanOut100k.median <= 1.5 * fanOut10k.median && fanOut100k.median <= 5000)

        // OperationQueue re-scans its operations at every scheduling event on Linux: one run only, it is slow.
        let once = Runner(repetitions: 1, warmups: 0, scale: runner.scale)
        let operationChain = once.nanosecondsPerOperation(operations: 8_000) { _, n in
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = WorkQueue.defaultWidth
            var previous: Operation?
            var operations: [Operation] = []
            operations.reserveCapacity(n)
            for _ in 0..<n {
                let operation = BlockOperation {}
                if let previous { operation.addDependency(previous) }
                operations.append(operation)
                previous = operation
            }
            queue.addOperations(operations, waitUntilFinished: true)
        }
        let chain8k = runner.nanosecondsPerOperationAsync(operations: 8_000) { await chain($0) }
        record(report, "chain/8k OperationQueue (1 run)", operationChain)
        record(report, "chain/8k WorkQueue", chain8k, anchor: ("OperationQueue 8k chain", operationChain))
    }

    private func chain(_ n: Int) async {
        let queue = WorkQueue(name: "chain")
        var previous = try! queue.trySubmit("link") {}
        for _ in 1..<n {
            previous = try! queue.trySubmit("link", options: JobOptions().after(previous)) {}
        }
        try! await previous.value
    }

    private func fanIn(_ n: Int) async {
        let queue = WorkQueue(name: "fan-in")
        var dependencies: [Dependency] = []
        dependencies.reserveCapacity(n - 1)
        for _ in 1..<n { dependencies.append(try! queue.trySubmit("leaf") {}.dependency()) }
        try! await queue.trySubmit("sink", options: JobOptions(dependencies: dependencies)) {}.value
    }

    private func fanOut(_ n: Int) async {
        let queue = WorkQueue(name: "fan-out")
        let root = try! queue.trySubmit("root", options: JobOptions(isHeld: true)) {}
        let options = JobOptions().after(root)
        for _ in 1..<n { try! queue.trySubmit("leaf", options: options) {} }
        root.release()
        await queue.waitUntilIdle()
    }

    // MARK: O(1) operations on pending jobs

    private func pendingOperations(runner: Runner, report: Report) {
        /// Times `operation` on 10k and on 100k pending jobs, alternating the sizes round by round so that a burst of
        /// load on the machine lands on both; the queue is built before the clock starts.
        func measure(_ operation: @escaping @Sendable ([Job<Void, Never>]) -> Void) -> (small: Sample, large: Sample) {
            var samples: [[Double]] = [[], []]
            for round in 0..<(runner.warmups + runner.repetitions) {
                for (slot, n) in [10_000, 100_000].enumerated() {
                    let count = max(1, Int(Double(n) * runner.scale))
                    let queue = WorkQueue(name: "pending", width: 1)
                    queue.suspend()
                    let jobs = (0..<count).map { _ in try! queue.trySubmit("pending") {} }
                    let start = Clockwork.now()
                    operation(jobs)
                    let elapsed = Clockwork.now() - start
                    queue.cancelAll()
                    if round >= runner.warmups { samples[slot].append(Double(elapsed) / Double(count)) }
                }
            }
            return (Sample(samples[0]), Sample(samples[1]))
        }
        let cancel = measure { for job in $0 { job.cancel() } }
        record(
            report, "cancel pending/100k", cancel.large, anchor: ("cancel pending/10k", cancel.small),
            goal: "ratio <= 1.5 (O(1) each)", met: cancel.large.median <= 1.5 * cancel.small.median)
        let levels = JobPriority.allLevels
        let priority = measure { jobs in for (index, job) in jobs.enumerated() { job.priority = levels[index % 5] } }
        record(
            report, "reprioritize pending/100k", priority.large, anchor: ("reprioritize pending/10k", priority.small),
            goal: "ratio <= 1.5 (O(1) each)", met: priority.large.median <= 1.5 * priority.small.median)
        let (leave10k, leave100k) = runner.nanosecondsPerOperationAsync(timing: 10_000, against: 100_000) {
            await Self.coalescedWaitersLeave($0)
        }
        record(
            report, "coalescer: waiters leave/100k", leave100k, anchor: ("waiters leave/10k", leave10k),
            goal: "ratio <= 2 (O(1) each)", met: leave100k.median <= 2 * leave10k.median)
        let (channel10k, channel100k) = runner.nanosecondsPerOperationAsync(timing: 10_000, against: 100_000) {
            await Self.channelWaitersLeave($0)
        }
        record(
            report, "channel: receivers leave/100k", channel100k, anchor: ("receivers leave/10k", channel10k),
            goal: "ratio <= 2 (O(1) each)", met: channel100k.median <= 2 * channel10k.median)
    }

    /// `n` tasks wait in `receive()` on an empty `BoundedChannel`; returns the nanoseconds it takes to cancel them
    /// all (in random order) and see each one leave. Joining is not timed.
    static func channelWaitersLeave(_ n: Int) async -> UInt64 {
        let channel = BoundedChannel<Int>(capacity: 1, name: "leave")
        let receivers = (0..<n).map { _ in Task { try? await channel.receive() } }
        while channel.waitingReceivers < n { await Task.yield() }
        var order = Array(receivers.indices)
        var random = SystemRandomNumberGenerator()
        order.shuffle(using: &random)
        let start = Clockwork.now()
        for index in order { receivers[index].cancel() }
        for receiver in receivers { _ = await receiver.value }
        return Clockwork.now() - start
    }

    /// Leaving waiters: each leave resumes a suspended task, and 100k of them (about 150 MB of task memory) do not
    /// fit in the caches the way 10k do, so these rows allow 2× between the sizes; a removal that is linear in the
    /// waiters makes the ratio about 10× (at 100k it takes minutes).
    ///
    /// `n` callers wait for one key of a `Coalescer` whose job cannot start (its queue is suspended); returns the
    /// nanoseconds it takes to cancel them all and see each one leave (in random order, so that neither end of the
    /// waiter list is favoured). Joining is not timed.
    static func coalescedWaitersLeave(_ n: Int) async -> UInt64 {
        let queue = WorkQueue(name: "coalesce", width: 1)
        queue.suspend()
        let coalescer = Coalescer<Int, Int>(queue: queue)
        let callers = (0..<n).map { _ in Task { try? await coalescer.value(for: 0) { $0 } } }
        while coalescer.waiterCount(for: 0) < n { await Task.yield() }
        var order = Array(callers.indices)
        var random = SystemRandomNumberGenerator()
        order.shuffle(using: &random)
        let start = Clockwork.now()
        for index in order { callers[index].cancel() }
        for caller in callers { _ = await caller.value }
        let elapsed = Clockwork.now() - start
        queue.cancelAll()
        return elapsed
    }

    // MARK: Memory per pending job

    /// Measured in a fresh child process (this executable, run with `SWITCHYARD_BENCH_PROBE`), where resident
    /// memory grows by exactly what the probe allocates; in this process earlier cases left freed heap behind.
    private func memory(runner: Runner, report: Report) {
        let count = max(10_000, Int(100_000 * runner.scale))
        guard let perJob = Self.runProbe("pending-jobs", count: count),
            let perTask = Self.runProbe("parked-tasks", count: count)
        else {
            report.note("memory probe failed to run; no memory row")
            return
        }
        var measurement = Measurement(suite: name, name: "memory/pending job (bytes)", nanosecondsPerOperation: perJob)
        measurement.anchor = ("parked Task (bytes)", perTask)
        measurement.goal = ("<= 512 bytes per pending job", perJob <= 512)
        measurement.extra = [("bytes_per_job", perJob), ("parked_task_bytes", perTask)]
        report.record(measurement)
        report.note("memory rows report bytes in the ns/op column")
    }

    private static func runProbe(_ kind: String, count: Int) -> Double? {
        ChildProcess.probe("\(kind):\(count)")
    }

    /// Runs in the child process: prints resident bytes per pending job or per parked task; `tiny-jobs:<rounds>`
    /// and `backlog:<rounds>` (for profilers) print that case's median ns per job.
    static func probe(_ specification: String) {
        let parts = specification.split(separator: ":")
        guard parts.count == 2, let count = Int(parts[1]) else { return }
        let before = PeakMemory.currentBytes() ?? 0
        var keepAlive: [Any] = []
        switch parts[0] {
        case "pending-jobs":
            let queue = WorkQueue(name: "memory", width: 1)
            queue.suspend()
            var jobs: [Job<Void, Never>] = []
            jobs.reserveCapacity(count)
            let base = PeakMemory.currentBytes() ?? 0
            for _ in 0..<count { jobs.append(try! queue.trySubmit("pending") {}) }
            let after = PeakMemory.currentBytes() ?? 0
            print(Double(after - base) / Double(count))
            keepAlive.append(jobs)
        case "parked-tasks":
            let gate = ParkedGate()
            let parked = DispatchSemaphore(value: 0)
            var tasks: [Task<Void, Never>] = []
            tasks.reserveCapacity(count)
            let base = PeakMemory.currentBytes() ?? 0
            for _ in 0..<count {
                tasks.append(
                    Task.detached {
                        await withCheckedContinuation { continuation in
                            gate.park(continuation)
                            parked.signal()
                        }
                    })
            }
            for _ in 0..<count { parked.wait() }
            let after = PeakMemory.currentBytes() ?? 0
            print(Double(after - base) / Double(count))
            keepAlive.append(tasks)
        case "backlog":
            // For profilers: `count` rounds of the backlog case; prints the median ns per job.
            let runner = Runner(repetitions: count, warmups: 1, scale: 1)
            print(runner.nanosecondsPerOperationAsync(timing: 100_000) { await backlogJobs($0) }.median)
        case "tiny-jobs":
            // For profilers: `count` rounds of the tiny-job case (100k jobs each); prints the median ns per job.
            let runner = Runner(repetitions: count, warmups: 1, scale: 1)
            print(runner.nanosecondsPerOperationAsync(operations: 100_000) { await tinyWorkQueueJobs($0) }.median)
        default:
            _ = before
        }
        withExtendedLifetime(keepAlive) {}
    }
}

/// Holds continuations of parked tasks until released.
private final class ParkedGate: Sendable {
    private let continuations = Mutex<[CheckedContinuation<Void, Never>]>([])

    func park(_ continuation: CheckedContinuation<Void, Never>) {
        continuations.withLock { $0.append(continuation) }
    }

    func releaseAll() {
        let all = continuations.withLock { continuations in
            defer { continuations = [] }
            return continuations
        }
        for continuation in all { continuation.resume() }
    }
}
