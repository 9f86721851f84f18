#if Postgres
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import Logging
    import PostgresNIO

    extension DurableWorker {
        /// Rescues, enqueues due periodic jobs, samples depths and prunes, every maintenance interval.
        func maintenanceLoop() async {
            var lastPrune = ContinuousClock.now
            repeat {
                do {
                    try await rescue()
                    try await forgetGoneWorkers()
                    try await enqueueDuePeriodicJobs()
                    try await sampleDepths()
                    if let retention = configuration.retention, ContinuousClock.now - lastPrune > .seconds(600) {
                        lastPrune = .now
                        let pruned = try await queue.prune(finishedBefore: retention)
                        if pruned > 0 { logger.info("durable worker pruned \(pruned) finished jobs") }
                    }
                } catch {
                    logger.warning("durable worker maintenance failed: \(error)")
                }
            } while await pause(configuration.maintenanceInterval)
        }

        /// Retries (or fails) the jobs whose lease expired.
        func rescue() async throws {
            let s = queue.s
            let rows = try await queue.fetch("SELECT job_id, job_state FROM \(unescaped: s).rescue()") {
                try $0.decode((Int64, String).self)
            }
            let rescued = rows.count
            for (id, state) in rows {
                logger.info("durable job rescued: its lease expired", metadata: ["job": "\(id)", "state": "\(state)"])
            }
            if rescued > 0 { metrics.rescued.increment(by: rescued) }
        }

        /// Deletes the rows of workers that stopped renewing ten leases ago (killed, or cut off): until then the
        /// snapshot shows them as gone.
        func forgetGoneWorkers() async throws {
            let s = queue.s
            try await queue.execute(
                """
                DELETE FROM \(unescaped: s).workers
                WHERE seen_at + lease_ms * 10 * interval '1 millisecond' < now()
                """)
        }

        /// Enqueues one job per due periodic schedule and advances its next tick, in one transaction that skips
        /// schedules another worker holds: each tick is enqueued once across all workers. Ticks missed while no
        /// worker ran are not caught up: the schedule fires once, then moves to its next tick after now.
        func enqueueDuePeriodicJobs() async throws {
            let s = queue.s
            let logger = logger
            let queue = queue
            try await queue.transaction { connection in
                let rows = try await connection.query(
                    """
                    SELECT name, kind, queue, schedule, coalesce(input::text, ''),
                        extract(epoch FROM next_at)::bigint, extract(epoch FROM now())::bigint
                    FROM \(unescaped: s).periodic WHERE next_at <= now() FOR UPDATE SKIP LOCKED
                    """, logger: logger)
                var due: [(String, String, String, String, String, Int64, Int64)] = []
                for try await row in rows.decode((String, String, String, String, String, Int64, Int64).self) {
                    due.append(row)
                }
                for (name, kind, queueName, expression, input, tick, now) in due {
                    let next = (try? CronSchedule(expression))?.nextTick(after: now) ?? Int64.max
                    var request = EnqueueRequest(
                        kind: kind, encodedInputs: [input], options: DurableJobOptions(queue: queueName))
                    request.keys = ["periodic:\(name):\(tick)"]
                    let _: [DurableJob<DurableNothing>] = try await queue.run(request, on: connection)
                    try await connection.query(
                        """
                        UPDATE \(unescaped: s).periodic SET next_at = to_timestamp(\(Double(min(next, 253_402_300_799))))
                        WHERE name = \(name)
                        """, logger: logger)
                    logger.info("periodic job enqueued", metadata: ["schedule": "\(name)", "kind": "\(kind)"])
                }
            }
        }

        /// Samples the number of unfinished jobs by queue and state into the `switchyard_durable_jobs` gauge.
        func sampleDepths() async throws {
            let rows = try await queue.fetch(PostgresQuery(unsafeSQL: queue.unfinishedCountsSQL)) {
                try $0.decode((String, String, Int64).self)
            }
            var seen: Set<String> = []
            for (queueName, state, count) in rows {
                metrics.sampled(queue: queueName, state: state, count: Int(count))
                seen.insert(queueName + "\u{0}" + state)
            }
            for queueName in configuration.queues {
                for state in ["waiting", "available", "running"] where !seen.contains(queueName + "\u{0}" + state) {
                    metrics.sampled(queue: queueName, state: state, count: 0)
                }
            }
        }
    }

    extension DurableQueue {
        /// Schedules a job of `kind` with `input` on `cron`'s ticks (UTC), under `name`: at each tick, one job is
        /// enqueued across all workers (a worker's maintenance enqueues it within its maintenance interval). Calling
        /// it again with the same name replaces the kind, input and queue, and keeps the next tick unless the schedule
        /// changed. Safe to call from every worker at start.
        public func schedule<Input, Output>(
            _ name: String, _ kind: DurableJobKind<Input, Output>, _ input: Input, cron: CronSchedule,
            queue queueName: String = "default"
        ) async throws {
            let encoded = try DurableJobs.encode(input)
            let now = Int64(Date().timeIntervalSince1970)
            let next = Double(min(cron.nextTick(after: now), 253_402_300_799))
            try await execute(
                """
                INSERT INTO \(unescaped: s).periodic (name, kind, queue, schedule, input, next_at)
                VALUES (\(name), \(kind.name), \(queueName), \(cron.description), \(encoded)::jsonb, to_timestamp(\(next)))
                ON CONFLICT (name) DO UPDATE SET kind = EXCLUDED.kind, queue = EXCLUDED.queue,
                    input = EXCLUDED.input, schedule = EXCLUDED.schedule,
                    next_at = CASE WHEN periodic.schedule = EXCLUDED.schedule THEN periodic.next_at
                        ELSE EXCLUDED.next_at END
                """)
        }

        /// Removes the periodic schedule `name` (jobs it enqueued stay).
        public func unschedule(_ name: String) async throws {
            try await execute("DELETE FROM \(unescaped: s).periodic WHERE name = \(name)")
        }
    }
#endif
