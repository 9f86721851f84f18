#if Dashboard && Postgres
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import Switchyard
    import SwitchyardPostgres

    /// A durable PostgreSQL queue as a dashboard source: its queues, workers, running and waiting jobs with the
    /// reason each waits, and its latest failures.
    ///
    /// Each read is one `DurableQueue.snapshot(limit:queue:)` (a read-only repeatable-read transaction on one pooled
    /// connection). Its counts cost O(unfinished jobs) in the database; the lists O(limit) through their indexes.
    /// Finished counts are not kept by the queue, so its queues carry no throughput.
    ///
    /// Actions: cancel a job (`DurableQueue.cancel(_:)`: a waiting job at once, a running one when its handler
    /// sees the request); retry a failed or cancelled one (`DurableQueue.retry(_:)`).
    public struct DurableQueueSource: DashboardSource {
        public let id: String
        public let queue: DurableQueue

        public init(id: String = "durable", queue: DurableQueue) {
            self.id = id
            self.queue = queue
        }

        public func read(limit: Int) async throws -> DashboardSourceSnapshot {
            let snapshot = try await queue.snapshot(limit: limit)
            var result = DashboardSourceSnapshot(
                id: id, kind: "durable", actions: [DashboardActionKind.cancelJob, .retryJob].map(\.rawValue))
            result.queues = snapshot.queues.map {
                DashboardQueue(
                    name: $0.name, width: $0.width, waiting: $0.waiting, ready: $0.available, running: $0.running)
            }
            result.running = snapshot.running.map(Self.job)
            result.waiting = snapshot.waiting.map(Self.job)
            result.runningTotal = snapshot.queues.reduce(0) { $0 + $1.running }
            result.waitingTotal = snapshot.queues.reduce(0) { $0 + $1.waiting + $1.available }
            result.failures = snapshot.finished.filter { $0.state != "succeeded" }.map {
                DashboardFailure(
                    id: String($0.id), queue: $0.queue, name: $0.kind, state: $0.state, error: $0.error ?? "",
                    attempts: $0.attempts, finishedAt: $0.finishedAt)
            }
            result.workers = snapshot.workers.map {
                DashboardWorker(
                    name: $0.name, host: $0.host, pid: $0.pid, concurrency: $0.concurrency, running: $0.running,
                    alive: $0.isAlive, secondsSinceSeen: $0.secondsSinceSeen)
            }
            return result
        }

        /// The jobs of the list from `offset`, from one snapshot (in claim order for waiting jobs, start order for
        /// running ones); `offset + limit` is capped at ``pageDepth``.
        public func jobs(_ list: DashboardJobList, queue name: String?, offset: Int, limit: Int) async throws -> (
            jobs: [DashboardJob], total: Int
        ) {
            let snapshot = try await queue.snapshot(limit: min(offset + limit, Self.pageDepth), queue: name)
            let queues = snapshot.queues.filter { name == nil || $0.name == name }
            if let name, queues.isEmpty { throw DashboardActionError.notFound("no queue \"\(name)\"") }
            let jobs = list == .running ? snapshot.running : snapshot.waiting
            let total = queues.reduce(0) { $0 + (list == .running ? $1.running : $1.waiting + $1.available) }
            return (jobs.dropFirst(offset).prefix(limit).map(Self.job), total)
        }

        /// How deep pages reach into a durable queue's lists.
        public static let pageDepth = 2_000

        public func perform(_ action: DashboardAction) async throws -> String {
            guard action.action == .cancelJob || action.action == .retryJob else {
                throw DashboardActionError.unsupported(action.action, source: id)
            }
            guard let text = action.job, let jobID = Int64(text) else {
                throw DashboardActionError.invalid("\(action.action.rawValue) needs a job number")
            }
            do {
                if action.action == .retryJob {
                    try await queue.retry(jobID)
                    return "job \(jobID) will run again"
                }
                let state = try await queue.cancel(jobID)
                return "job \(jobID): \(state)"
            } catch let error as DurableError where error.kind == .noSuchJob {
                throw DashboardActionError.notFound("no job \(jobID)")
            } catch let error as DurableError where error.kind == .notRetryable {
                throw DashboardActionError.invalid(error.message)
            }
        }

        static func job(_ job: DurableSnapshot.Job) -> DashboardJob {
            DashboardJob(
                id: String(job.id), queue: job.queue, name: job.kind, state: job.state,
                priority: priorityName(job.priority), effectivePriority: priorityName(job.effectivePriority),
                attempts: job.attempt,
                age: job.age, elapsed: job.state == "running" ? job.age : nil,
                completedUnits: job.completedUnits, totalUnits: job.totalUnits, cancelRequested: job.isCancelRequested,
                reasons: job.reason.map { [reason($0)] } ?? [], worker: job.worker)
        }

        /// A stored priority level by its name (`high`), as in-process jobs show theirs.
        static func priorityName(_ level: Int) -> String {
            JobPriority.allLevels.indices.contains(level) ? "\(JobPriority.allLevels[level])" : String(level)
        }

        /// The reason's kind, from the sentence the queue's snapshot gives (see ``DurableSnapshot/Job/reason``).
        static func reason(_ text: String) -> DashboardReason {
            if text.hasPrefix("waits for ") {
                let ids =
                    text.split(separator: ":", maxSplits: 1).last.map {
                        $0.split(separator: ",").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
                    } ?? []
                return DashboardReason(
                    kind: "dependencies", text: text,
                    jobs: ids.map { DashboardJobReference(id: String($0), name: "job \($0)") })
            }
            let kind: String
            if text.hasPrefix("retry ") {
                kind = "retryBackoff"
            } else if text.hasPrefix("scheduled ") {
                kind = "scheduled"
            } else if text.hasPrefix("no live worker") {
                kind = "noWorker"
            } else if text.hasPrefix("queue "), text.hasSuffix("is at its width") || text.contains(" is at its width") {
                kind = "slot"
            } else if text.hasPrefix("ready:") {
                kind = "slot"
            } else {
                kind = "other"
            }
            return DashboardReason(kind: kind, text: text)
        }
    }
#endif
