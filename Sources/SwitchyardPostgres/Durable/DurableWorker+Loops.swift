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
                            state.renewed(sent: state.renewals().map(\.id), answered: [])
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
                SELECT job_id, cancel FROM \(unescaped: s).renew(\(worker), \(renewals.map(\.id)),
                    \(renewals.map(\.attempt)), \(renewals.map(\.completed)), \(renewals.map(\.total)),
                    \(configuration.leaseDuration.durableMilliseconds))
                """
            ) { row -> (id: Int64, cancel: Bool) in try row.decode((Int64, Bool).self) }
            let cancellers = state.withLockedValue { $0.renewed(sent: renewals.map(\.id), answered: answered) }
            if !cancellers.isEmpty {
                logger.info("durable worker stops \(cancellers.count) attempts (cancelled, or their lease was lost)")
            }
            cancellers.forEach { $0() }
        }

        /// Writes outcomes whenever some wait.
        func flushLoop() async {
            for await _ in flushRings {
                await writeOutcomes(final: false)
            }
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
                } catch {
                    state.withLockedValue { $0.putBack(batch) }
                    logger.warning("durable worker cannot write \(batch.count) outcomes: \(error)")
                    if final && ContinuousClock.now > deadline { return }
                    guard await pause(backoff.take()) || final else { return }
                }
            }
        }

        /// One `finish` statement.
        /// The batch goes in ascending id order, the order in which every statement that locks several jobs takes
        /// their rows, so that workers writing overlapping batches cannot deadlock.
        private func finish(_ batch: [DurableWorkerState.Completion]) async throws {
            let batch = batch.sorted { $0.id < $1.id }
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
