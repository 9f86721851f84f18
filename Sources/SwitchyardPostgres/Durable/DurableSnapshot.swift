#if Postgres
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import PostgresNIO

    /// What a durable queue holds at one moment: its queues, its workers, what runs where, what waits and why, and
    /// the latest finished jobs. Read by ``DurableQueue/snapshot(limit:queue:)``; rendered by `description` (what
    /// `switchyard jobs` prints) and encodable as JSON.
    public struct DurableSnapshot: Sendable, Codable, CustomStringConvertible {
        /// A queue's unfinished jobs by state, and its width.
        public struct Queue: Sendable, Codable, Hashable {
            public var name: String
            public var width: Int?
            public var waiting: Int
            public var available: Int
            public var running: Int
        }

        /// A worker process, as registered.
        public struct Worker: Sendable, Codable, Hashable {
            public var name: String
            public var host: String
            public var pid: Int
            public var kinds: [String]
            public var queues: [String]
            public var concurrency: Int
            public var running: Int
            /// Seconds since its last lease renewal.
            public var secondsSinceSeen: Double
            /// Whether it renewed within its lease: false for a worker that died without unregistering.
            public var isAlive: Bool
        }

        /// A running or waiting job.
        public struct Job: Sendable, Codable, Hashable {
            public var id: Int64
            public var kind: String
            public var queue: String
            public var state: String
            public var priority: Int
            public var effectivePriority: Int
            public var attempt: Int
            public var completedUnits: Int64
            public var totalUnits: Int64
            /// The worker, for a running job.
            public var worker: String?
            /// Why it is not running, for a waiting or available job.
            public var reason: String?
            /// Seconds since it started (running) or was enqueued (waiting).
            public var age: Double
            public var isCancelRequested: Bool
            /// The error of the job's last failed attempt (a rescued job's says which worker stopped renewing it).
            public var lastError: String?
        }

        /// A finished job.
        public struct Finished: Sendable, Codable, Hashable {
            public var id: Int64
            public var kind: String
            public var queue: String
            /// `succeeded`, `failed` or `cancelled`.
            public var state: String
            /// Claims it took (a rescue or a retry is one more).
            public var attempts: Int
            /// Its error (failed, cancelled), or the last failed attempt's before it succeeded.
            public var error: String?
            public var finishedAt: Date
        }

        public var schema: String
        public var queues: [Queue]
        public var workers: [Worker]
        /// Running jobs, oldest first (up to the limit).
        public var running: [Job]
        /// Waiting and available jobs in claim order (up to the limit).
        public var waiting: [Job]
        /// The latest finished jobs, newest first (up to the limit).
        public var finished: [Finished]
        public var takenAt: Date
    }

    extension DurableQueue {
        /// Reads a snapshot of the queue: counts of unfinished jobs per queue, the workers, up to `limit` running and
        /// `limit` waiting jobs, and up to `limit` of the latest finished jobs. Several statements in one read-only
        /// repeatable-read transaction, so the parts agree. Cost: O(unfinished jobs) for the counts, O(limit) for the
        /// rest; finished jobs are read through their index only.
        ///
        /// With `queue`, the running and waiting jobs listed are that queue's only (the counts, workers and finished
        /// jobs still cover every queue).
        public func snapshot(limit: Int = 50, queue: String? = nil) async throws -> DurableSnapshot {
            let logger = logger
            return try await guarded { connection in
                try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
                do {
                    let snapshot = try await self.readSnapshot(connection, limit: limit, queue: queue)
                    try await connection.query("COMMIT", logger: logger)
                    return snapshot
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
        }

        private func readSnapshot(
            _ connection: PostgresConnection, limit: Int, queue: String?
        ) async throws -> DurableSnapshot {
            var queues: [DurableSnapshot.Queue] = []
            for try await (name, width, waiting, available, running) in try await connection.query(
                """
                SELECT q.name, w.width, q.waiting, q.available, q.running FROM (
                    SELECT c.queue AS name, coalesce(sum(c.n) FILTER (WHERE c.state = 'waiting'), 0)::bigint AS waiting,
                        coalesce(sum(c.n) FILTER (WHERE c.state = 'available'), 0)::bigint AS available,
                        coalesce(sum(c.n) FILTER (WHERE c.state = 'running'), 0)::bigint AS running
                    FROM (\(unescaped: unfinishedCountsSQL)
                        UNION ALL SELECT name, 'waiting', 0 FROM \(unescaped: s).queues) c
                    GROUP BY c.queue) q
                LEFT JOIN \(unescaped: s).queues w ON w.name = q.name
                ORDER BY q.name
                """, logger: logger
            ).decode((String, Int32?, Int64, Int64, Int64).self) {
                queues.append(
                    .init(
                        name: name, width: width.map(Int.init), waiting: Int(waiting), available: Int(available),
                        running: Int(running)))
            }
            var workers: [DurableSnapshot.Worker] = []
            for try await (name, host, pid, kinds, queueNames, concurrency, running, seen, alive)
                in try await connection
                .query(
                    """
                    SELECT w.name, w.host, w.pid, w.kinds, w.queues, w.concurrency,
                        (SELECT count(*) FROM \(unescaped: s).jobs j WHERE j.state = 'running' AND j.worker = w.id)::bigint,
                        extract(epoch FROM now() - w.seen_at)::double precision,
                        w.seen_at + w.lease_ms * interval '1 millisecond' > now()
                    FROM \(unescaped: s).workers w ORDER BY w.name, w.id
                    """, logger: logger
                ).decode((String, String, Int32, [String], [String], Int32, Int64, Double, Bool).self)
            {
                workers.append(
                    .init(
                        name: name, host: host, pid: Int(pid), kinds: kinds, queues: queueNames,
                        concurrency: Int(concurrency), running: Int(running), secondsSinceSeen: seen, isAlive: alive))
            }
            var bindings = PostgresBindings()
            bindings.append(queue)
            let inQueue = "($1::text IS NULL OR j.queue = $1)"
            let running = try await jobs(
                connection,
                """
                WHERE j.state = 'running' AND \(inQueue) ORDER BY j.started_at, j.id LIMIT \(limit)
                """, bindings)
            let waiting = try await jobs(
                connection,
                """
                WHERE j.state IN ('waiting', 'available') AND \(inQueue)
                ORDER BY j.state = 'waiting', j.effective_priority DESC, j.run_at, j.id LIMIT \(limit)
                """, bindings)
            var finished: [DurableSnapshot.Finished] = []
            for try await (id, kind, queue, state, error, attempts, at) in try await connection.query(
                """
                SELECT id, kind, queue, state, error, attempt, finished_at FROM \(unescaped: s).jobs
                WHERE state IN ('succeeded', 'failed', 'cancelled') AND finished_at IS NOT NULL
                ORDER BY finished_at DESC LIMIT \(limit)
                """, logger: logger
            ).decode((Int64, String, String, String, String?, Int32, Date).self) {
                finished.append(
                    .init(
                        id: id, kind: kind, queue: queue, state: state, attempts: Int(attempts), error: error,
                        finishedAt: at))
            }
            return DurableSnapshot(
                schema: schema, queues: queues, workers: workers, running: running, waiting: waiting,
                finished: finished, takenAt: Date())
        }

        /// Running or waiting jobs selected by `filter` (a `WHERE … ORDER BY … LIMIT …` on `jobs j`), with the worker
        /// and the reason a job is not running.
        private func jobs(
            _ connection: PostgresConnection, _ filter: String, _ bindings: PostgresBindings
        ) async throws -> [DurableSnapshot.Job] {
            let query = """
                SELECT j.id, j.kind, j.queue, j.state, j.priority, j.effective_priority, j.attempt,
                    j.progress_completed, j.progress_total,
                    (SELECT w.name || ' (' || w.host || ', pid ' || w.pid || ')' FROM \(s).workers w
                        WHERE w.id = j.worker),
                    CASE
                        WHEN j.state = 'running' THEN NULL
                        WHEN j.state = 'waiting' THEN 'waits for ' || j.pending || ' dependencies: ' || coalesce((
                            SELECT string_agg(e.parent::text, ', ' ORDER BY e.parent) FROM \(s).edges e
                            JOIN \(s).jobs p ON p.id = e.parent
                            WHERE e.child = j.id AND p.state IN ('waiting', 'available', 'running')), '')
                        WHEN j.run_at > now() AND j.failures > 0 THEN 'retry ' || (j.failures + 1) || ' of '
                            || j.max_attempts || ' at ' || to_char(j.run_at AT TIME ZONE 'UTC', 'HH24:MI:SS')
                            || ' UTC after: ' || coalesce(j.error, '')
                        WHEN j.run_at > now() THEN 'scheduled for '
                            || to_char(j.run_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') || ' UTC'
                        WHEN NOT EXISTS (SELECT 1 FROM \(s).workers w WHERE j.kind = ANY(w.kinds)
                            AND j.queue = ANY(w.queues) AND w.seen_at + w.lease_ms * interval '1 millisecond' > now())
                            THEN 'no live worker runs kind ' || j.kind || ' on queue ' || j.queue
                        WHEN (SELECT q.width FROM \(s).queues q WHERE q.name = j.queue) <= (SELECT count(*) FROM
                            \(s).jobs r WHERE r.state = 'running' AND r.queue = j.queue)
                            THEN 'queue ' || j.queue || ' is at its width'
                        ELSE 'ready: every worker slot is busy'
                    END,
                    extract(epoch FROM now() - CASE WHEN j.state = 'running' THEN j.started_at ELSE j.created_at END)
                        ::double precision,
                    j.cancel_requested, j.error
                FROM \(s).jobs j
                """ + "\n" + filter
            var result: [DurableSnapshot.Job] = []
            for try await row in try await connection.query(
                PostgresQuery(unsafeSQL: query, binds: bindings), logger: logger)
            {
                let r = try row.decode(
                    (
                        Int64, String, String, String, Int16, Int16, Int32, Int64, Int64, String?, String?, Double,
                        Bool,
                        String?
                    ).self)
                result.append(
                    .init(
                        id: r.0, kind: r.1, queue: r.2, state: r.3, priority: Int(r.4), effectivePriority: Int(r.5),
                        attempt: Int(r.6), completedUnits: r.7, totalUnits: r.8, worker: r.9, reason: r.10, age: r.11,
                        isCancelRequested: r.12, lastError: r.13))
            }
            return result
        }
    }
#endif
