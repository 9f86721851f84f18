/// Submitting jobs: four functions, each in two forms. The complete list, with when to use which, is in the work
/// engine article ("Submitting jobs").
///
/// |                               | suspends for room at the bound | never suspends (throws `.full`) |
/// |-------------------------------|--------------------------------|---------------------------------|
/// | async body                    | `submit`                       | `trySubmit`                     |
/// | blocking body (on the queue's ``WorkQueue/blockingExecutor``) | `submitBlocking` | `trySubmitBlocking` |
///
/// Each takes a name, a priority, ``JobOptions`` (group, dependencies, hold, barrier, delay, timeout, retry) and
/// the body. The second form adds `after:` jobs whose values the body receives as arguments, in order; if one
/// fails or is cancelled the job is cancelled (``ResultDependencyPolicy/cancelDependent``) or fails with its error
/// (``ResultDependencyPolicy/propagateFailure``). A body without inputs keeps its typed error
/// (`Job<Success, Failure>`); a body with inputs throws `any Error`. On an unbounded queue `submit` never suspends;
/// at the bound it suspends for room (``OverflowPolicy/suspend``) or throws (``OverflowPolicy/reject``).
///
/// - Complexity: O(1) plus O(dependencies) (and escalation of dependencies whose priority rises); a barrier also
///   O(unfinished jobs submitted to the queue before it).
extension WorkQueue {
    /// Submits an async job, waiting for room if the queue is bounded and full.
    @discardableResult
    @inlinable
    public func submit<Success: Sendable, Failure: Error>(
        _ name: String, priority: JobPriority = .medium, options: JobOptions = JobOptions(),
        _ body: @escaping @Sendable () async throws(Failure) -> Success
    ) async throws(SubmissionError) -> Job<Success, Failure> {
        let node = TypedJobNode(
            queue: self, name: name, priority: priority, isBlocking: false, isBarrier: options.isBarrier, body: body,
            attempt: TypedJobNode<Success, Failure>.attempt(of:))
        let claim = try await claimRoom()
        try enqueue(node, options, claim)
        return Job(node: node)
    }

    /// Submits an async job that receives the values of `inputs`, waiting for room if the queue is bounded and full.
    @discardableResult
    public func submit<each Input: Sendable, each InputFailure: Error, Success: Sendable>(
        _ name: String, priority: JobPriority = .medium,
        after inputs: repeat Job<each Input, each InputFailure>,
        onInputFailure: ResultDependencyPolicy = .cancelDependent, options: JobOptions = JobOptions(),
        _ body: @escaping @Sendable (repeat each Input) async throws -> Success
    ) async throws(SubmissionError) -> Job<Success, any Error> {
        var dependencies = options.dependencies
        for input in repeat each inputs { dependencies.append(Dependency(input, policy: onInputFailure.policy)) }
        let node = makeNode(name, priority, isBlocking: false, isBarrier: options.isBarrier, options) {
            () async throws(any Error) -> Success in
            try await body(repeat WorkQueue.inputValue((each inputs).node))
        }
        let claim = try await claimRoom()
        try admit(node, dependencies, options, claim)
        return Job(node: node)
    }

    /// Submits an async job, without ever suspending; throws ``SubmissionError/Code/full`` at the bound.
    @discardableResult
    @inlinable
    public func trySubmit<Success: Sendable, Failure: Error>(
        _ name: String, priority: JobPriority = .medium, options: JobOptions = JobOptions(),
        _ body: @escaping @Sendable () async throws(Failure) -> Success
    ) throws(SubmissionError) -> Job<Success, Failure> {
        let node = TypedJobNode(
            queue: self, name: name, priority: priority, isBlocking: false, isBarrier: options.isBarrier, body: body,
            attempt: TypedJobNode<Success, Failure>.attempt(of:))
        try enqueue(node, options, .checkNow)
        return Job(node: node)
    }

