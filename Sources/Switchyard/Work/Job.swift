import Synchronization

/// A handle to a submitted job: await its value, cancel it, change its priority, inspect it.
///
/// Handles are cheap values; copies refer to the same job. The job runs whether or not anyone keeps a handle.
public struct Job<Success: Sendable, Failure: Error>: Sendable, Hashable, CustomStringConvertible {
    @usableFromInline
    let node: TypedJobNode<Success, Failure>

    @usableFromInline
    init(node: TypedJobNode<Success, Failure>) { self.node = node }

    /// The job's process-unique identifier (increasing in submission order).
    public var identifier: UInt64 { node.identifier }
    /// The job's number in its queue, as snapshots and events show it: 1 for the queue's first job, then
    /// increasing in submission order (jobs submitted at once from several threads are numbered in the order they
    /// reached the queue). A barrier's stand-in, which a snapshot may list, takes a number too.
    public var number: UInt64 { node.number }
    /// The job's name.
    public var name: String { node.name }
    /// The queue the job was submitted to.
    public var queue: WorkQueue { node.queue }

    /// The job's value, once it has finished.
    ///
    /// While it waits, the awaiting task lends its priority to the job (escalation); awaited from another job's body,
    /// it lends that job's later escalations too (priority inheritance through waits). Awaiting does not respond to
    /// the awaiting task's cancellation (like `Task.value`); cancel the job instead. Called from inside another job
    /// whose queue's or domain's slot the awaited job needs, while the jobs waiting that way fill that width, it
    /// throws ``JobError/wouldDeadlock(_:)`` instead of hanging: at once, or when that becomes so later (a width
    /// shrinks, the awaited job goes back to waiting for a retry; the newest blocked jobs are reported first).
    /// - Throws: the job's ``JobError``.
    ///
    /// Inlinable, so that it is compiled for the caller's `Success` and `Failure`: unspecialized, each call would
    /// ask the runtime for the metadata of `JobError<Failure>` and its optional.
    @inlinable
    public var value: Success {
        get async throws(JobError<Failure>) {
            if node.isDone.load(ordering: .acquiring), case .succeeded = node.outcome { return node.successValue }
            return try await valueAfterFinishing()
        }
    }

    /// ``value`` once the job has finished: waits if it has not.
    @usableFromInline
    func valueAfterFinishing() async throws(JobError<Failure>) -> Success {
        if !node.isDone.load(ordering: .acquiring), let error = await waitForFinish() { throw error }
        if case .succeeded = node.outcome { return node.successValue }
        throw node.error
    }

    /// The job's result, once it has finished (see ``value``).
    public var result: Result<Success, JobError<Failure>> {
        get async {
            if !node.isDone.load(ordering: .acquiring), let error = await waitForFinish() { return .failure(error) }
            return node.result
        }
    }

    /// Waits until the job has finished; returns an error only for a wait that could never end.
    private func waitForFinish() async -> JobError<Failure>? {
        let level = JobPriority(Task.currentPriority).level
        switch await Engine.wait(for: node, level: level, cancellable: false, followsTask: true) {
        case .finished:
            // The acquiring load pairs with the releasing store in `Engine.finish`: the outcome and typed result
            // written before it are visible here without the lock.
            let done = node.isDone.load(ordering: .acquiring)
            assert(done, "Job: resumed before the job finished")
            return nil
        case .deadlock(let report):
            return .wouldDeadlock(report)
        case .left:
            return .cancelled
        }
    }

    /// Cancels the job. A pending job finishes at once as cancelled and never runs; a running job's task is
    /// cancelled (its body decides when to stop); a finished job is unaffected. Idempotent.
    /// - Complexity: O(1) for a pending job with no dependents (plus the cascade to dependents per edge policy).
    public func cancel() {
        Engine.perform(in: node.queue.region) { transaction in Engine.cancel(node, &transaction) }
    }

    /// Releases a job submitted with ``JobOptions/isHeld``; it becomes ready once nothing else blocks it.
    /// Has no effect on a job that is not held.
    public func release() {
        Engine.perform(in: node.queue.region) { transaction in
            guard node.isHeld, node.phase == .waiting else { return }
            node.isHeld = false
            Engine.unblock(node, &transaction)
        }
    }

    /// The job's state. - Complexity: O(1).
    public var state: JobState { Engine.perform(in: node.queue.region) { _ in JobState(node) } }

    /// The priority the job asked for. Setting it re-files a ready job in O(1) (at the back of its new level) and
    /// re-propagates escalation to the job's dependencies; a running job's task can only be escalated. No effect on
    /// a finished job.
    public var priority: JobPriority {
        get { Engine.perform(in: node.queue.region) { _ in JobPriority(level: node.requestedLevel) } }
        nonmutating set {
            Engine.perform(in: node.queue.region) { transaction in
                Engine.setRequestedPriority(node, newValue, &transaction)
            }
        }
    }

