import Foundation
import PostgresNIO
import Switchyard
import SwitchyardPostgres

/// `durable`: the PostgreSQL work queue (`DurableQueue`, `DurableWorker`) on the server of `SWITCHYARD_POSTGRES_URL`
/// (`Scripts/postgres-dev.sh start` prints one; CI exports it), against the Python queues PgQueuer and procrastinate
/// on the same server in the same run (`Scripts/install-durable-anchors.sh` installs them).
///
/// - **No-op throughput**: 20,000 jobs enqueued in bulk, then drained by 4 workers (ours: 4 `DurableWorker`s of 256
///   slots in this process; the anchors: 4 concurrent consumers of one process each, PgQueuer's taking batches of
///   200). Timed until every outcome is written. Goal: ≥ 2× the faster anchor's jobs/s.
/// - **Bulk enqueue**: jobs/s of `enqueue(_:many:)`. Goal: ≥ 50,000 jobs/s.
/// - **Enqueue-to-start latency** with an idle, listening worker: 300 jobs enqueued one at a time, each after the
///   previous one started; from the enqueue call to the handler's first line. Goals: p50 ≤ 5 ms, p99 ≤ 50 ms.
/// - **Finished rows**: throughput again with 1,000,000 finished jobs in the table. Goal: within 20% of the empty
///   table's.
struct DurableSuite: BenchmarkSuite {
    let name = "durable"
    let summary = "PostgreSQL work queue: no-op throughput vs PgQueuer and procrastinate, bulk enqueue, latency"

    static let noop = DurableJobKind<Int, DurableNothing>("bench.noop")
    static let probe = DurableJobKind<Int64, DurableNothing>("bench.latency")

    func run(runner: Runner, report: Report) {
        guard let text = ProcessInfo.processInfo.environment["SWITCHYARD_POSTGRES_URL"],
            let url = try? PostgresURL(text)
        else {
            report.note(
                "SWITCHYARD_POSTGRES_URL is not set (Scripts/postgres-dev.sh start): the durable suite is skipped")
            return
        }
        let jobs = max(1_000, Int(20_000 * runner.scale))
        let quick = runner.scale < 1
        var notes: [String] = []
        let anchors = ["pgqueuer", "procrastinate"].compactMap { name in
            DurableAnchor.run(name, url: text, jobs: jobs, workers: 4) { notes.append($0) }
        }
        do {
            let results = try blockingRun { try await measure(url: url, jobs: jobs, quick: quick) }
            record(results, anchors: anchors, jobs: jobs, report: report)
        } catch {
            notes.append("durable suite failed: \(error)")
        }
        notes.forEach(report.note)
    }

    /// What the suite measured of ours.
    struct Results: Sendable {
        var enqueues: [Double] = []
        var drains: [Double] = []
        var latencies: [Double] = []
        var finishedRows = 0
        var drainsWithFinishedRows: [Double] = []
    }

    private func measure(url: PostgresURL, jobs: Int, quick: Bool) async throws -> Results {
        let client = try await PostgresClient(url: url, maximumConnections: 24)
        let running = Task { await client.run() }
        defer { running.cancel() }
        var results = Results()
        for _ in 0..<(quick ? 1 : 3) {
            let queue = try await freshQueue(client, "bench_durable")
            let (enqueue, drain) = try await throughput(queue, jobs: jobs)
            results.enqueues.append(enqueue)
            results.drains.append(drain)
        }
        results.latencies = try await latency(client, count: quick ? 100 : 300)
        results.finishedRows = quick ? 100_000 : 1_000_000
        results.drainsWithFinishedRows = try await finishedRows(
            client, jobs: jobs, finished: results.finishedRows, rounds: quick ? 1 : 3)
        return results
    }

