#if Postgres
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import PostgresNIO

    extension DurableQueue {
        /// Waits until `job` has finished and returns its output.
        ///
        /// Reads the job's row: at once, then every 5 ms, backing off to every 500 ms. Cancelling the waiting task
        /// stops the wait (with `CancellationError`) and leaves the job alone; call ``cancel(_:)`` to cancel it.
        ///
        /// - Throws: ``DurableError/Kind/jobFailed`` or ``DurableError/Kind/jobCancelled`` with the job's error;
        ///   ``DurableError/Kind/noSuchJob``; ``DurableError/Kind/undecodable`` when the stored output is not an
        ///   `Output`.
        public func result<Output>(of job: DurableJob<Output>) async throws -> Output {
            var wait = Duration.milliseconds(5)
            while true {
                let found = try await fetch(
                    "SELECT state, output::text, error FROM \(unescaped: s).jobs WHERE id = \(job.id)"
                ) { try $0.decode((String, String?, String?).self) }
                guard let (state, output, error) = found.first else {
                    throw DurableError(.noSuchJob, jobID: job.id, "no such job (never enqueued, or pruned)")
                }
                switch DurableJobState(rawValue: state) {
                case .succeeded:
                    do {
                        return try JSONDecoder().decode(Output.self, from: Data((output ?? "null").utf8))
                    } catch {
                        throw DurableError(
                            .undecodable, jobID: job.id, "its output does not decode as \(Output.self): \(error)")
                    }
                case .failed:
                    throw DurableError(.jobFailed, jobID: job.id, error ?? "failed")
                case .cancelled:
                    throw DurableError(.jobCancelled, jobID: job.id, error ?? "cancelled")
                default:
                    try await Task.sleep(for: wait)
                    wait = min(wait * 2, .milliseconds(500))
                }
            }
        }

        /// Cancels the job `id`: one not yet running is cancelled at once (and its dependents by their edges'
        /// policies); a running one is asked to stop, and its worker cancels the attempt's `Task` (within a second:
        /// NOTIFY on the cancel channel, and the answer to its next lease renewal in any case). A finished job is
        /// left as it is.
        ///
        /// - Returns: the job's state right after the call (`running` while a running attempt winds down).
        /// - Throws: ``DurableError/Kind/noSuchJob``.
        @discardableResult
        public func cancel(_ id: Int64) async throws -> DurableJobState {
            let state = try await retryingDeadlocks {
                try await fetch("SELECT job_state FROM \(unescaped: s).cancel(\([id]))") { try $0.decode(String.self) }
                    .first
            }
            guard let state else {
                throw DurableError(.noSuchJob, jobID: id, "no such job (never enqueued, or pruned)")
            }
            return DurableJobState(rawValue: state) ?? .cancelled
        }

        /// The job `id`'s row now.
        ///
        /// - Throws: ``DurableError/Kind/noSuchJob``.
        public func status(of id: Int64) async throws -> DurableJobStatus {
            let rows = try await fetch(
                """
                SELECT j.id, j.kind, j.queue, j.state, j.attempt, j.failures, j.max_attempts, j.priority,
                    j.effective_priority, j.error, j.output::text, j.progress_completed, j.progress_total, j.pending,
                    j.created_at, j.run_at, j.started_at, j.finished_at,
                    (SELECT w.name || ' (' || w.host || ', pid ' || w.pid || ')' FROM \(unescaped: s).workers w
                        WHERE w.id = j.worker),
                    j.cancel_requested
                FROM \(unescaped: s).jobs j WHERE j.id = \(id)
                """
            ) { try DurableJobStatus($0) }
            if let status = rows.first { return status }
            throw DurableError(.noSuchJob, jobID: id, "no such job (never enqueued, or pruned)")
        }

        /// Deletes finished jobs (succeeded, failed, cancelled) that finished more than `age` ago, with their
        /// dependency edges, in batches of 10,000 (each its own statement, so no lock is held long).
        ///
        /// - Returns: the number of jobs deleted.
        @discardableResult
        public func prune(finishedBefore age: Duration) async throws -> Int {
            var total = 0
            while true {
                let counts = try await fetch(
                    """
                    WITH gone AS (
                        DELETE FROM \(unescaped: s).jobs WHERE id IN (
                            SELECT id FROM \(unescaped: s).jobs
                            WHERE state IN ('succeeded', 'failed', 'cancelled')
                                AND finished_at < now() - \(age.durableMilliseconds) * interval '1 millisecond'
                            LIMIT 10000)
                        RETURNING id),
                    edges AS (
                        DELETE FROM \(unescaped: s).edges e USING gone
                        WHERE e.parent = gone.id OR e.child = gone.id)
                    SELECT count(*)::bigint FROM gone
                    """
                ) { try $0.decode(Int64.self) }
                let deleted = Int(counts.first ?? 0)
                total += deleted
                if deleted < 10_000 { return total }
            }
        }
    }

    extension DurableJobStatus {
        /// A row of `DurableQueue.status(of:)`'s query.
        init(_ row: PostgresRow) throws {
            let all = try row.decode(
                (
                    Int64, String, String, String, Int, Int, Int, Int16, Int16, String?, String?, Int64, Int64, Int,
                    Date, Date, Date?, Date?, String?, Bool
                ).self)
            self.init(
                id: all.0, kind: all.1, queue: all.2, state: DurableJobState(rawValue: all.3) ?? .available,
                attempt: all.4, failures: all.5, maximumAttempts: all.6, priority: Int(all.7),
                effectivePriority: Int(all.8), error: all.9, outputJSON: all.10, completedUnits: all.11,
                totalUnits: all.12, pendingDependencies: all.13, createdAt: all.14, runAt: all.15, startedAt: all.16,
                finishedAt: all.17, worker: all.18, isCancelRequested: all.19)
        }
    }
#endif