    /// The priority the engine uses for the job: the maximum of its own and everything waiting on it.
    public var effectivePriority: JobPriority {
        Engine.perform(in: node.queue.region) { _ in JobPriority(level: node.effectiveLevel) }
    }

    /// Adds a dependency before the job starts (typically to a job submitted with ``JobOptions/isHeld``).
    ///
    /// A finished dependency applies its edge policy at once (a failed one may cancel or fail this job).
    /// - Throws: ``DependencyError`` when the job has started, or when the edge would close a cycle (the error
    ///   lists it).
    /// - Complexity: O(jobs upstream of `dependency`) for the cycle check.
    public func addDependency<S, F>(_ dependency: Job<S, F>, policy: DependencyPolicy = .cancelDependent)
        throws(DependencyError)
    {
        let upstream = dependency.node
        try Engine.perform(uniting: [node.queue.region, upstream.queue.region]) {
            (transaction) throws(DependencyError) in
            try Engine.addDependency(upstream, to: node, policy: policy, &transaction)
        }
    }

    /// Calls `handler` with the result once the job finishes, through `delivery` (at once if it has finished).
    /// Called exactly once.
    public func onCompletion(
        on delivery: Delivery = .task(),
        _ handler: @escaping @Sendable (Result<Success, JobError<Failure>>) -> Void
    ) {
        let node = self.node
        let deliver: @Sendable () -> Void = {
            // Runs only once the job has finished; the acquiring load makes its result visible without the lock.
            let done = node.isDone.load(ordering: .acquiring)
            assert(done, "Job: completion handler ran before the job finished")
            let result = node.result
            delivery.deliver { handler(result) }
        }
        let finished = Engine.perform(in: node.queue.region) { _ in
            if node.phase == .finished { return true }
            node.completionHandlers.append(deliver)
            return false
        }
        if finished { deliver() }
    }

    /// A dependency edge on this job, for ``JobOptions/dependencies``.
    public func dependency(policy: DependencyPolicy = .cancelDependent) -> Dependency {
        Dependency(self, policy: policy)
    }

    public static func == (lhs: Job, rhs: Job) -> Bool { lhs.node === rhs.node }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(node)) }

    public var description: String { "Job \"\(name)\" #\(number) of \"\(queue.name)\" (\(state))" }
}

extension Engine {
    /// Adds the edge `upstream → job` after submission, rejecting cycles. Lock held.
    static func addDependency(
        _ upstream: JobNode, to job: JobNode, policy: DependencyPolicy, _ transaction: inout Transaction
    ) throws(DependencyError) {
        if upstream === job {
            throw DependencyError(
                code: .selfDependency, queue: job.queue.name, dependent: job.name, dependency: upstream.name,
                cycle: [])
        }
        if job.isStarted {
            throw DependencyError(
                code: .alreadyStarted, queue: job.queue.name, dependent: job.name, dependency: upstream.name,
                cycle: [])
        }
        if let outcome = upstream.outcome {
            if outcome.isSuccess || policy == .runAnyway { return }
            job.cancelRequested = policy == .cancelDependent
            finish(
                job,
                policy == .cancelDependent ? .cancelled : .dependencyFailed(upstream.name, outcome.errorForDependents),
                &transaction)
            return
        }
        if let path = pathUpstream(from: upstream, to: job) {
            throw DependencyError(
                code: .cycle, queue: job.queue.name, dependent: job.name, dependency: upstream.name,
                cycle: [job.name] + path.map(\.name))
        }
        if job.phase == .ready { unready(job) }
        link(upstream, to: job, policy: policy, &transaction)
    }

    /// A path of unfinished dependencies from `start` up to `target` (both included), if one exists.
    /// - Complexity: O(jobs and edges upstream of `start`).
    private static func pathUpstream(from start: JobNode, to target: JobNode) -> [JobNode]? {
        var parent: [ObjectIdentifier: JobNode] = [:]
        var visited: Set<ObjectIdentifier> = [ObjectIdentifier(start)]
        var stack = [start]
        while let node = stack.popLast() {
            if node === target {
                var path = [node]
                var current = node
                while let previous = parent[ObjectIdentifier(current)] {
                    path.append(previous)
                    current = previous
                }
                return path.reversed()
            }
            var upstream = node.dependencies.filter { $0.node.phase != .finished }.map(\.node)
            if let epoch = node.awaitedEpoch { upstream.append(contentsOf: node.queue.members(of: epoch)) }
            for next in upstream where visited.insert(ObjectIdentifier(next)).inserted {
                parent[ObjectIdentifier(next)] = node
                stack.append(next)
            }
        }
        return nil
    }
}