    private func record(_ results: Results, anchors: [DurableAnchor], jobs: Int, report: Report) {
        let perJob = { (seconds: Double) in seconds / Double(jobs) * 1e9 }
        let best = anchors.map(\.drainSeconds).min()
        for anchor in anchors {
            var row = Measurement(
                suite: name, name: "no-op drain, 4 workers: \(anchor.name) \(anchor.version) (anchor)",
                nanosecondsPerOperation: perJob(anchor.drainSeconds))
            row.extra = [("jobs_per_second", Double(jobs) / anchor.drainSeconds)]
            report.record(row)
        }
        let drain = Clockwork.median(results.drains)
        var ours = Measurement(
            suite: name, name: "no-op drain, 4 workers: DurableWorker", nanosecondsPerOperation: perJob(drain))
        ours.range = (perJob(results.drains.min()!), perJob(results.drains.max()!))
        ours.extra = [("jobs_per_second", Double(jobs) / drain)]
        if let best { ours.anchor = ("the faster anchor", perJob(best)) }
        ours.goal = (">= 2x the faster anchor's jobs/s", best.map { drain * 2 <= $0 } ?? false)
        report.record(ours)
        if best == nil {
            report.note(
                "durable: no anchor ran (Scripts/install-durable-anchors.sh installs them): the goal cannot be met")
        }
        let enqueue = Clockwork.median(results.enqueues)
        var bulk = Measurement(
            suite: name, name: "bulk enqueue (enqueue(_:many:))", nanosecondsPerOperation: perJob(enqueue))
        bulk.extra = [("jobs_per_second", Double(jobs) / enqueue)]
        bulk.goal = (">= 50,000 jobs/s", Double(jobs) / enqueue >= 50_000)
        report.record(bulk)

        let samples = results.latencies.sorted()
        let p50 = samples[samples.count / 2]
        let p99 = samples[min(samples.count - 1, Int(Double(samples.count) * 0.99))]
        report.recordValues(
            suite: name, name: "enqueue-to-start latency, idle worker, LISTEN (ms)",
            values: [("p50_ms", p50), ("p99_ms", p99), ("max_ms", samples.last!), ("jobs", Double(samples.count))],
            goal: ("p50 <= 5 ms, p99 <= 50 ms", p50 <= 5 && p99 <= 50))

        let full = Clockwork.median(results.drainsWithFinishedRows)
        var row = Measurement(
            suite: name, name: "no-op drain with \(results.finishedRows) finished rows in the table",
            nanosecondsPerOperation: perJob(full))
        row.extra = [("jobs_per_second", Double(jobs) / full), ("finished_rows", Double(results.finishedRows))]
        row.anchor = ("empty table", perJob(drain))
        row.goal = ("within 20% of the empty table's jobs/s", full <= drain * 1.2)
        report.record(row)
    }

    /// A migrated queue in a new schema `name` (dropped first).
    func freshQueue(_ client: PostgresClient, _ schema: String) async throws -> DurableQueue {
        try await client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"))
        let queue = DurableQueue(client: client, schema: schema)
        try await queue.migrate()
        return queue
    }

    /// Enqueues `jobs` no-op jobs in bulk, then drains them with 4 workers: the seconds of each.
    func throughput(_ queue: DurableQueue, jobs: Int) async throws -> (enqueue: Double, drain: Double) {
        let enqueueStart = ContinuousClock.now
        _ = try await queue.enqueue(Self.noop, many: Array(0..<jobs))
        let enqueue = (ContinuousClock.now - enqueueStart).seconds
        let counter = DurableCounter(target: jobs)
        var registry = DurableJobs()
        registry.register(Self.noop) { _, _ in
            counter.increment()
            return DurableNothing()
        }
        let configuration = DurableWorkerConfiguration(
            concurrency: 256, pollInterval: .milliseconds(200), maintenanceInterval: .seconds(5), retention: nil,
            migrates: false)
        let workers = (0..<4).map { index in
            var configuration = configuration
            configuration.name = "bench-\(index)"
            return DurableWorker(queue: queue, jobs: registry, configuration: configuration)
        }
        let started = ContinuousClock.now
        let drain = try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in workers { group.addTask { try await worker.run() } }
            await counter.done()
            // Drained when every outcome is written, not only when every handler ran: no job left running (a read
            // of the partial index of running jobs, so the check costs the server next to nothing).
            while try await count(queue, "state = 'running'") > 0 { try await Task.sleep(for: .milliseconds(2)) }
            let drained = (ContinuousClock.now - started).seconds
            for worker in workers { worker.shutdown() }
            try await group.waitForAll()
            return drained
        }
        return (enqueue, drain)
    }

    /// The number of jobs matching `condition`.
    func count(_ queue: DurableQueue, _ condition: String) async throws -> Int {
        let rows = try await queue.client.query(
            PostgresQuery(unsafeSQL: "SELECT count(*)::bigint FROM \(queue.schema).jobs WHERE \(condition)"))
        for try await value in rows.decode(Int64.self) { return Int(value) }
        return 0
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
