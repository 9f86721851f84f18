#if Postgres
    import PostgresNIO

    /// The bookkeeping of one ``DurableWorker``: its running attempts, the outcomes waiting to be written, and whether
    /// it still claims. A value with no locks and no effects: the worker keeps it in a lock, and what a transition
    /// returns (attempts' cancellers to call, whether a slot freed) is acted on after the lock is released, so no
    /// user code (a task's cancellation handlers) ever runs under it. Every transition is O(1) but the renewal list
    /// (O(running)) and taking completions (O(taken)).
    struct DurableWorkerState {
        /// An error as a job's error text: a server's error by its message and SQLSTATE (postgres-nio's own
        /// description hides them), anything else as it describes itself.
        static func describe(_ error: any Error) -> String {
            if let error = error as? PSQLError, let message = error.serverInfo?[.message] {
                return message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
            }
            return "\(error)"
        }

        /// Why an attempt's task was cancelled (the first reason wins).
        enum StopReason: Sendable, Equatable {
            /// ``DurableQueue/cancel(_:)`` asked for it: the job ends cancelled.
            case requested
            /// The attempt ran longer than the job's timeout: it fails, and is retried if attempts remain.
            case timedOut
            /// The lease was not renewed in time: the job is another worker's now, and nothing is reported.
            case leaseLost
            /// The worker is shutting down: the job is released, not counted as a failure.
            case shutdown
        }

        /// The outcome of an attempt as the schema's `finish` function takes it.
        struct Completion: Sendable, Equatable {
            var id: Int64
            var attempt: Int32
            /// 0 succeeded, 1 failed (retried while attempts remain), 2 failed for good, 3 cancelled, 4 released.
            var outcome: Int16
            var output: String
            var error: String
        }

        struct Attempt {
            var attempt: Int32
            var completed: Int64 = 0
            var total: Int64 = 0
            var cancel: (@Sendable () -> Void)?
            var stop: StopReason?
        }

        let concurrency: Int
        private(set) var running: [Int64: Attempt] = [:]
        private(set) var completions: [Completion] = []
        private(set) var isDraining = false

        init(concurrency: Int) {
            precondition(concurrency >= 1, "DurableWorker: concurrency must be at least 1")
            self.concurrency = concurrency
        }

        /// How many more attempts may start (0 once draining).
        var freeSlots: Int { isDraining ? 0 : max(0, concurrency - running.count) }

        /// A claimed attempt begins (before its task exists).
        mutating func claimed(_ id: Int64, attempt: Int32) {
            running[id] = Attempt(attempt: attempt)
        }

        /// The attempt's task can now be cancelled with `cancel`. Returns `cancel` when the attempt was stopped
        /// before its task existed: the caller calls it at once.
        mutating func attach(_ cancel: @escaping @Sendable () -> Void, to id: Int64) -> (@Sendable () -> Void)? {
            guard running[id] != nil else { return nil }
            running[id]!.cancel = cancel
            return running[id]!.stop != nil ? cancel : nil
        }

        /// The attempt's latest progress.
        mutating func progress(_ id: Int64, attempt: Int32, completed: Int64, total: Int64) {
            guard running[id]?.attempt == attempt else { return }
            running[id]!.completed = completed
            running[id]!.total = total
        }

        /// Stops the attempt of job `id` for `reason`, unless it was stopped already or is not running here.
        /// Returns its canceller to call (nil before its task exists: ``attach(_:to:)`` returns it then).
        mutating func stop(_ id: Int64, _ reason: StopReason) -> (@Sendable () -> Void)? {
            guard running[id] != nil, running[id]!.stop == nil else { return nil }
            running[id]!.stop = reason
            return running[id]!.cancel
        }

        /// Why the attempt of job `id` was stopped, if it was.
        func stopReason(_ id: Int64) -> StopReason? { running[id]?.stop }

        /// The attempt of job `id` ended; `completion` (nil: nothing to report) waits to be written.
        mutating func ended(_ id: Int64, completion: Completion?) {
            running[id] = nil
            if let completion { completions.append(completion) }
        }

        /// Stops claiming; returns nothing to cancel (running attempts finish, see ``stopAll(_:)``).
        mutating func beginDrain() {
            isDraining = true
        }

        /// Stops every running attempt for `reason`, returning the cancellers to call.
        mutating func stopAll(_ reason: StopReason) -> [@Sendable () -> Void] {
            var cancellers: [@Sendable () -> Void] = []
            for id in running.keys {
                if let cancel = stop(id, reason) { cancellers.append(cancel) }
            }
            return cancellers
        }

        /// The attempts whose leases to renew, with their progress: every running one that has not lost its lease.
        func renewals() -> [(id: Int64, attempt: Int32, completed: Int64, total: Int64)] {
            running.compactMap { id, attempt in
                attempt.stop == .leaseLost ? nil : (id, attempt.attempt, attempt.completed, attempt.total)
            }
        }

        /// The database's answer to a renewal of `sent`: an attempt missing from `answered` lost its lease, and one
        /// answered with `true` was asked to cancel. Returns the cancellers to call.
        mutating func renewed(sent: [Int64], answered: [(id: Int64, cancel: Bool)]) -> [@Sendable () -> Void] {
            var kept = Set<Int64>(minimumCapacity: answered.count)
            var cancellers: [@Sendable () -> Void] = []
            for (id, cancel) in answered {
                kept.insert(id)
                if cancel, let canceller = stop(id, .requested) { cancellers.append(canceller) }
            }
            for id in sent where !kept.contains(id) {
                if let canceller = stop(id, .leaseLost) { cancellers.append(canceller) }
            }
            return cancellers
        }

        /// Takes up to `limit` completions to write, oldest first.
        mutating func takeCompletions(_ limit: Int) -> [Completion] {
            let count = min(limit, completions.count)
            let taken = Array(completions.prefix(count))
            completions.removeFirst(count)
            return taken
        }

        /// Puts back completions whose write failed, ahead of newer ones.
        mutating func putBack(_ taken: [Completion]) {
            completions.insert(contentsOf: taken, at: 0)
        }

        /// The outcome to report for an attempt of job `id` that ended with `result`, by how it was stopped.
        /// Nil: nothing to report (the job is another worker's, or the handler completed it in its transaction).
        func completion(
            _ id: Int64, attempt: Int32, result: Result<String, any Error>, completedInTransaction: Bool,
            timeout: Duration?
        ) -> Completion? {
            if completedInTransaction { return nil }
            let reason = running[id]?.stop
            if reason == .leaseLost { return nil }
            switch result {
            case .success(let output):
                return Completion(id: id, attempt: attempt, outcome: 0, output: output, error: "")
            case .failure(let error as DurableError) where error.kind == .staleAttempt:
                return nil
            case .failure(let error):
                switch reason {
                case .requested:
                    return Completion(
                        id: id, attempt: attempt, outcome: 3, output: "", error: "cancelled while running")
                case .timedOut:
                    let limit = timeout.map { " after \($0)" } ?? ""
                    return Completion(id: id, attempt: attempt, outcome: 1, output: "", error: "timed out\(limit)")
                case .shutdown:
                    return Completion(id: id, attempt: attempt, outcome: 4, output: "", error: "")
                case .leaseLost:
                    return nil
                case nil:
                    let permanent = error is PermanentJobError
                    return Completion(
                        id: id, attempt: attempt, outcome: permanent ? 2 : 1, output: "",
                        error: DurableWorkerState.describe(error))
                }
            }
        }
    }
#endif
