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
            let text: String
            if let error = error as? PSQLError, let message = error.serverInfo?[.message] {
                text = message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
            } else {
                text = "\(error)"
            }
            // PostgreSQL's text cannot hold NUL.
            return text.contains("\u{0}")
                ? String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{0}" })) : text
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

        /// The outcome of an attempt as the schema's `finish` function takes it, with the attempt's last progress
        /// (its lease is renewed with it until the outcome is written).
        struct Completion: Sendable, Equatable {
            var id: Int64
            var attempt: Int32
            /// 0 succeeded, 1 failed (retried while attempts remain), 2 failed for good, 3 cancelled, 4 released.
            var outcome: Int16
            var output: String
            var error: String
            var completed: Int64 = 0
            var total: Int64 = 0
        }

        /// One attempt of one job: a job can have two here at once, an attempt stopped for a lost lease still
        /// winding down and the next one, claimed again by this worker.
        struct AttemptKey: Hashable, Sendable {
            var id: Int64
            var attempt: Int32
        }

        struct Attempt {
            var completed: Int64 = 0
            var total: Int64 = 0
            var cancel: (@Sendable () -> Void)?
            var stop: StopReason?
            /// Its handler completed the job in a completing transaction: nothing to renew or report.
            var isCompleted = false
        }

        let concurrency: Int
        private(set) var running: [AttemptKey: Attempt] = [:]
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
            running[AttemptKey(id: id, attempt: attempt)] = Attempt()
        }

        /// The attempt's task can now be cancelled with `cancel`. Returns `cancel` when the attempt was stopped
        /// before its task existed: the caller calls it at once.
        mutating func attach(
            _ cancel: @escaping @Sendable () -> Void, to id: Int64, attempt: Int32
        ) -> (@Sendable () -> Void)? {
            let key = AttemptKey(id: id, attempt: attempt)
            guard running[key] != nil else { return nil }
            running[key]!.cancel = cancel
            return running[key]!.stop != nil ? cancel : nil
        }

        /// The attempt's latest progress.
        mutating func progress(_ id: Int64, attempt: Int32, completed: Int64, total: Int64) {
            let key = AttemptKey(id: id, attempt: attempt)
            guard running[key] != nil else { return }
            running[key]!.completed = completed
            running[key]!.total = total
        }

        /// The attempt's handler completed the job in its own transaction.
        mutating func completedInTransaction(_ id: Int64, attempt: Int32) {
            running[AttemptKey(id: id, attempt: attempt)]?.isCompleted = true
        }

        /// Stops one attempt for `reason`, unless it was stopped already, completed, or is not running here. Returns
        /// its canceller to call (nil before its task exists: ``attach(_:to:attempt:)`` returns it then).
        mutating func stop(_ id: Int64, attempt: Int32, _ reason: StopReason) -> (@Sendable () -> Void)? {
            let key = AttemptKey(id: id, attempt: attempt)
            guard let entry = running[key], entry.stop == nil, !entry.isCompleted else { return nil }
            running[key]!.stop = reason
            return entry.cancel
        }

        /// Stops every attempt of job `id` running here (a cancellation request names the job, not the attempt).
        mutating func stop(_ id: Int64, _ reason: StopReason) -> (@Sendable () -> Void)? {
            let cancellers = running.keys.filter { $0.id == id }.compactMap { stop($0.id, attempt: $0.attempt, reason) }
            if cancellers.isEmpty { return nil }
            return { for cancel in cancellers { cancel() } }
        }

        /// Why the latest attempt of job `id` here was stopped, if it was.
        func stopReason(_ id: Int64) -> StopReason? {
            running.filter { $0.key.id == id }.max { $0.key.attempt < $1.key.attempt }?.value.stop
        }

        /// The attempt ended; `completion` (nil: nothing to report) waits to be written.
        mutating func ended(_ id: Int64, attempt: Int32, completion: Completion?) {
            let entry = running.removeValue(forKey: AttemptKey(id: id, attempt: attempt))
            if var completion {
                completion.completed = entry?.completed ?? 0
                completion.total = entry?.total ?? 0
                completions.append(completion)
            }
        }

        /// Stops claiming; returns nothing to cancel (running attempts finish, see ``stopAll(_:)``).
        mutating func beginDrain() {
            isDraining = true
        }

        /// Stops every running attempt for `reason`, returning the cancellers to call.
        mutating func stopAll(_ reason: StopReason) -> [@Sendable () -> Void] {
            running.keys.compactMap { stop($0.id, attempt: $0.attempt, reason) }
        }

        /// The leases to renew, with progress: every running attempt that has not lost its lease or completed the job
        /// itself, and every ended one whose outcome is not written yet (so that a slow write, or a server away for
        /// a while, does not cost it its lease).
        func renewals() -> [(id: Int64, attempt: Int32, completed: Int64, total: Int64)] {
            let live = running.compactMap { key, entry in
                entry.stop == .leaseLost || entry.isCompleted
                    ? nil : (key.id, key.attempt, entry.completed, entry.total)
            }
            return live + completions.map { ($0.id, $0.attempt, $0.completed, $0.total) }
        }

        /// The database's answer to a renewal of `sent`: a running attempt missing from `answered` lost its lease,
        /// and one answered with `cancel` true was asked to stop. Returns the cancellers to call.
        mutating func renewed(
            sent: [AttemptKey], answered: [(id: Int64, attempt: Int32, cancel: Bool)]
        ) -> [@Sendable () -> Void] {
            var kept = Set<AttemptKey>(minimumCapacity: answered.count)
            var cancellers: [@Sendable () -> Void] = []
            for (id, attempt, cancel) in answered {
                kept.insert(AttemptKey(id: id, attempt: attempt))
                if cancel, let canceller = stop(id, attempt: attempt, .requested) { cancellers.append(canceller) }
            }
            for key in sent where !kept.contains(key) {
                if let canceller = stop(key.id, attempt: key.attempt, .leaseLost) { cancellers.append(canceller) }
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
            let reason = running[AttemptKey(id: id, attempt: attempt)]?.stop
            if reason == .leaseLost { return nil }
            switch result {
            case .success(let output) where output.contains("\\u0000"):
                // jsonb refuses the NUL character: stored, it would fail the whole batch of outcomes.
                return Completion(
                    id: id, attempt: attempt, outcome: 2, output: "",
                    error: "its output holds a NUL character (\\u0000), which PostgreSQL's jsonb cannot store")
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
