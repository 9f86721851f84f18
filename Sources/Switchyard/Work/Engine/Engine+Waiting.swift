extension Engine {
    /// How a wait for a job ended.
    enum WaitEnd {
        case finished
        case deadlock(DeadlockReport)
        case left
    }

    /// Waits until `job` finishes. The waiter lends the job `level` (escalation) while it waits. When called from
    /// inside another job's body, a wait that can never end (see ``DeadlockReport``) ends with `.deadlock`: at
    /// once if that is so when it begins, or as soon as it becomes so (a width shrinks, the awaited job goes back
    /// to waiting for a retry; see ``BlockedJobs``).
    /// A `cancellable` wait ends with `.left` when the waiting task is cancelled (the job is not cancelled).
    /// With `thenRequest`, the job's own requested priority becomes that in the same lock hold that registers the
    /// wait (the coalescer hands its first caller's priority over to the wait this way).
    /// With `followsTask`, `level` is the waiting task's own priority, and the wait registers at that task's
    /// priority when it registers (an escalation between the caller's reading and the escalation handler's
    /// installation would otherwise be lost).
    static func wait(
        for job: JobNode, level: Int, cancellable: Bool, thenRequest: JobPriority? = nil, followsTask: Bool = false
    ) async -> WaitEnd {
        // A wait from a job of another scheduler tree can never deadlock on a slot (see ``BlockedJobs``) and touches
        // only the awaited job: that job's region's lock is all it takes, and the waiter's state is not read.
        let context = JobContext.current
        let waiter = context.flatMap { context in
            context.node.queue.scheduler.unretainedRoot.toOpaque() == job.queue.scheduler.unretainedRoot.toOpaque()
                ? context.node : nil
        }
        // A wait made inside a job (the only kind that can deadlock) always has a slot: its report is put there, and
        // through it the wait lends the job a higher level when the engine escalates the waiting job's worker.
        let slot = cancellable || context != nil ? AwaiterSlot() : nil
        func begin(_ continuation: CheckedContinuation<Bool, Never>) {
            // Read in the waiting task, after the escalation handler is installed: an escalation from here on
            // either is seen here or reaches `raise` once the wait is registered (it waits for this lock).
            let level = followsTask ? max(level, JobPriority(Task.currentPriority).level) : level
            perform(in: job.queue.region) { transaction in
                register(
                    continuation, slot: slot, on: job, level: level, waiter: waiter, cancellable: cancellable,
                    &transaction)
                if let thenRequest { setRequestedPriority(job, thenRequest, &transaction) }
            }
        }
        let finished: Bool
        if let slot {
            finished = await withTaskPriorityEscalationHandler {
                guard cancellable else { return await withCheckedContinuation { begin($0) } }
                return await withTaskCancellationHandler {
                    await withCheckedContinuation { begin($0) }
                } onCancel: {
                    perform(in: job.queue.region) { transaction in leave(job, slot: slot, &transaction) }
                }
            } onPriorityEscalated: { _, escalated in
                // The waiting task was escalated (the worker of a job that was raised, or a task awaited by a
                // higher one): its wait lends the job the new level, as a wait begun at it would.
                let level = JobPriority(escalated).level
                perform(in: job.queue.region) { transaction in raise(job, slot: slot, to: level, &transaction) }
            }
        } else {
            finished = await withCheckedContinuation { begin($0) }
        }
        if finished { return .finished }
        if let slot {
            let region = job.queue.region.lockCurrent().takeUnretainedValue()
            let report = slot.deadlock
            unlock(region)
            if let report { return .deadlock(report) }
        }
        return .left
    }

    private static func register(
        _ continuation: CheckedContinuation<Bool, Never>, slot: AwaiterSlot?, on job: JobNode, level: Int,
        waiter: JobNode?, cancellable: Bool, _ transaction: inout Transaction
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
            slot?.deadlock = DeadlockReport(
                waitingJob: waiter.name, awaitedJob: job.name, domain: job.queue.name, width: job.queue.scheduler.width)
            transaction.actions.append { continuation.resume(returning: false) }
            return
        }
        var awaiter = JobAwaiter(
            slot: slot, level: level, continuation: continuation, waiter: waiter,
            generation: waiter.map { $0.phase == .running ? $0.blockGeneration : -1 } ?? 0)
        if let waiter, waiter.phase == .running, job.phase != .running, countBlock(of: waiter, on: job) {
            awaiter.isCounted = true
            if let stuck = waiter.blockedNodes.first(where: \.node.isDeadlocked)?.node {
                releaseBlock(awaiter, of: job)
                slot?.deadlock = DeadlockReport(
                    waitingJob: waiter.name, awaitedJob: job.name, domain: stuck.name, width: stuck.width)
                transaction.actions.append { continuation.resume(returning: false) }
                return
            }
        }
        slot?.index = job.awaiters.count
        job.awaiters.append(awaiter)
        job.inherited[level] += 1
        updateEffectivePriority(of: job, &transaction)
    }

    /// A waiting task was escalated to `level`: its wait lends the job that level from now on (a lower one changes
    /// nothing; nor does a wait that already ended). Lock held. - Complexity: O(1) plus escalation.
    static func raise(_ job: JobNode, slot: AwaiterSlot, to level: Int, _ transaction: inout Transaction) {
        guard slot.index >= 0 else { return }
        let old = job.awaiters[slot.index].level
        guard old < level else { return }
        job.awaiters[slot.index].level = level
        job.inherited[old] -= 1
        job.inherited[level] += 1
        updateEffectivePriority(of: job, &transaction)
    }

    /// A cancellable waiter leaves: its contribution is withdrawn and it resumes with `.left`; nothing happens if
    /// it is no longer waiting (the job finished first). Lock held. - Complexity: O(1) plus escalation.
    static func leave(_ job: JobNode, slot: AwaiterSlot, _ transaction: inout Transaction) {
        guard slot.index >= 0 else { return }
        removeAwaiter(at: slot.index, of: job, &transaction)
    }

    /// Ends the wait at `index` of `job.awaiters` (the last waiter takes its place), withdrawing its
    /// contribution; it resumes as not finished. Lock held. - Complexity: O(1) plus escalation.
    static func removeAwaiter(at index: Int, of job: JobNode, _ transaction: inout Transaction) {
        let awaiter = job.awaiters[index]
        assert(awaiter.slot.map { $0.index == index } ?? true, "Engine: a waiter's slot of \"\(job.name)\" is stale")
        awaiter.slot?.index = -1
        let last = job.awaiters.removeLast()
        if index < job.awaiters.count {
            job.awaiters[index] = last
            last.slot?.index = index
        } else if job.awaiters.isEmpty && job.awaiters.capacity > 16 {
            // Every waiter left a job that had many: give their buffer back now rather than when the job ends.
            job.awaiters = []
        }
        releaseBlock(awaiter, of: job)
        job.inherited[awaiter.level] -= 1
        updateEffectivePriority(of: job, &transaction)
        transaction.actions.append { awaiter.continuation.resume(returning: false) }
    }
}
