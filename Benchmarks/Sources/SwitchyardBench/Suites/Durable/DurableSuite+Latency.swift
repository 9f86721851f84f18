import Foundation
import NIOConcurrencyHelpers
import PostgresNIO
import Switchyard
import SwitchyardPostgres

extension DurableSuite {
    /// Enqueue-to-start latency with one idle, listening worker: `count` jobs, one at a time.
    func latency(_ client: PostgresClient, count: Int) async throws -> [Double] {
        let queue = try await freshQueue(client, "bench_durable_latency")
        let starts = NIOLockedValueBox<[Int64: ContinuousClock.Instant]>([:])
        let started = AsyncStream<Int64>.makeStream()
        var registry = DurableJobs()
        registry.register(Self.probe) { number, _ in
            starts.withLockedValue { $0[number] = .now }
            started.continuation.yield(number)
            return DurableNothing()
        }
        let worker = DurableWorker(
            queue: queue, jobs: registry,
            configuration: DurableWorkerConfiguration(
                name: "bench-latency", concurrency: 4, pollInterval: .seconds(1), retention: nil, migrates: false))
        var samples: [Double] = []
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await worker.run() }
            var iterator = started.stream.makeAsyncIterator()
            // The first job waits for the worker to register and LISTEN.
            _ = try await queue.enqueue(Self.probe, -1)
            _ = await iterator.next()
            try await Task.sleep(for: .milliseconds(200))
            for number in 0..<Int64(count) {
                let sent = ContinuousClock.now
                _ = try await queue.enqueue(Self.probe, number)
                while let next = await iterator.next(), next != number {}
                let start = starts.withLockedValue { $0[number] }!
                samples.append((start - sent).seconds * 1e3)
                try await Task.sleep(for: .milliseconds(2))  // the worker idle again, as between real jobs
            }
            worker.shutdown()
            try await group.waitForAll()
        }
        return samples
    }

    /// The drain times of `rounds` runs with `finished` finished jobs in the table.
    func finishedRows(_ client: PostgresClient, jobs: Int, finished: Int, rounds: Int) async throws -> [Double] {
        let queue = try await freshQueue(client, "bench_durable_full")
        try await client.query(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO bench_durable_full.jobs (kind, queue, state, priority, effective_priority, input,
                        output, attempt, max_attempts, backoff_ms, backoff_max_ms, run_at, created_at, started_at,
                        finished_at)
                    SELECT 'bench.noop', 'default', 'succeeded', 2, 2, to_jsonb(g), '{}'::jsonb, 1, 3, 1000, 300000,
                        now(), now(), now(), now()
                    FROM generate_series(1, \(finished)) g
                    """))
        try await client.query(PostgresQuery(unsafeSQL: "VACUUM ANALYZE bench_durable_full.jobs"))
        var drains: [Double] = []
        for _ in 0..<rounds {
            drains.append(try await throughput(queue, jobs: jobs).drain)
            try await client.query(
                PostgresQuery(unsafeSQL: "DELETE FROM bench_durable_full.jobs WHERE id > \(finished)"))
        }
        try await client.query(PostgresQuery(unsafeSQL: "DROP SCHEMA bench_durable_full CASCADE"))
        return drains
    }
}

/// Counts handler runs and lets one task wait for `target` of them.
final class DurableCounter: Sendable {
    private let state = NIOLockedValueBox<(count: Int, waiter: CheckedContinuation<Void, Never>?)>((0, nil))
    private let target: Int

    init(target: Int) { self.target = target }

    func increment() {
        let waiter = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            state.count += 1
            guard state.count >= target else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func done() async {
        await withCheckedContinuation { continuation in
            let reached = state.withLockedValue { state -> Bool in
                if state.count >= target { return true }
                state.waiter = continuation
                return false
            }
            if reached { continuation.resume() }
        }
    }
}
