#if Postgres
    import Logging
    import PostgresNIO
    import Switchyard

    /// A job as the claim statement hands it over.
    struct ClaimedJob: Sendable {
        var id: Int64
        var kind: String
        var queue: String
        var attempt: Int32
        var failures: Int32
        var input: String
        var timeout: Duration?
        var priority: JobPriority
    }

    extension DurableWorker {
        /// Claims whenever rung, until draining or cancelled; starts each claimed attempt in `attempts`.
        func claimLoop(_ attempts: inout DiscardingTaskGroup, bell: inout AsyncStream<Void>.Iterator) async {
            var backoff = DurableBackoff()
            // While most slots are busy, a freed slot waits up to 2 ms for others, so that a claim takes several
            // jobs at once rather than one per round trip (short jobs), at the cost of 2 ms of idle slot at most.
            let batch = max(1, configuration.concurrency / 4)
            while !Task.isCancelled {
                var free = state.withLockedValue { $0.freeSlots }
                if free > 0, free < batch, runningCount > 0 {
                    guard await pause(.milliseconds(2)) else { return }
                    free = state.withLockedValue { $0.freeSlots }
                }
                if free > 0 {
                    do {
                        let claimed = try await claim(free)
                        backoff.reset()
                        for job in claimed { start(job, in: &attempts) }
                        if claimed.count == free { continue }
                    } catch {
                        logger.warning(
                            "durable worker cannot claim: \(error)", metadata: ["worker": "\(configuration.name)"])
                        await releaseUntracked()
                        guard await pause(backoff.take()) else { return }
                        continue
                    }
                } else if state.withLockedValue({ $0.isDraining }) {
                    return
                }
                guard await bell.next() != nil else { return }
            }
        }

        /// After a claim whose answer was lost (it may have committed): the jobs leased to this worker that no attempt
        /// here runs or waits to report go back to available at once, not counted as failures. Best effort: when the
        /// server is away, they are rescued when their lease expires.
        private func releaseUntracked() async {
            guard let worker = workerID.withLockedValue({ $0 }) else { return }
            let tracked = state.withLockedValue { state in
                state.running.keys.map(\.id) + state.completions.map(\.id)
            }
            let s = queue.s
            try? await queue.execute(
                """
                UPDATE \(unescaped: s).jobs SET state = 'available', worker = NULL, lease_until = NULL
                WHERE worker = \(worker) AND state = 'running' AND NOT (id = ANY(\(tracked)))
                """)
        }

        /// One claim statement for up to `limit` jobs.
        private func claim(_ limit: Int) async throws -> [ClaimedJob] {
            guard let worker = workerID.withLockedValue({ $0 }) else { return [] }
            let s = queue.s
            let started = ContinuousClock.now
            let rows = try await queue.fetch(
                """
                SELECT job_id, job_kind, job_queue, job_attempt, job_failures, job_input, job_timeout_ms, job_priority
                FROM \(unescaped: s).claim(\(worker), \(jobs.kinds), \(configuration.queues), \(Int32(limit)),
                    \(configuration.leaseDuration.durableMilliseconds))
                """
            ) { try $0.decode((Int64, String, String, Int32, Int32, String?, Int64?, Int16).self) }
            var claimed: [ClaimedJob] = []
            for (id, kind, queueName, attempt, failures, input, timeout, priority) in rows {
                claimed.append(
                    ClaimedJob(
                        id: id, kind: kind, queue: queueName, attempt: attempt, failures: failures,
                        input: input ?? "null", timeout: timeout.map { .milliseconds($0) },
                        priority: JobPriority.allLevels[min(max(Int(priority), 0), JobPriority.levelCount - 1)]))
                state.withLockedValue { $0.claimed(id, attempt: attempt) }
            }
            metrics.claimed(since: started)
            return claimed
        }

        /// Starts `job`'s attempt as a child task of `attempts`.
        private func start(_ job: ClaimedJob, in attempts: inout DiscardingTaskGroup) {
            attempts.addTask { await self.execute(job) }
        }

        /// Runs one attempt to its end and records its outcome.
        private func execute(_ job: ClaimedJob) async {
            var logger = self.logger
            if logger.logLevel <= .info {
                logger[metadataKey: "job"] = "\(job.id)"
                logger[metadataKey: "kind"] = "\(job.kind)"
            }
            logger.debug("durable job started", metadata: ["attempt": "\(job.attempt)"])
            let (id, attempt) = (job.id, job.attempt)
            let context = DurableJobContext(
                jobID: id, attempt: Int(attempt), failures: Int(job.failures), kind: job.kind, queue: job.queue,
                logger: logger, durable: queue
            ) { [state] completed, total in
                state.withLockedValue { $0.progress(id, attempt: attempt, completed: completed, total: total) }
            } completed: { [state] in
                state.withLockedValue { $0.completedInTransaction(id, attempt: attempt) }
            }
            let handler = jobs.handlers[job.kind]!
            let began = ContinuousClock.now
            let task = Task<Result<String, any Error>, Never>(priority: job.priority.taskPriority) {
                do {
                    return .success(try await handler(job.input, context))
                } catch {
                    return .failure(error)
                }
            }
            if let cancel = state.withLockedValue({ $0.attach({ task.cancel() }, to: id, attempt: attempt) }) {
                cancel()
            }
            let timer = job.timeout.map { timeout in
                Task { [state] in
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    state.withLockedValue { $0.stop(id, attempt: attempt, .timedOut) }?()
                }
            }
            let result = await withTaskCancellationHandler {
                await task.value
            } onCancel: { [state] in
                state.withLockedValue { $0.stop(id, attempt: attempt, .shutdown) }?()
            }
            timer?.cancel()
            let completion = state.withLockedValue { state in
                let completion = state.completion(
                    id, attempt: attempt, result: result, completedInTransaction: context.isCompleted,
                    timeout: job.timeout)
                state.ended(id, attempt: attempt, completion: completion)
                return completion
            }
            let outcome = Self.outcomeName(completion, completedInTransaction: context.isCompleted)
            metrics.ended(queue: job.queue, kind: job.kind, outcome: outcome, duration: ContinuousClock.now - began)
            if case .failure(let error) = result, completion?.outcome == 1 {
                logger.info("durable job attempt failed: \(error)", metadata: ["attempt": "\(attempt)"])
            } else {
                logger.debug("durable job ended", metadata: ["outcome": "\(outcome)"])
            }
            if completion != nil { flushBell.yield() }
            claimBell.yield()
        }

        /// The `outcome` dimension of an ended attempt.
        static func outcomeName(_ completion: DurableWorkerState.Completion?, completedInTransaction: Bool) -> String {
            if completedInTransaction { return "succeeded" }
            switch completion?.outcome {
            case 0: return "succeeded"
            case 1: return "failed"
            case 2: return "failed"
            case 3: return "cancelled"
            case 4: return "released"
            default: return "stale"
            }
        }
    }
#endif
