/// The queue's side of the engine's transitions. Every function here runs with the engine lock held.
extension WorkQueue {
    /// A job was submitted.
    func admitted(_ job: JobNode, _ transaction: inout Transaction) {
        let wasIdle = live.isEmpty
        live.append(job)
        pendingCount += 1
        submittedCount += 1
        progress.jobAdded(isFirst: wasIdle, &transaction)
    }

    /// A job left the pending state (started its first attempt, or finished without starting): room for one more.
    func leftPending(_ transaction: inout Transaction) {
        pendingCount -= 1
        grantRoom(&transaction)
    }

    /// Hands free room to the submitters waiting for it, in FIFO order.
    func grantRoom(_ transaction: inout Transaction) {
        guard let maximumPending else { return }
        while pendingCount + reservedRoom < maximumPending, let waiter = roomWaiters.popFirst() {
            reservedRoom += 1
            transaction.actions.append { waiter.resume(returning: true) }
        }
    }

    /// A job finished.
    func finished(
        _ job: JobNode, _ outcome: JobOutcome, remaining: ProgressRemainder, _ transaction: inout Transaction
    ) {
        live.remove(job)
        // The live list's retain, released after the lock: the job's deinit may run user code (its value's), and
        // transactions point at nodes, queues and scheduler nodes unretained for the rest of the hold (see
        // `Transaction`): no job may be released for the last time under the lock.
        transaction.discard(retained: Unmanaged.passUnretained(job as AnyObject))
        // A finished barrier holds nothing back; keeping it would also keep a cycle (it retains this queue).
        if lastBarrier === job { lastBarrier = nil }
        switch outcome {
        case .succeeded: succeededCount += 1
        case .cancelled: cancelledCount += 1
        case .failed, .timedOut, .dependencyFailed:
            failedCount += 1
            recordFailure(job, outcome, &transaction)
        }
        emit(.finished, job, &transaction)
        progress.jobFinished(completedUnits: remaining.units, shares: remaining.shares, &transaction)
        if live.isEmpty && !idleWaiters.isEmpty {
            let waiters = idleWaiters
            idleWaiters = []
            transaction.actions.append { for waiter in waiters { waiter.resume() } }
        }
    }

    /// Puts a non-barrier job in the current epoch, behind the last barrier if it has not finished.
    func attachToEpoch(_ job: JobNode, _ transaction: inout Transaction) {
        if let barrier = lastBarrier, barrier.phase != .finished {
            Engine.link(barrier, to: job, policy: .runAnyway, &transaction)
        }
        epoch.members.append(job)
        job.epoch = epoch
    }

    /// Makes `barrier` wait for every unfinished job submitted before it, and starts a new epoch behind it.
    func attachBarrier(_ barrier: JobNode, _ transaction: inout Transaction) {
        if let previous = lastBarrier, previous.phase != .finished {
            Engine.link(previous, to: barrier, policy: .runAnyway, &transaction)
        }
        if epoch.unfinished > 0 {
            epoch.barrier = barrier
            barrier.awaitedEpoch = epoch
            barrier.blockers += 1
            // The barrier waits for the epoch's jobs as if they were dependencies: they inherit its priority.
            for member in members(of: epoch) {
                member.inherited[barrier.effectiveLevel] += 1
                Engine.updateEffectivePriority(of: member, &transaction)
            }
        }
        epoch = QueueEpoch()
        lastBarrier = barrier
    }

    /// The unfinished jobs of `epoch`. - Complexity: O(those jobs).
    func members(of epoch: QueueEpoch) -> [JobNode] {
        epoch.members.nodes()
    }

    /// Emits a lifecycle event if anyone observes. The event is built now, under the lock, and handed to the
    /// observers' streams after it (see ``OrderedOutbox``), in the order events happened. Lock held.
    func emit(_ kind: JobEvent.Kind, _ job: JobNode, _ transaction: inout Transaction) {
        guard events.isActive else { return }
        transaction.deliverAfterUnlock(JobEvent(job: job, kind: kind), through: eventOutbox) { [events] in
            events.emit($0)
        }
    }
}
