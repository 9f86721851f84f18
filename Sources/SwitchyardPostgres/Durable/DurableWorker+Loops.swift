#if Postgres
    import Logging
    import PostgresNIO

    extension DurableWorker {
        /// Renews the leases of the running attempts every third of the lease.
        func renewLoop() async {
            let interval = configuration.leaseDuration / 3
            var lastRenewal = ContinuousClock.now
            while await pause(interval) {
                do {
                    try await renew()
                    lastRenewal = .now
                } catch {
                    logger.warning("durable worker cannot renew its leases: \(error)")
                    // Past the lease, the jobs are (or will be) rescued elsewhere: stop their attempts here.
                    if ContinuousClock.now - lastRenewal > configuration.leaseDuration {
                        let cancellers = state.withLockedValue { state in
                            state.renewed(
                                sent: state.renewals().map { .init(id: $0.id, attempt: $0.attempt) }, answered: [])
                        }
                        cancellers.forEach { $0() }
                    }
                }
            }
        }

        /// One renewal statement for every running attempt (also the worker's heartbeat).
        func renew() async throws {
            guard let worker = workerID.withLockedValue({ $0 }) else { return }
            let renewals = state.withLockedValue { $0.renewals() }
            let s = queue.s
            let answered = try await queue.fetch(
                """
                SELECT job_id, job_attempt, cancel FROM \(unescaped: s).renew(\(worker), \(renewals.map(\.id)),
                    \(renewals.map(\.attempt)), \(renewals.map(\.completed)), \(renewals.map(\.total)),
                    \(configuration.leaseDuration.durableMilliseconds))
                """
            ) { row -> (id: Int64, attempt: Int32, cancel: Bool) in try row.decode((Int64, Int32, Bool).self) }
            let sent = renewals.map { DurableWorkerState.AttemptKey(id: $0.id, attempt: $0.attempt) }
            let cancellers = state.withLockedValue { $0.renewed(sent: sent, answered: answered) }
            if !cancellers.isEmpty {
                logger.info("durable worker stops \(cancellers.count) attempts (cancelled, or their lease was lost)")
            }
            cancellers.forEach { $0() }
        }

        /// Writes outcomes whenever some wait, until the flush bell is finished (every attempt has ended); then
        /// writes what is left, in a task no cancellation reaches.
        func flushLoop() async {
            for await _ in flushRings {
                await writeOutcomes(final: false)
            }
            await Task { await self.writeOutcomes(final: true) }.value
        }

        /// Writes the waiting outcomes, 5,000 per statement, fenced by attempt. On failure they are put back and
        /// retried with backoff; `final` retries for up to a lease's time, then leaves them to rescue.
        func writeOutcomes(final: Bool) async {
            var backoff = DurableBackoff()
            let deadline = ContinuousClock.now + configuration.leaseDuration
            while true {
                let batch = state.withLockedValue { $0.takeCompletions(5_000) }
                if batch.isEmpty { return }
                do {
                    try await finish(batch)
                    backoff.reset()
                } catch let error as PSQLError where Self.isDataError(error) {
                    await writeOneByOne(batch)
                } catch {
                    state.withLockedValue { $0.putBack(batch) }
                    logger.warning("durable worker cannot write \(batch.count) outcomes: \(error)")
                    if final && ContinuousClock.now > deadline { return }
                    guard await pause(backoff.take()) else { return }
                }
            }
        }

        /// One `finish` statement.
        /// Whether the server refused a statement's data (SQLSTATE classes 22 and 23): writing it again cannot help.
        static func isDataError(_ error: PSQLError) -> Bool {
            guard let state = error.serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("22") || state.hasPrefix("23")
        }

        /// Writes a batch the server refused one outcome at a time, so that one outcome it cannot store does not hold
        /// back the others: that one fails its job for good with the server's reason (or, if even that cannot be
        /// written, is dropped and logged, and the job is rescued when its lease expires).
        private func writeOneByOne(_ batch: [DurableWorkerState.Completion]) async {
            for (index, completion) in batch.enumerated() {
                do {
                    try await finish([completion])
                } catch let error as PSQLError where Self.isDataError(error) {
                    var failed = completion
                    failed.outcome = 2
                    failed.output = ""
                    failed.error = "its outcome cannot be stored: \(DurableWorkerState.describe(error))"
                    do {
                        try await finish([failed])
                    } catch {
                        logger.error(
                            "durable worker drops an outcome it cannot store: \(error)",
                            metadata: ["job": "\(completion.id)"])
                    }
                } catch {
                    state.withLockedValue { $0.putBack(Array(batch[index...])) }
                    return
                }
            }
        }

        /// One `finish` statement. The server takes the rows in no set order: a deadlock with another statement on
        /// the same jobs (rare) fails it, and the batch is written again.
        private func finish(_ batch: [DurableWorkerState.Completion]) async throws {
            let s = queue.s
            try await queue.execute(
                """
                SELECT job_id FROM \(unescaped: s).finish(\(batch.map(\.id)), \(batch.map(\.attempt)),
                    \(batch.map(\.outcome)), \(batch.map(\.output)), \(batch.map(\.error)))
                """)
        }

        /// Rings the claim bell every poll interval.
        func pollLoop() async {
            while await pause(configuration.pollInterval) {
                claimBell.yield()
            }
        }

        /// LISTENs for wake-ups and cancellations on one connection, reconnecting with backoff.
        func listenLoop() async {
            let jobsChannel = DurableSchema.jobsChannel(queue.schema)
            let cancelChannel = DurableSchema.cancelChannel(queue.schema)
            var backoff = DurableBackoff()
            while !Task.isCancelled {
                do {
                    try await queue.client.withConnection { connection in
                        try await connection.listen(on: jobsChannel) { wakeUps in
                            try await connection.listen(on: cancelChannel) { cancels in
                                backoff.reset()
                                claimBell.yield()  // whatever was enqueued while not listening
                                try await withThrowingTaskGroup(of: Void.self) { group in
                                    group.addTask {
                                        for try await _ in wakeUps { self.claimBell.yield() }
                                    }
                                    group.addTask {
                                        for try await note in cancels {
                                            guard let id = Int64(note.payload) else { continue }
                                            self.state.withLockedValue { $0.stop(id, .requested) }?()
                                        }
                                    }
                                    try await group.next()
                                    group.cancelAll()
                                }
                            }
                        }
                    }
                } catch {
                    if Task.isCancelled { return }
                    logger.warning("durable worker lost its LISTEN connection: \(error)")
                }
                guard await pause(backoff.take()) else { return }
            }
        }
    }
#endif
