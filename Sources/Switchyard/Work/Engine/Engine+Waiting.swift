extension Engine {
    /// How a wait for a job ended.
    enum WaitEnd {
        case finished
        case deadlock(DeadlockReport)
        case left
    }

    /// Waits until `job` finishes. The waiter lends the job `level` (escalation) while it waits. When called from
    /// inside another job's body, a wait that can never end (see ``DeadlockReport``) ends at once with `.deadlock`.
    /// A `cancellable` wait ends with `.left` when the waiting task is cancelled (the job is not cancelled).
    /// With `thenRequest`, the job's own requested priority becomes that in the same lock hold that registers the
    /// wait (the coalescer hands its first caller's priority over to the wait this way).
    static func wait(
        for job: JobNode, level: Int, cancellable: Bool, thenRequest: JobPriority? = nil
    ) async -> WaitEnd {
        let waiter = JobContext.current?.node
        var report: DeadlockReport?
        let finished: Bool
        if cancellable {
            let slot = AwaiterSlot()
            finished = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    perform { transaction in
                        register(
                            continuation, slot: slot, on: job, level: level, waiter: waiter,
                            cancellable: true, report: &report, &transaction)
                        if let thenRequest { setRequestedPriority(job, thenRequest, &transaction) }
                    }
                }
            } onCancel: {
                perform { transaction in leave(job, slot: slot, &transaction) }
            }
        } else {
            finished = await withCheckedContinuation { continuation in
                perform { transaction in
                    register(
                        continuation, slot: nil, on: job, level: level, waiter: waiter,
                        cancellable: false, report: &report, &transaction)
                    if let thenRequest { setRequestedPriority(job, thenRequest, &transaction) }
                }
            }
        }
        if finished { return .finished }
        if let report { return .deadlock(report) }
        return .left
    }

    private static func register(
        _ continuation: CheckedContinuation<Bool, Never>, slot: AwaiterSlot?, on job: JobNode, level: Int,
        waiter: JobNode?, cancellable: Bool, report: inout DeadlockReport?, _ transaction: inout Transaction
    ) {
        if job.phase == .finished {
            transaction.actions.append { continuation.resume(returning: true) }
            return
        }
        if cancellable && Task.isCancelled {
            transaction.actions.append { continuation.resume(returning: false) }
            return
        }
        if let waiter, waiter === job {
            report = DeadlockReport(
                waitingJob: waiter.name, awaitedJob: job.name, domain: job.queue.name, width: job.queue.scheduler.width)
            transaction.actions.append { continuation.resume(returning: false) }
            return
        }
        var awaiter = JobAwaiter(
            slot: slot, level: level, continuation: continuation, blocking: nil, generation: 0)
        if let waiter, waiter.phase == .running, job.phase != .running {
            let awaitedPath = job.queue.scheduler.path
            let shared = waiter.queue.scheduler.path.filter { node in awaitedPath.contains { $0 === node } }
            if !shared.isEmpty {
                // Counted once per waiting job (not per wait), so a body awaiting several jobs, or child tasks
                // that inherit its context, count as one blocked slot.
                if waiter.blockedWaits == 0 {
                    waiter.blockedPath = shared
                    for node in shared { node.blockedAwaiting += 1 }
                }
                waiter.blockedWaits += 1
                awaiter.blocking = waiter
                awaiter.generation = waiter.blockGeneration
                if let stuck = waiter.blockedPath.first(where: {
                    $0.running >= $0.width && $0.blockedAwaiting >= $0.running
                }) {
                    releaseBlock(awaiter)
                    report = DeadlockReport(
                        waitingJob: waiter.name, awaitedJob: job.name, domain: stuck.name, width: stuck.width)
                    transaction.actions.append { continuation.resume(returning: false) }
                    return
                }
            }
        }
        slot?.index = job.awaiters.count
        job.awaiters.append(awaiter)
        job.inherited[level] += 1
        updateEffectivePriority(of: job, &transaction)
    }

    /// Un-counts a wait from deadlock detection (once). Lock held.
    static func releaseBlock(_ awaiter: JobAwaiter) {
        guard let waiter = awaiter.blocking, waiter.blockGeneration == awaiter.generation, waiter.blockedWaits > 0
        else { return }
        waiter.blockedWaits -= 1
        if waiter.blockedWaits == 0 {
            for node in waiter.blockedPath { node.blockedAwaiting -= 1 }
            waiter.blockedPath = []
        }
    }

    /// The waiting job's attempt ended: waits its body (or tasks it left behind) still have no longer hold a
    /// slot. Lock held.
    static func retireBlockedWaits(of job: JobNode) {
        job.blockGeneration += 1
        guard job.blockedWaits > 0 else { return }
        for node in job.blockedPath { node.blockedAwaiting -= 1 }
        job.blockedPath = []
        job.blockedWaits = 0
    }

    /// A cancellable waiter leaves: its contribution is withdrawn and it resumes with `.left`; nothing happens if
    /// it is no longer waiting (the job finished first). The last waiter takes its place. Lock held.
    /// - Complexity: O(1) plus escalation.
    static func leave(_ job: JobNode, slot: AwaiterSlot, _ transaction: inout Transaction) {
        let index = slot.index
        guard index >= 0 else { return }
        slot.index = -1
        let awaiter = job.awaiters[index]
        assert(awaiter.slot === slot, "Engine: a waiter's slot points at another waiter of \"\(job.name)\"")
        let last = job.awaiters.removeLast()
        if index < job.awaiters.count {
            job.awaiters[index] = last
            last.slot?.index = index
        }
        releaseBlock(awaiter)
        job.inherited[awaiter.level] -= 1
        updateEffectivePriority(of: job, &transaction)
        transaction.actions.append { awaiter.continuation.resume(returning: false) }
    }

    /// The job starts: waits on it no longer block a slot. Lock held.
    static func releaseBlockedAwaiters(of job: JobNode) {
        for index in job.awaiters.indices where job.awaiters[index].blocking != nil {
            releaseBlock(job.awaiters[index])
            job.awaiters[index].blocking = nil
        }
    }
}