    /// Submits an async job that receives the values of `inputs`, without ever suspending; throws ``SubmissionError/Code/full`` at the bound.
    @discardableResult
    public func trySubmit<each Input: Sendable, each InputFailure: Error, Success: Sendable>(
        _ name: String, priority: JobPriority = .medium,
        after inputs: repeat Job<each Input, each InputFailure>,
        onInputFailure: ResultDependencyPolicy = .cancelDependent, options: JobOptions = JobOptions(),
        _ body: @escaping @Sendable (repeat each Input) async throws -> Success
    ) throws(SubmissionError) -> Job<Success, any Error> {
        var dependencies = options.dependencies
        for input in repeat each inputs { dependencies.append(Dependency(input, policy: onInputFailure.policy)) }
        let node = makeNode(name, priority, isBlocking: false, isBarrier: options.isBarrier, options) {
            () async throws(any Error) -> Success in
            try await body(repeat WorkQueue.inputValue((each inputs).node))
        }
        try admit(node, dependencies, options, .checkNow)
        return Job(node: node)
    }

    /// Submits a blocking job (its body runs on the queue's ``WorkQueue/blockingExecutor``), waiting for room if the queue is bounded and full.
    @discardableResult
    @inlinable
    public func submitBlocking<Success: Sendable, Failure: Error>(
        _ name: String, priority: JobPriority = .medium, options: JobOptions = JobOptions(),
        _ body: @escaping @Sendable () throws(Failure) -> Success
    ) async throws(SubmissionError) -> Job<Success, Failure> {
        let node = TypedJobNode(
            queue: self, name: name, priority: priority, isBlocking: true, isBarrier: options.isBarrier, body: body,
            attempt: TypedJobNode<Success, Failure>.attempt(of:))
        let claim = try await claimRoom()
        try enqueue(node, options, claim)
        return Job(node: node)
    }

    /// Submits a blocking job (its body runs on the queue's ``WorkQueue/blockingExecutor``) that receives the values of `inputs`, waiting for room if the queue is bounded and full.
    @discardableResult
    public func submitBlocking<each Input: Sendable, each InputFailure: Error, Success: Sendable>(
        _ name: String, priority: JobPriority = .medium,
        after inputs: repeat Job<each Input, each InputFailure>,
        onInputFailure: ResultDependencyPolicy = .cancelDependent, options: JobOptions = JobOptions(),
        _ body: @escaping @Sendable (repeat each Input) throws -> Success
    ) async throws(SubmissionError) -> Job<Success, any Error> {
        var dependencies = options.dependencies
        for input in repeat each inputs { dependencies.append(Dependency(input, policy: onInputFailure.policy)) }
        let node = makeNode(name, priority, isBlocking: true, isBarrier: options.isBarrier, options) {
            () async throws(any Error) -> Success in
            try body(repeat WorkQueue.inputValue((each inputs).node))
        }
        let claim = try await claimRoom()
        try admit(node, dependencies, options, claim)
        return Job(node: node)
    }

    /// Submits a blocking job (its body runs on the queue's ``WorkQueue/blockingExecutor``), without ever suspending; throws ``SubmissionError/Code/full`` at the bound.
    @discardableResult
    @inlinable
    public func trySubmitBlocking<Success: Sendable, Failure: Error>(
        _ name: String, priority: JobPriority = .medium, options: JobOptions = JobOptions(),
        _ body: @escaping @Sendable () throws(Failure) -> Success
    ) throws(SubmissionError) -> Job<Success, Failure> {
        let node = TypedJobNode(
            queue: self, name: name, priority: priority, isBlocking: true, isBarrier: options.isBarrier, body: body,
            attempt: TypedJobNode<Success, Failure>.attempt(of:))
        try enqueue(node, options, .checkNow)
        return Job(node: node)
    }

