/// Why a job has not started.
public enum WaitingReason: Sendable, Hashable, CustomStringConvertible {
    /// Submitted with ``JobOptions/isHeld`` and not yet released.
    case held
    /// These dependencies have not finished.
    case dependencies([JobReference])
    /// A barrier waits for this many earlier jobs of its queue.
    case earlierJobs(Int)
    /// Its start delay has not passed.
    case delay(Duration)
    /// Waiting before retry attempt `attempt`.
    case retryBackoff(attempt: Int)
    /// Ready, waiting for a slot at `priority` in `domain` (the queue itself or a limit domain above it), which
    /// runs `running` of `width` jobs; when no domain is full, higher-priority jobs or other queues' turns go first.
    case slot(priority: JobPriority, domain: String, running: Int, width: Int)
    /// Ready, but its queue is suspended.
    case queueSuspended(String)

    public var description: String {
        switch self {
        case .held: "held"
        case .dependencies(let jobs): "dependencies " + jobs.map { "\"\($0.name)\"" }.joined(separator: ", ")
        case .earlierJobs(let count): "barrier behind \(count) earlier job\(count == 1 ? "" : "s")"
        case .delay(let delay): "start delay \(delay)"
        case .retryBackoff(let attempt): "retry backoff before attempt \(attempt)"
        case .slot(let priority, let domain, let running, let width):
            "a slot at \(priority) in \"\(domain)\" (\(running)/\(width) running)"
        case .queueSuspended(let queue): "queue \"\(queue)\" is suspended"
        }
    }
}

/// A job's identity, as named in waiting reasons.
public struct JobReference: Sendable, Hashable {
    /// The job's process-unique identifier.
    public let identifier: UInt64
    /// The job's name.
    public let name: String

    /// A reference to the job with this identifier and name.
    public init(identifier: UInt64, name: String) {
        self.identifier = identifier
        self.name = name
    }
}

/// One job at the moment of a snapshot.
public struct JobSnapshot: Sendable, Hashable {
    /// The job's process-unique identifier.
    public let identifier: UInt64
    /// The job's number in its queue (``Job/number``): what the snapshot's table shows.
    public let number: UInt64
    /// The job's name.
    public let name: String
    /// The job's state.
    public let state: JobState
    /// Why it has not started (empty for running jobs). Several reasons can hold at once.
    public let waitingReasons: [WaitingReason]
    /// The priority the job asked for.
    public let requestedPriority: JobPriority
    /// The priority the engine uses (escalated by waiters).
    public let effectivePriority: JobPriority
    /// When it was submitted.
    public let submittedAt: ContinuousClock.Instant
    /// When its first attempt started: never before `submittedAt`. A worker that ends one attempt and starts the
    /// next reads the clock just before it takes the engine lock, so this may precede the moment the job became
    /// ready by the time that lock took to acquire (microseconds).
    public let startedAt: ContinuousClock.Instant?
    /// Attempts started so far.
    public let attempts: Int
    /// Its reported progress units.
    public let completedUnits: Int64
    /// Its announced progress units.
    public let totalUnits: Int64
    /// Whether cancellation was requested (a running job may still be finishing).
    public let isCancelRequested: Bool
    /// The job, for ``cancel()``: a snapshot keeps its jobs' records (not their tasks) alive until it is dropped.
    let control: JobControl

    /// Cancels the job, as ``Job/cancel()`` does: a tool that lists jobs from a snapshot can act on one of them
    /// without holding its handle. Idempotent; no effect on a job that has finished since the snapshot.
    public func cancel() {
        let node = control.node
        Engine.perform(in: node.queue.region) { transaction in Engine.cancel(node, &transaction) }
    }
}

/// A snapshot's reference to its job: equal for the same job, whatever its state.
struct JobControl: Sendable, Hashable {
    let node: JobNode

    static func == (lhs: JobControl, rhs: JobControl) -> Bool { lhs.node === rhs.node }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(node)) }
}

/// A consistent picture of a queue at one instant: every unfinished job with its state and waiting reasons.
///
/// Taken under the engine's lock in one step, so counts, jobs and reasons agree with each other (and with the
/// queue's dependencies in other queues). `description` prints a table.
public struct WorkQueueSnapshot: Sendable, CustomStringConvertible {
    /// The queue's name.
    public let name: String
    /// Its width.
    public let width: Int
    /// Whether it is suspended.
    public let isSuspended: Bool
    /// Its counts.
    public let counts: WorkQueue.Counts
    /// Its progress since it was last idle.
    public let progress: WorkProgress
    /// Every unfinished job, in submission order; for a snapshot taken with limits
    /// (``WorkQueue/snapshot(runningLimit:waitingLimit:waitingOffset:)``), the running jobs it lists in start order,
    /// then the waiting and ready ones it lists in submission order.
    public let jobs: [JobSnapshot]
    /// The queue's latest failures, newest first (see ``WorkQueue/recentFailures``).
    public let recentFailures: [JobFailure]
    /// When the snapshot was taken.
    public let takenAt: ContinuousClock.Instant

