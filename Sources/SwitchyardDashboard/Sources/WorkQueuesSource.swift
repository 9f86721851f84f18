#if Dashboard
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import Switchyard
    import NIOConcurrencyHelpers
    import Synchronization

    /// In-process `WorkQueue`s as a dashboard source: an import's queue, an HTTP session's host lanes, an image
    /// pipeline's queues, the application's own.
    ///
    /// Each read takes `WorkQueue.snapshot(runningLimit:waitingLimit:waitingOffset:)` of every queue: one short
    /// hold of each queue's lock, O(limit + running jobs), never O(waiting jobs), so the engine keeps its speed while
    /// a dashboard watches. Lists concatenate the queues in the order `queues` gives them (each queue's running jobs
    /// in start order, its waiting and ready jobs in submission order), and pages follow the same order.
    ///
    /// Actions: cancel a job the dashboard lists (the jobs of the latest read and of the pages served since),
    /// cancel a queue's jobs (`WorkQueue.cancelAll()`), suspend and resume a queue.
    public final class WorkQueuesSource: DashboardSource {
        public let id: String
        private let queues: @Sendable () -> [WorkQueue]
        /// The jobs listed since the latest read, by identifier: what `cancelJob` can reach.
        private let listed = NIOLockedValueBox<[String: JobSnapshot]>([:])

        /// The most jobs ``WorkQueuesSource`` remembers for `cancelJob` between reads.
        static let listedLimit = 10_000

        /// A source over the queues `queues` returns at each read (called outside any lock; it may return a
        /// different set each time, as an HTTP session's host lanes come and go).
        public init(id: String = "in-process", queues: @escaping @Sendable () -> [WorkQueue]) {
            self.id = id
            self.queues = queues
        }

        /// A source over a fixed set of queues.
        public convenience init(id: String = "in-process", queues: [WorkQueue]) {
            self.init(id: id, queues: { queues })
        }

        public func read(limit: Int) async throws -> DashboardSourceSnapshot {
            let queues = queues()
            var snapshots: [WorkQueueSnapshot] = []
            snapshots.reserveCapacity(queues.count)
            var runningBudget = limit
            var waitingBudget = limit
            for queue in queues {
                let snapshot = queue.snapshot(runningLimit: runningBudget, waitingLimit: waitingBudget)
                let running = snapshot.jobs.count(where: { $0.state == .running })
                runningBudget -= running
                waitingBudget -= snapshot.jobs.count - running
                snapshots.append(snapshot)
            }
            var limits: [String: DashboardLimit] = [:]
            var limitOrder: [String] = []
            var result = DashboardSourceSnapshot(id: id, kind: "inProcess", actions: Self.actions.map(\.rawValue))
            var listedJobs: [String: JobSnapshot] = [:]
            for (queue, snapshot) in zip(queues, snapshots) {
                let limitName = queue.limit?.name
                if let domain = queue.limit {
                    if limits[domain.name] == nil {
                        limitOrder.append(domain.name)
                        limits[domain.name] = DashboardLimit(
                            name: domain.name, width: domain.width, running: domain.runningCount, queues: [])
                    }
                    limits[domain.name]?.queues.append(queue.name)
                }
                result.queues.append(Self.queue(snapshot, limit: limitName))
                for job in snapshot.jobs {
                    let converted = Self.job(job, queue: snapshot.name, at: snapshot.takenAt)
                    if job.state == .running {
                        result.running.append(converted)
                    } else {
                        result.waiting.append(converted)
                    }
                    listedJobs[converted.id] = job
                }
                result.runningTotal += snapshot.counts.running
                result.waitingTotal += Self.unfinished(snapshot.counts) - snapshot.counts.running
                result.failures += snapshot.recentFailures.map { Self.failure($0, queue: snapshot.name) }
            }
            result.limits = limitOrder.compactMap { limits[$0] }
            result.failures.sort { $0.finishedAt > $1.finishedAt }
            if result.failures.count > limit { result.failures.removeLast(result.failures.count - limit) }
            // The jobs listed before are released after the lock: the last reference to a finished job runs its
            // value's deinit.
            let previous = listed.withLockedValue { listed in
                defer { listed = listedJobs }
                return listed
            }
            withExtendedLifetime(previous) {}
            return result
        }

        public func jobs(_ list: DashboardJobList, queue name: String?, offset: Int, limit: Int) async throws -> (
            jobs: [DashboardJob], total: Int
        ) {
            var queues = queues()
            if let name {
                queues = queues.filter { $0.name == name }
                guard !queues.isEmpty else { throw DashboardActionError.notFound("no queue \"\(name)\"") }
            }
            var skip = offset
            var jobs: [DashboardJob] = []
            var total = 0
            var found: [String: JobSnapshot] = [:]
            for queue in queues {
                let counts = queue.counts
                let size = list == .running ? counts.running : Self.unfinished(counts) - counts.running
                total += size
                guard jobs.count < limit else { continue }
                if skip >= size {
                    skip -= size
                    continue
                }
                let wanted = limit - jobs.count
                let snapshot =
                    list == .running
                    ? queue.snapshot(runningLimit: skip + wanted, waitingLimit: 0)
                    : queue.snapshot(runningLimit: 0, waitingLimit: wanted, waitingOffset: skip)
                let page = list == .running ? Array(snapshot.jobs.dropFirst(skip)) : snapshot.jobs
                skip = 0
                for job in page.prefix(wanted) {
                    let converted = Self.job(job, queue: snapshot.name, at: snapshot.takenAt)
                    jobs.append(converted)
                    found[converted.id] = job
                }
            }
            listed.withLockedValue { listed in
                guard listed.count + found.count <= Self.listedLimit else { return }
                listed.merge(found) { old, _ in old }  // no job released under the lock
            }
            return (jobs, total)
        }

        public func perform(_ action: DashboardAction) async throws -> String {
            switch action.action {
            case .cancelJob:
                guard let id = action.job else { throw DashboardActionError.invalid("cancelJob needs a job") }
                guard let job = listed.withLockedValue({ $0[id] }) else {
                    throw DashboardActionError.notFound(
                        "job \(id) is not among the jobs the dashboard lists (it may have finished)")
                }
                job.cancel()
                return "asked job \(id) (\(job.name)) to cancel"
            case .cancelQueue, .suspendQueue, .resumeQueue:
                guard let name = action.queue else {
                    throw DashboardActionError.invalid("\(action.action.rawValue) needs a queue")
                }
                guard let queue = queues().first(where: { $0.name == name }) else {
                    throw DashboardActionError.notFound("no queue \"\(name)\"")
                }
                switch action.action {
                case .cancelQueue:
                    queue.cancelAll()
                    return "cancelled the unfinished jobs of \"\(name)\""
                case .suspendQueue:
                    queue.suspend()
                    return "suspended \"\(name)\""
                default:
                    queue.resume()
                    return "resumed \"\(name)\""
                }
            case .retryJob:
                throw DashboardActionError.unsupported(.retryJob, source: id)
            }
        }

        static let actions: [DashboardActionKind] = [.cancelJob, .cancelQueue, .suspendQueue, .resumeQueue]

        static func unfinished(_ counts: WorkQueue.Counts) -> Int {
            counts.submitted - counts.succeeded - counts.failed - counts.cancelled
        }

        static func queue(_ snapshot: WorkQueueSnapshot, limit: String?) -> DashboardQueue {
            let counts = snapshot.counts
            return DashboardQueue(
                name: snapshot.name, width: snapshot.width, suspended: snapshot.isSuspended, limit: limit,
                waiting: unfinished(counts) - counts.ready - counts.running, ready: counts.ready,
                running: counts.running, succeeded: counts.succeeded, failed: counts.failed,
                cancelled: counts.cancelled, completedUnits: snapshot.progress.completedUnits,
                totalUnits: snapshot.progress.totalUnits)
        }

        static func job(_ job: JobSnapshot, queue: String, at takenAt: ContinuousClock.Instant) -> DashboardJob {
            DashboardJob(
                id: String(job.identifier), queue: queue, name: job.name, state: name(of: job.state),
                priority: "\(job.requestedPriority)", effectivePriority: "\(job.effectivePriority)",
                attempts: job.attempts, age: seconds(job.submittedAt.duration(to: takenAt)),
                elapsed: job.startedAt.map { seconds($0.duration(to: takenAt)) }, completedUnits: job.completedUnits,
                totalUnits: job.totalUnits, cancelRequested: job.isCancelRequested,
                reasons: job.waitingReasons.map(reason))
        }

        static func reason(_ reason: WaitingReason) -> DashboardReason {
            switch reason {
            case .held:
                return DashboardReason(kind: "held", text: "held until released")
            case .dependencies(let jobs):
                return DashboardReason(
                    kind: "dependencies", text: "waits for " + jobs.map { "\"\($0.name)\"" }.joined(separator: ", "),
                    jobs: jobs.map { DashboardJobReference(id: String($0.identifier), name: $0.name) })
            case .earlierJobs:
                return DashboardReason(kind: "barrier", text: reason.description)
            case .delay:
                return DashboardReason(kind: "delay", text: reason.description)
            case .retryBackoff:
                return DashboardReason(kind: "retryBackoff", text: reason.description)
            case .slot(let priority, let domain, let running, let width):
                let text =
                    running >= width
                    ? "\"\(domain)\" is full: \(running)/\(width) running"
                    : "ready at \(priority): jobs ahead of it take the free slots of \"\(domain)\" "
                        + "(\(running)/\(width) running)"
                return DashboardReason(kind: "slot", text: text, domain: domain, running: running, width: width)
            case .queueSuspended(let queue):
                return DashboardReason(kind: "suspended", text: "queue \"\(queue)\" is suspended")
            }
        }

        static func failure(_ failure: JobFailure, queue: String) -> DashboardFailure {
            let age = seconds(failure.finishedAt.duration(to: .now))
            return DashboardFailure(
                id: String(failure.identifier), queue: queue, name: failure.name, state: name(of: failure.state),
                error: String(describing: failure.error), attempts: failure.attempts,
                finishedAt: Date(timeIntervalSinceNow: -age))
        }

        /// A state as the schema names it (`timedOut`, not "timed out").
        static func name(of state: JobState) -> String {
            switch state {
            case .waiting: "waiting"
            case .ready: "ready"
            case .running: "running"
            case .succeeded: "succeeded"
            case .failed: "failed"
            case .cancelled: "cancelled"
            case .timedOut: "timedOut"
            case .dependencyFailed: "dependencyFailed"
            }
        }

        static func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
    }
#endif