    /// Submits a blocking job (its body runs on the queue's ``WorkQueue/blockingExecutor``) that receives the values of `inputs`, without ever suspending; throws ``SubmissionError/Code/full`` at the bound.
    @discardableResult
    public func trySubmitBlocking<each Input: Sendable, each InputFailure: Error, Success: Sendable>(
        _ name: String, priority: JobPriority = .medium,
        after inputs: repeat Job<each Input, each InputFailure>,
        onInputFailure: ResultDependencyPolicy = .cancelDependent, options: JobOptions = JobOptions(),
        _ body: @escaping @Sendable (repeat each Input) throws -> Success
    ) throws(SubmissionError) -> Job<Success, any Error> {
        var dependencies = options.dependencies
        for input in repeat each inputs { dependencies.append(Dependency(input, policy: onInputFailure.policy)) }
        let node = makeNode(name, priority, isBlocking: true, isBarrier: options.isBarrier, options) {
            () async throws(any Error) -> Success in
            try body(repeat WorkQueue.inputValue((each inputs).node))
        }
        try admit(node, dependencies, options, .checkNow)
        return Job(node: node)
    }

    /// Submits an async barrier: the same as ``submit(_:priority:options:_:)`` with ``JobOptions/isBarrier`` set.
    @available(*, deprecated, message: "use submit(_:priority:options:_:) with options.barrier()")
    @discardableResult
    public func submitBarrier<Success: Sendable, Failure: Error>(
        _ name: String, priority: JobPriority = .medium, options: JobOptions = JobOptions(),
        _ body: @escaping @Sendable () async throws(Failure) -> Success
    ) async throws(SubmissionError) -> Job<Success, Failure> {
        try await submit(name, priority: priority, options: options.barrier(), body)
    }

    /// Submits an async barrier without suspending: ``trySubmit(_:priority:options:_:)`` with
    /// ``JobOptions/isBarrier`` set.
    @available(*, deprecated, message: "use trySubmit(_:priority:options:_:) with options.barrier()")
    @discardableResult
    public func trySubmitBarrier<Success: Sendable, Failure: Error>(
        _ name: String, priority: JobPriority = .medium, options: JobOptions = JobOptions(),
        _ body: @escaping @Sendable () async throws(Failure) -> Success
    ) throws(SubmissionError) -> Job<Success, Failure> {
        try trySubmit(name, priority: priority, options: options.barrier(), body)
    }

    // MARK: - Internals

    /// Submits a job that completes itself (see ``JobCompletion``), without ever suspending; throws
    /// ``SubmissionError/Code/full`` at the bound.
    ///
    /// For work carried out by callbacks (an event loop, a completion-handler API): no task runs the job. Once the
    /// job holds its slot, the engine calls `start` with the job's ``JobCompletion``, after releasing its lock, on
    /// the thread that starts the job (often this one when a slot is free; else another submitter's, or one that
    /// finished another job); `start`
    /// must not block: it begins the work and returns, and whatever carries the work out completes the job, from
    /// any thread. Until then the job runs and holds its slot. Cancelling the job (``Job/cancel()``,
    /// ``cancelAll()``) runs the handler given to ``JobCompletion/onCancel(_:)``; a job cancelled before it starts
    /// never calls `start`. No timeout, retry or dependency applies (the work keeps its own).
    @discardableResult
    public func trySubmitSelfCompleting<Success: Sendable, Failure: Error>(
        _ name: String, priority: JobPriority = .medium,
        start: @escaping @Sendable (JobCompletion<Success, Failure>) -> Void
    ) throws(SubmissionError) -> Job<Success, Failure> {
        let node = makeNode(name, priority, isBlocking: false, isBarrier: false, JobOptions()) {
            () async throws(Failure) -> Success in preconditionFailure("never run: the job has a starter")
        }
        node.starter = { node, attempt in
            start(JobCompletion(node: unsafeDowncast(node, to: TypedJobNode<Success, Failure>.self), attempt: attempt))
        }
        try admit(node, [], JobOptions(), .checkNow)
        return Job(node: node)
    }

    /// The value of a finished, successful input job. Its task was created after the input finished.
    private static func inputValue<Value, Failure>(_ node: TypedJobNode<Value, Failure>) -> Value {
        guard case .succeeded = node.outcome else {
            preconditionFailure("WorkQueue: input \"\(node.name)\" has no value")
        }
        return node.successValue
    }