    public var description: String {
        var lines = [
            "WorkQueue \"\(name)\" width \(width)\(isSuspended ? " (suspended)" : ""): \(counts); progress \(progress)"
        ]
        if jobs.isEmpty { return lines[0] }
        let header = ["#", "job", "state", "priority", "age", "why waiting / progress"]
        var rows: [[String]] = []
        for job in jobs {
            let age = job.submittedAt.duration(to: takenAt)
            let priority =
                job.requestedPriority == job.effectivePriority
                ? "\(job.effectivePriority)" : "\(job.requestedPriority)→\(job.effectivePriority)"
            let detail =
                job.state == .running
                ? "\(job.completedUnits)/\(job.totalUnits) units\(job.isCancelRequested ? ", cancelling" : "")"
                : job.waitingReasons.map(\.description).joined(separator: "; ")
            rows.append([
                "\(job.number)", job.name, "\(job.state)", priority, Self.format(age), detail,
            ])
        }
        let widths = header.indices.map { column in
            ([header[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }
        lines.append("  " + line(header))
        for row in rows { lines.append("  " + line(row)) }
        return lines.joined(separator: "\n")
    }

    private static func format(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        let tenths = milliseconds / 100
        return "\(tenths / 10).\(tenths % 10)s"
    }
}

extension WorkQueue {
    /// A consistent snapshot of every unfinished job.
    /// - Complexity: O(unfinished jobs + their dependencies), in one hold of the queue's lock (that is what makes
    ///   it consistent): operations of the queues sharing that lock (see ``cancelAll()``) wait until it is taken;
    ///   unrelated queues do not. Use the O(1) counts (``WorkQueue/counts``) for frequent polling.
    public func snapshot() -> WorkQueueSnapshot {
        Engine.perform(in: region) { transaction in
            // Progress first: reading it applies the jobs' pending progress reports, which the jobs' rows show.
            let progress = progress.current(&transaction)
            return makeSnapshot(progress: progress, jobs: live.nodes().map(Engine.snapshot(of:)))
        }
    }

    /// A consistent snapshot that lists at most `runningLimit` running jobs (the earliest started) and at most
    /// `waitingLimit` waiting or ready jobs (in submission order, after skipping `waitingOffset` of them); the counts
    /// cover every job. What a dashboard polls: its cost does not grow with the queue.
    /// - Complexity: O(`runningLimit` + `waitingOffset` + `waitingLimit` + running jobs), in one hold of the queue's
    ///   lock (running jobs are bounded by the width).
    public func snapshot(runningLimit: Int, waitingLimit: Int, waitingOffset: Int = 0) -> WorkQueueSnapshot {
        precondition(runningLimit >= 0 && waitingLimit >= 0 && waitingOffset >= 0, "snapshot: negative limit")
        return Engine.perform(in: region) { transaction in
            let progress = progress.current(&transaction)  // first: see snapshot()
            var jobs: [JobSnapshot] = []
            jobs.reserveCapacity(min(runningLimit, runningCount) + min(waitingLimit, live.count))
            runningJobs.forEachNode(upTo: runningLimit) { jobs.append(Engine.snapshot(of: $0)) }
            var skipped = 0
            var listed = 0
            live.forEachNode(while: { _ in listed < waitingLimit }) { node in
                guard node.phase != .running else { return }
                if skipped < waitingOffset {
                    skipped += 1
                } else {
                    jobs.append(Engine.snapshot(of: node))
                    listed += 1
                }
            }
            return makeSnapshot(progress: progress, jobs: jobs)
        }
    }

    /// Lock held.
    private func makeSnapshot(progress: WorkProgress, jobs: [JobSnapshot]) -> WorkQueueSnapshot {
        WorkQueueSnapshot(
            name: name, width: scheduler.width, isSuspended: scheduler.isSuspended,
            counts: Counts(
                pending: pendingCount, ready: readyCount, running: runningCount, succeeded: succeededCount,
                failed: failedCount, cancelled: cancelledCount, submitted: submittedCount),
            progress: progress, jobs: jobs, recentFailures: failuresNewestFirst(), takenAt: .now)
    }

    /// The queue's progress since it was last idle (see ``WorkProgress``).
    public var currentProgress: WorkProgress { Engine.perform(in: region) { progress.current(&$0) } }

    /// Throttled progress updates for the queue's jobs, on `clock`.
    ///
    /// The first value is the current progress. After that, an update is delivered when at least `interval` has
    /// passed since the previous one and the fraction moved by at least `minimumChange` (or the job count changed);
    /// one held back only by time is delivered when the interval ends; reaching "every job finished" is always
    /// delivered at once. Updates arrive in order. The stream never finishes by itself: stop iterating to end it.
    /// The clock is only slept on, by a task of the stream's own, never read or called under the engine's locks.
    public func progressUpdates<C: Clock>(
        interval: Duration = .milliseconds(100), minimumChange: Double = 0.01, clock: C
    ) -> AsyncStream<WorkProgress> where C.Duration == Duration {
        Engine.progressStream(of: progress, interval: interval, minimumChange: minimumChange, clock: clock)
    }

    /// ``progressUpdates(interval:minimumChange:clock:)`` on the continuous clock.
    public func progressUpdates(
        interval: Duration = .milliseconds(100), minimumChange: Double = 0.01
    ) -> AsyncStream<WorkProgress> {
        progressUpdates(interval: interval, minimumChange: minimumChange, clock: ContinuousClock())
    }
}

extension JobGroup {
    /// Throttled progress updates for the group's jobs; see ``WorkQueue/progressUpdates(interval:minimumChange:clock:)``.
    public func progressUpdates<C: Clock>(
        interval: Duration = .milliseconds(100), minimumChange: Double = 0.01, clock: C
    ) -> AsyncStream<WorkProgress> where C.Duration == Duration {
        Engine.progressStream(of: progress, interval: interval, minimumChange: minimumChange, clock: clock)
    }
}

extension Engine {
    static func progressStream<C: Clock>(
        of aggregate: ProgressAggregate, interval: Duration, minimumChange: Double, clock: C
    ) -> AsyncStream<WorkProgress> where C.Duration == Duration {
        let (stream, continuation) = AsyncStream.makeStream(
            of: WorkProgress.self, bufferingPolicy: .bufferingNewest(64))
        let observer = ProgressObserver(
            interval: interval, minimumChange: minimumChange, clock: clock, region: aggregate.region,
            continuation: continuation)
        let identifier = observer.identifier
        let region = aggregate.region
        perform(in: region) { transaction in aggregate.add(observer, &transaction) }
        continuation.onTermination = { _ in
            perform(in: region) { transaction in aggregate.remove(identifier, &transaction) }
        }
        return stream
    }

    /// One job's snapshot. Lock held.
    static func snapshot(of job: JobNode) -> JobSnapshot {
        JobSnapshot(
            identifier: job.identifier, number: job.number, name: job.name, state: JobState(job),
            waitingReasons: waitingReasons(of: job),
            requestedPriority: JobPriority(level: job.requestedLevel),
            effectivePriority: JobPriority(level: job.effectiveLevel),
            submittedAt: EngineClock.instant(job.submittedAt),
            startedAt: job.startedAt.map(EngineClock.instant), attempts: job.attempts,
            completedUnits: job.progressCompleted,
            totalUnits: job.progressTotal, isCancelRequested: job.cancelRequested, control: JobControl(node: job))
    }

    /// Why a job has not started. Lock held.
    static func waitingReasons(of job: JobNode) -> [WaitingReason] {
        switch job.phase {
        case .running, .finished:
            return []
        case .ready:
            let leaf = job.queue.scheduler
            if leaf.isSuspended { return [.queueSuspended(job.queue.name)] }
            let domain = leaf.firstSaturatedNode ?? leaf
            return [
                .slot(
                    priority: JobPriority(level: job.effectiveLevel), domain: domain.name, running: domain.running,
                    width: domain.width)
            ]
        case .waiting:
            var reasons: [WaitingReason] = []
            if job.isHeld { reasons.append(.held) }
            let unfinished = job.dependencies.filter { $0.node.phase != .finished }
            if !unfinished.isEmpty {
                reasons.append(
                    .dependencies(unfinished.map { JobReference(identifier: $0.node.identifier, name: $0.node.name) }))
            }
            if let epoch = job.awaitedEpoch {
                reasons.append(.earlierJobs(epoch.unfinished))
            }
            switch job.timerWait {
            case .none: break
            case .delay: reasons.append(.delay(job.timing?.delay?.duration ?? .zero))
            case .retryBackoff: reasons.append(.retryBackoff(attempt: job.attempts + 1))
            }
            return reasons
        }
    }
}
