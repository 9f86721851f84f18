extension Engine {
    /// Recomputes the effective priority of `job` from its own and its contributions, and propagates any change to
    /// its unfinished dependencies, iteratively. A ready job moves to the tail of its new bucket; a running job's
    /// task is escalated (task priorities only rise). Lock held.
    /// - Complexity: O(1) when nothing changes; otherwise O(edges of the jobs whose effective priority changes).
    static func updateEffectivePriority(of job: JobNode, _ transaction: inout Transaction) {
        var work = [job]
        while let node = work.popLast() {
            guard node.phase != .finished else { continue }
            let old = node.effectiveLevel
            let new = node.computedEffectiveLevel
            if old == new { continue }
            if node.phase == .ready {
                let leaf = node.queue.scheduler
                leaf.buckets[old].remove(node)
                node.effectiveLevel = new
                leaf.buckets[new].append(node)
                leaf.refresh(fullPath: false)
            } else {
                node.effectiveLevel = new
            }
            if node.phase == .running, new > old, let task = node.task {
                node.worker?.matchesLevel = false
                let priority = JobPriority(level: new).taskPriority
                let ticket = node.worker?.ticket
                transaction.actions.append { escalate(task, to: priority, ticket) }
            }
            node.queue.emit(.priorityChanged, node, &transaction)
            for edge in node.dependencies where edge.node.phase != .finished {
                edge.node.inherited[old] -= 1
                edge.node.inherited[new] += 1
                work.append(edge.node)
            }
            if let epoch = node.awaitedEpoch {
                for member in node.queue.members(of: epoch) {
                    member.inherited[old] -= 1
                    member.inherited[new] += 1
                    work.append(member)
                }
            }
        }
    }

    /// Raises the priority of a worker's task (the engine's own order does not depend on it; it tells the executor),
    /// and, for a blocking worker, of the work its task waits as in its executor's queue (see ``EnqueueTicket``).
    /// `Task.escalatePriority(to:)` is new in the 2025 Apple systems; before them, a task at the higher priority
    /// that awaits the worker's task escalates it the same way, and ends with it: a worker escalated while running
    /// a job ends after that job (its level no longer matches), so the awaiting task lives no longer than the job.
    /// Lock not held.
    static func escalate(_ task: Task<Void, Never>, to priority: TaskPriority, _ ticket: EnqueueTicket?) {
        ticket?.escalate(to: priority)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            task.escalatePriority(to: priority)
        } else {
            Task.detached(priority: priority) { await task.value }
        }
    }

    /// Sets the priority a job asked for; its effective priority follows. Lock held.
    static func setRequestedPriority(_ job: JobNode, _ priority: JobPriority, _ transaction: inout Transaction) {
        guard job.phase != .finished else { return }
        job.requestedLevel = priority.level
        updateEffectivePriority(of: job, &transaction)
        if job.phase == .ready { transaction.markForDispatch(job.queue.scheduler) }
    }
}