    /// How a submission accounts for the pending-job bound.
    @usableFromInline
    enum RoomClaim {
        /// Unbounded queue.
        case unbounded
        /// `claimRoom()` reserved a place.
        case reserved
        /// Check the bound in the same lock hold as the admission (trySubmit).
        case checkNow
    }

    func makeNode<Success, Failure>(
        _ name: String, _ priority: JobPriority, isBlocking: Bool, isBarrier: Bool, _ options: JobOptions,
        _ body: @escaping @Sendable () async throws(Failure) -> Success
    ) -> TypedJobNode<Success, Failure> {
        let node = TypedJobNode(
            identifier: Engine.nextIdentifier(), name: name, queue: self, priority: priority,
            isBlocking: isBlocking, isBarrier: isBarrier, body: body)
        // Not yet shared with any other thread: no lock needed.
        node.timing = options.timing
        node.taskLocals = CapturedTaskLocals.capture(propagation)
        return node
    }

    /// Gives a node made by an inlinable `submit` its options' timing and the submitter's propagated task-locals,
    /// then admits it.
    @usableFromInline
    func enqueue(_ node: JobNode, _ options: JobOptions, _ claim: RoomClaim) throws(SubmissionError) {
        // Not yet shared with any other thread: no lock needed.
        node.timing = options.timing
        node.taskLocals = CapturedTaskLocals.capture(propagation)
        try admit(node, options.dependencies, options, claim)
    }

    func admit(_ node: JobNode, _ dependencies: [Dependency], _ options: JobOptions, _ claim: RoomClaim)
        throws(SubmissionError)
    {
        // A group united with this queue's region (by an earlier job) stays united: its job is admitted like a
        // plain one, which reads the group from the node.
        let groupIsUnited = options.group.map { $0.region.current.toOpaque() == region.current.toOpaque() } ?? true
        if maximumPending == nil && dependencies.isEmpty && !options.isHeld && !node.isBarrier && groupIsUnited {
            node.group = options.group  // not yet shared: no lock needed
            Engine.submitPlain(node)  // does not wait for the lock (but right after a merge; see ``Intake``)
            return
        }
        var regions: [EngineRegion] = [region]
        for dependency in dependencies { regions.append(dependency.node.queue.region) }
        if let group = options.group { regions.append(group.region) }
        try Engine.perform(uniting: regions) { (transaction) throws(SubmissionError) in
            switch claim {
            case .unbounded:
                break
            case .reserved:
                reservedRoom -= 1
            case .checkNow:
                if let maximumPending, !roomWaiters.isEmpty || pendingCount + reservedRoom >= maximumPending {
                    throw SubmissionError(code: .full, queue: name, maximumPending: maximumPending)
                }
            }
            Engine.admit(node, dependencies: dependencies, group: options.group, isHeld: options.isHeld, &transaction)
        }
    }

    /// Waits for room in a bounded queue (FIFO among waiting submitters) and reserves it.
    @usableFromInline
    func claimRoom() async throws(SubmissionError) -> RoomClaim {
        guard let maximumPending else { return .unbounded }
        let identifier = Engine.nextIdentifier()
        var rejected = false
        let granted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                Engine.perform(in: region) { transaction in
                    if roomWaiters.isEmpty && pendingCount + reservedRoom < maximumPending {
                        reservedRoom += 1
                        transaction.actions.append { continuation.resume(returning: true) }
                    } else if overflowPolicy == .reject {
                        rejected = true
                        transaction.actions.append { continuation.resume(returning: false) }
                    } else if Task.isCancelled {
                        transaction.actions.append { continuation.resume(returning: false) }
                    } else {
                        roomWaiters.append(continuation, identifier: identifier)
                    }
                }
            }
        } onCancel: {
            Engine.perform(in: region) { transaction in
                guard let waiter = roomWaiters.remove(identifier) else { return }
                transaction.actions.append { waiter.resume(returning: false) }
            }
        }
        if granted { return .reserved }
        throw SubmissionError(code: rejected ? .full : .cancelled, queue: name, maximumPending: maximumPending)
    }
}
