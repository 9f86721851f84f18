extension Engine {
    /// Adds a new job: links it into its queue, group and epoch, records its dependencies, and makes it ready if
    /// nothing blocks it. `dependencies` are (node, policy) pairs. Lock held.
    /// - Complexity: O(dependencies) plus escalation of dependencies whose effective priority rises.
    static func admit(
        _ job: JobNode, dependencies: [Dependency], group: JobGroup?, isHeld: Bool, _ transaction: inout Transaction
    ) {
        let queue = job.queue
        queue.admitted(job, &transaction)
        if let group { group.add(job, &transaction) }
        if job.isBarrier {
            queue.attachBarrier(job, &transaction)
        } else {
            queue.attachToEpoch(job, &transaction)
        }
        var immediate: JobOutcome?
        for dependency in dependencies {
            let upstream = dependency.node
            if let outcome = upstream.outcome {
                if outcome.isSuccess || dependency.policy == .runAnyway || immediate != nil { continue }
                immediate =
                    dependency.policy == .cancelDependent
                    ? .cancelled : .dependencyFailed(upstream.name, outcome.errorForDependents)
                continue
            }
            link(upstream, to: job, policy: dependency.policy, &transaction)
        }
        if isHeld {
            job.isHeld = true
            job.blockers += 1
        }
        if let delay = job.timing?.delay, delay.duration > .zero {
            job.timerWait = .delay
            job.timerGeneration += 1
            job.blockers += 1
            transaction.timers.append(job)
        }
        queue.emit(.submitted, job, &transaction)
        if let group = job.group, group.cancelRequested { immediate = .cancelled }
        if let immediate {
            job.cancelRequested = true
            finish(job, immediate, &transaction)
        } else if job.blockers == 0 {
            makeReady(job, &transaction)
        }
    }

    /// Records the edge `upstream → job`: the job waits for it and lends it its priority. Lock held.
    static func link(
        _ upstream: JobNode, to job: JobNode, policy: DependencyPolicy, _ transaction: inout Transaction
    ) {
        upstream.dependents.append(JobEdge(node: job, policy: policy))
        job.dependencies.append(JobEdge(node: upstream, policy: policy))
        job.blockers += 1
        upstream.inherited[job.effectiveLevel] += 1
        updateEffectivePriority(of: upstream, &transaction)
    }

    /// Removes one blocker; the job becomes ready when none is left. Lock held.
    static func unblock(_ job: JobNode, _ transaction: inout Transaction) {
        job.blockers -= 1
        assert(job.blockers >= 0, "Engine: blockers of \"\(job.name)\" below zero")
        if job.blockers == 0 && job.phase == .waiting { makeReady(job, &transaction) }
    }

    /// Puts a job in its queue's ready bucket. Lock held. - Complexity: O(depth).
    static func makeReady(_ job: JobNode, _ transaction: inout Transaction) {
        assert(job.phase == .waiting && job.blockers == 0, "Engine: \"\(job.name)\" made ready while blocked")
        job.phase = .ready
        job.queue.readyCount += 1
        // The leaf lent unretained (its queue keeps it): a retain and a release under the lock per job otherwise.
        Unmanaged.passUnretained(job.queue.scheduler)._withUnsafeGuaranteedRef { leaf in
            leaf.buckets[job.effectiveLevel].append(job)
            leaf.refresh(fullPath: false)
            transaction.markForDispatch(leaf)
        }
    }

    /// Takes a ready job out of its bucket. Lock held.
    static func unready(_ job: JobNode) {
        let leaf = job.queue.scheduler
        leaf.buckets[job.effectiveLevel].remove(job)
        job.queue.readyCount -= 1
        job.phase = .waiting
        leaf.refresh(fullPath: false)
    }

    /// The end of one attempt, on the job's task. Decides between retry and finish. Lock held.
    static func attemptEnded(_ job: JobNode, end: AttemptEnd, retryAllowed: Bool, _ transaction: inout Transaction) {
        job.phase = .waiting
        retireBlockedWaits(of: job)
        let queue = job.queue
        queue.runningCount -= 1
        queue.runningJobs.remove(job)
        queue.scheduler.releaseSlot()
        transaction.markForDispatch(queue.scheduler)
        let outcome: JobOutcome
        switch end {
        case .success:
            outcome = job.timedOut ? .timedOut : .succeeded
        case .failure(let error):
            if job.cancelRequested {
                outcome = .cancelled
            } else if job.timedOut {
                outcome = .timedOut
            } else {
                outcome = .failed(error)
            }
        }
        if let plan = job.timing?.retry, !job.cancelRequested, job.attempts < plan.policy.maximumAttempts {
            let retry: Bool
            switch outcome {
            case .failed: retry = retryAllowed
            case .timedOut: retry = plan.policy.retriesTimeouts
            default: retry = false
            }
            if retry {
                job.timerWait = .retryBackoff
                job.timerGeneration += 1
                job.blockers += 1
                transaction.timers.append(job)
                queue.emit(.retrying, job, &transaction)
                if !job.awaiters.isEmpty {
                    recountAwaiters(of: job)
                    breakDeadlocks(from: queue.scheduler, &transaction)
                }
                return
            }
        }
        finish(job, outcome, &transaction)
    }

    /// Finishes a job (running or not) and cascades to its dependents per their edge policies. Lock held.
    /// - Complexity: O(edges of the jobs that finish), iterative (no recursion however long the chain).
    static func finish(_ job: JobNode, _ outcome: JobOutcome, _ transaction: inout Transaction) {
        var work: [(JobNode, JobOutcome)] = []  // cascades only; no allocation for a lone job
        finishOne(job, outcome, cascade: &work, &transaction)
        while let (node, outcome) = work.popLast() {
            finishOne(node, outcome, cascade: &work, &transaction)
        }
    }

    /// Finishes one job; dependents that must finish too (per edge policy) go to `cascade`. The lone job of the
    /// common case is lent by the caller, not copied into the work list (each copy was a retain and a release
    /// under the lock). Lock held. The steps below run in this order; each is inlined here.
    private static func finishOne(
        _ node: JobNode, _ outcome: JobOutcome, cascade work: inout [(JobNode, JobOutcome)],
        _ transaction: inout Transaction
    ) {
        guard node.phase != .finished else { return }
        switch node.phase {
        case .ready: unready(node)
        case .running: preconditionFailure("Engine: finishing \"\(node.name)\" while its attempt runs")
        case .waiting, .finished: break
        }
        let queue = node.queue
        if node.attempts == 0 { queue.leftPending(&transaction) }
        // A plain job has no extras: it skips everything below that reads them (through JobNode's
        // accessors, each empty list read was a retain and a release).
        let extras = node.extras
        if let extras, let timer = extras.timer {
            extras.timer = nil
            transaction.actions.append { timer.cancel() }
        }
        let awaitedEpoch = extras?.awaitedEpoch
        withdrawLentPriority(of: node, extras, awaitedEpoch, &transaction)
        // A barrier that ends before it could run (cancelled, or a dependency failed) still owes the queue its
        // order: a stand-in barrier takes its place for what comes after it.
        let standIn =
            node.isBarrier && node.attempts == 0
            ? orderStandIn(for: node, awaiting: awaitedEpoch, &transaction) : nil
        applyReportedProgress(node, &transaction)  // its last report counts in the totals it leaves
        node.phase = .finished
        node.outcome = outcome
        node.isDone.store(true, ordering: .releasing)
        let remaining = ProgressRemainder(
            units: node.progressTotal - node.progressCompleted, shares: JobNode.progressShareUnit - node.progressShare)
        node.progressCompleted = node.progressTotal
        node.progressShare = JobNode.progressShareUnit
        if let extras { releaseDependents(of: node, outcome, extras, standIn: standIn, cascade: &work, &transaction) }
        leaveEpoch(node, &transaction)
        discardFinishedState(of: node, extras, &transaction)
        extras?.group?.finished(node, remaining: remaining, &transaction)
        queue.finished(node, outcome, remaining: remaining, &transaction)
    }

    /// The priority a finishing job lent takes back: what it gave its dependencies and the earlier jobs its
    /// barrier waited for. Lock held.
    @inline(__always)
    private static func withdrawLentPriority(
        of node: JobNode, _ extras: JobNodeExtras?, _ awaitedEpoch: QueueEpoch?, _ transaction: inout Transaction
    ) {
        if let extras {
            for edge in extras.dependencies where edge.node.phase != .finished {
                edge.node.inherited[node.effectiveLevel] -= 1
                updateEffectivePriority(of: edge.node, &transaction)
            }
        }
        if let awaitedEpoch {
            for member in node.queue.members(of: awaitedEpoch) {
                member.inherited[node.effectiveLevel] -= 1
                updateEffectivePriority(of: member, &transaction)
            }
        }
    }

    /// Each unfinished dependent, per its edge's policy: released, or sent to `cascade` to be cancelled or failed.
    /// What ran after a barrier that never ran now waits for its stand-in. Lock held.
    @inline(__always)
    private static func releaseDependents(
        of node: JobNode, _ outcome: JobOutcome, _ extras: JobNodeExtras, standIn: JobNode?,
        cascade work: inout [(JobNode, JobOutcome)], _ transaction: inout Transaction
    ) {
        for edge in extras.dependents where edge.node.phase != .finished {
            if let standIn, edge.policy == .runAnyway {
                // What comes after the barrier now waits for its stand-in (linked before this edge lets go).
                link(standIn, to: edge.node, policy: .runAnyway, &transaction)
                unblock(edge.node, &transaction)
            } else if outcome.isSuccess || edge.policy == .runAnyway {
                unblock(edge.node, &transaction)
            } else if edge.policy == .cancelDependent {
                edge.node.cancelRequested = true
                work.append((edge.node, .cancelled))
            } else {
                work.append((edge.node, .dependencyFailed(node.name, outcome.errorForDependents)))
            }
        }
    }

    /// Leaves the queue epoch the job was submitted in; the last of an epoch to finish releases the barrier that
    /// waited for it. Lock held.
    @inline(__always)
    private static func leaveEpoch(_ node: JobNode, _ transaction: inout Transaction) {
        // `take()`: moves the job's reference out instead of copying it and then releasing the field.
        guard let epoch = node.epoch.take() else { return }
        epoch.members.remove(node)
        guard epoch.unfinished == 0, let barrier = epoch.barrier else { return }
        epoch.barrier = nil
        if barrier.awaitedEpoch === epoch {
            barrier.awaitedEpoch = nil
            unblock(barrier, &transaction)
        }
    }

    /// Resumes the job's awaiters, schedules its completion handlers, and hands what it no longer needs (edges,
    /// timing, task-locals, its body) to the transaction to be released after the lock. Lock held.
    @inline(__always)
    private static func discardFinishedState(
        of node: JobNode, _ extras: JobNodeExtras?, _ transaction: inout Transaction
    ) {
        // Each field is reset only when it holds something: a plain job has none of these, and assigning an
        // empty array or nil still released the old value.
        if !node.awaiters.isEmpty {
            for awaiter in node.awaiters {
                awaiter.slot?.index = -1
                releaseBlock(awaiter, of: node)
                transaction.resumptions.append(awaiter.continuation)
            }
            node.awaiters = []
        }
        if let extras {
            if !extras.completionHandlers.isEmpty {
                let handlers = extras.completionHandlers
                transaction.actions.append { for handler in handlers { handler() } }
                extras.completionHandlers = []
            }
            if !extras.dependencies.isEmpty {
                transaction.discardedValues.append(extras.dependencies)
                extras.dependencies = []
            }
            if !extras.dependents.isEmpty {
                transaction.discardedValues.append(extras.dependents)
                extras.dependents = []
            }
            if extras.awaitedEpoch != nil { extras.awaitedEpoch = nil }
            if let starter = extras.starter {  // a self-completing job's: what it captured goes now
                transaction.discardedValues.append(starter)
                extras.starter = nil
            }
            if let attempt = extras.selfCompletingAttempt {  // defensive: ending its attempt dropped it already
                transaction.discardedValues.append(attempt)
                extras.selfCompletingAttempt = nil
            }
        }
        if let timing = node.timing {
            transaction.discard(timing)
            node.timing = nil
        }
        if let locals = node.taskLocals {
            transaction.discard(locals)
            node.taskLocals = nil
        }
        if node !== transaction.bodyOwner { node.discardBody(into: &transaction) }
    }

    /// For a barrier that finishes without having run: a stand-in barrier (named after it, with an empty body)
    /// that waits for what the barrier still waited for — the unfinished jobs submitted before it and an
    /// unfinished earlier barrier of its queue — and takes its place as the queue's last barrier; nil when the
    /// barrier waited for nothing. So a cancelled barrier keeps holding back the jobs after it, including jobs
    /// submitted after the cancellation, until the earlier ones have finished, and the stand-in is an ordinary job
    /// to snapshots, cycle checks and priority escalation. Lock held.
    /// - Complexity: O(jobs of the queue) when the barrier waited for earlier jobs (their priority contribution
    ///   moves to the stand-in), like submitting a barrier.
    private static func orderStandIn(
        for barrier: JobNode, awaiting awaitedEpoch: QueueEpoch?, _ transaction: inout Transaction
    ) -> JobNode? {
        let queue = barrier.queue
        let predecessors = barrier.dependencies.lazy.map(\.node).filter {
            $0.isBarrier && $0.queue === queue && $0.phase != .finished
        }
        let epoch = awaitedEpoch.flatMap { $0.unfinished > 0 ? $0 : nil }
        guard epoch != nil || !predecessors.isEmpty else { return nil }
        let standIn = TypedJobNode<Void, Never>(
            identifier: nextIdentifier(), name: "\(barrier.name) (stand-in: keeps the order)", queue: queue,
            priority: JobPriority(level: barrier.requestedLevel), isBlocking: false, isBarrier: true, body: {})
        queue.admitted(standIn, &transaction)
        for predecessor in predecessors { link(predecessor, to: standIn, policy: .runAnyway, &transaction) }
        if let epoch {
            epoch.barrier = standIn
            standIn.awaitedEpoch = epoch
            standIn.blockers += 1
            for member in queue.members(of: epoch) {
                member.inherited[standIn.effectiveLevel] += 1
                updateEffectivePriority(of: member, &transaction)
            }
        }
        if queue.lastBarrier === barrier { queue.lastBarrier = standIn }
        queue.emit(.submitted, standIn, &transaction)
        return standIn
    }

    /// Cancels a job: a pending one finishes at once, a running one has its task cancelled. Lock held.
    static func cancel(_ job: JobNode, _ transaction: inout Transaction) {
        guard job.phase != .finished, !job.cancelRequested || job.phase != .running else { return }
        job.cancelRequested = true
        if job.phase == .running {
            if let cancel = job.attemptCanceller { transaction.actions.append(cancel) }
        } else {
            finish(job, .cancelled, &transaction)
        }
    }

    /// A delay or retry-backoff timer fired. Lock held.
    static func timerFired(_ job: JobNode, generation: Int, _ transaction: inout Transaction) {
        guard job.phase == .waiting, job.timerWait != .none, job.timerGeneration == generation else { return }
        job.timerWait = .none
        job.timer = nil
        unblock(job, &transaction)
    }

    /// Starts the delay or retry-backoff timer of `job`. Lock not held.
    static func startTimer(for job: JobNode) {
        let region = job.queue.region.lockCurrent().takeUnretainedValue()
        let wait = job.timerWait
        let generation = job.timerGeneration
        let timing = job.timing
        let attempts = job.attempts
        unlock(region)
        let sleep: (@Sendable (Duration) async throws -> Void)?
        let duration: Duration
        switch wait {
        case .none:
            return
        case .delay:
            sleep = timing?.delay?.sleep
            duration = timing?.delay?.duration ?? .zero
        case .retryBackoff:
            sleep = timing?.retry?.sleep
            duration = timing?.retry?.policy.delay(afterAttempt: attempts) ?? .zero
        }
        guard let sleep else { return }
        let timer = Task.detached {
            do { try await sleep(duration) } catch { return }
            perform(in: job.queue.region) { transaction in timerFired(job, generation: generation, &transaction) }
        }
        // A bare hold, not `perform`: this runs while a transaction is carried out, and a `perform` here would
        // admit the intake and carry out its own transaction, which may start timers again, recursively.
        let locked = job.queue.region.lockCurrent().takeUnretainedValue()
        let current =
            job.phase == .waiting && job.timerWait == wait && job.timerGeneration == generation
            && job.timer == nil
        if current { job.timer = timer }
        unlock(locked)
        if !current { timer.cancel() }
    }

    /// A job's timeout elapsed: if the same attempt still runs, it is marked timed out and its task cancelled.
    static func timeoutFired(_ job: JobNode, attempt: Int) {
        perform(in: job.queue.region) { transaction in
            guard job.phase == .running, job.attempts == attempt, !job.timedOut else { return }
            job.timedOut = true
            job.queue.emit(.timedOut, job, &transaction)
            if let cancel = job.attemptCanceller { transaction.actions.append(cancel) }
        }
    }
}
