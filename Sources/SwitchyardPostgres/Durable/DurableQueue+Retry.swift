#if Postgres
    import PostgresNIO

    extension DurableQueue {
        /// Runs a failed or cancelled job again: it becomes available at once, with its retry count started over
        /// (its attempt number goes on, so an attempt of its earlier life can still not complete it), and a worker
        /// claims it as any other. Jobs that were cancelled or failed because of it stay as they are: enqueue them
        /// again, or retry them after it succeeds.
        ///
        /// A job whose dependencies have not all succeeded cannot be retried (it would run without their outputs),
        /// nor can one with a unique key that an unfinished job now holds.
        ///
        /// - Returns: ``DurableJobState/available``.
        /// - Throws: ``DurableError/Kind/noSuchJob``; ``DurableError/Kind/notRetryable`` (with the reason).
        @discardableResult
        public func retry(_ id: Int64) async throws -> DurableJobState {
            let channel = DurableSchema.jobsChannel(schema)
            let queues = try await retryingDeadlocks {
                try await self.fetch(
                    """
                    WITH retried AS (
                        UPDATE \(unescaped: s).jobs j SET state = 'available', run_at = now(), failures = 0,
                            pending = 0, finished_at = NULL, cancel_requested = false, worker = NULL,
                            lease_until = NULL, output = NULL, progress_completed = 0
                        WHERE j.id = \(id) AND j.state IN ('failed', 'cancelled')
                            AND NOT EXISTS (SELECT 1 FROM \(unescaped: s).edges e JOIN \(unescaped: s).jobs p
                                ON p.id = e.parent WHERE e.child = j.id AND p.state <> 'succeeded')
                            AND (j.unique_key IS NULL OR NOT EXISTS (SELECT 1 FROM \(unescaped: s).jobs u
                                WHERE u.unique_key = j.unique_key AND u.state IN ('waiting', 'available', 'running')))
                        RETURNING j.queue)
                    SELECT queue, pg_notify(\(channel), queue)::text FROM retried
                    """
                ) { try $0.decode((String, String).self).0 }
            }
            if !queues.isEmpty { return .available }
            let status = try await status(of: id)
            let reason =
                [.failed, .cancelled].contains(status.state)
                ? "a dependency has not succeeded, or an unfinished job holds its unique key"
                : "it is \(status.state), not failed or cancelled"
            throw DurableError(.notRetryable, jobID: id, "job \(id) cannot be retried: \(reason)")
        }
    }
#endif
