/// Submitting jobs.
///
/// Four families, each with a typed-result form that waits for other jobs and receives their values:
/// - `submit` (async) honours the pending-job bound: it suspends for room (``OverflowPolicy/suspend``) or throws
///   (``OverflowPolicy/reject``); on an unbounded queue it never suspends.
/// - `trySubmit` never suspends: at the bound it throws ``SubmissionError/Code/full`` at once.
/// - `…Blocking` forms take a synchronous body that runs on the queue's ``WorkQueue/blockingExecutor`` (file I/O,
///   SQLite, C libraries), never on the cooperative pool.
/// - `submitBarrier` runs after every job submitted before it and before any job submitted after it.
///
/// Jobs listed in `after:` pass their values to the body as arguments, in order; if one fails or is cancelled
/// the job is cancelled (``ResultDependencyPolicy/cancelDependent``) or fails with its error
/// (``ResultDependencyPolicy/propagateFailure``). Other dependencies go in ``JobOptions/dependencies`` with any
/// ``DependencyPolicy``. A body without inputs keeps its typed error (`Job<Success, Failure>`); a body with
/// inputs throws `any Error`.
///
/// - Complexity: O(1) plus O(dependencies) (and escalation of dependencies whose priority rises).
extension WorkQueue {
    /// Submits an async job, waiting for room if the queue is bounded and full.
    @discardableResult
    @inlinable
    public func submit<Success: Sendable, Failure: Error>(
        _ name: String, priority: JobPriority = .medium, options: JobOptions = JobOptions(),
        _ body: @escaping @Sendable () async throws(Failure) -> Success
    ) async throws(SubmissionError) -> Job<Success, Failure> {
        let node = TypedJobNode(
            queue: self, name: name, priority: priority, isBlocking: false, isBarrier: false, body: body,
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
        let node = makeNode(name, priority, isBlocking: false, isBarrier: false, options) {
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
            queue: self, name: name, priority: priority, isBlocking: false, isBarrier: false, body: body,
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
        let node = makeNode(name, priority, isBlocking: false, isBarrier: false, options) {
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
            queue: self, name: name, priority: priority, isBlocking: true, isBarrier: false, body: body,
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
        let node = makeNode(name, priority, isBlocking: true, isBarrier: false, options) {
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
            queue: self, name: name, priority: priority, isBlocking: true, isBarrier: false, body: body,
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
        let node = makeNode(name, priority, isBlocking: true, isBarrier: false, options) {
            () async throws(any Error) -> Success in
            try body(repeat WorkQueue.inputValue((each inputs).node))
        }
        try admit(node, dependencies, options, .checkNow)
        return Job(node: node)
    }

    /// Submits a barrier: it starts only after every job submitted to this queue before it has finished (whatever
    /// the outcome), and every job submitted after it starts only after it has finished. Other jobs are not held
    /// back by a barrier of another queue. Cancelled before it runs, it finishes at once as cancelled, and a
    /// stand-in barrier (an empty body) keeps the order for the jobs after it.
    @discardableResult
    @inlinable
    public func submitBarrier<Success: Sendable, Failure: Error>(
        _ name: String, priority: JobPriority = .medium, options: JobOptions = JobOptions(),
        _ body: @escaping @Sendable () async throws(Failure) -> Success
    ) async throws(SubmissionError) -> Job<Success, Failure> {
        let node = TypedJobNode(
            queue: self, name: name, priority: priority, isBlocking: false, isBarrier: true, body: body,
            attempt: TypedJobNode<Success, Failure>.attempt(of:))
        let claim = try await claimRoom()
        try enqueue(node, options, claim)
        return Job(node: node)
    }

    /// Submits a barrier without ever suspending (see ``submitBarrier(_:priority:options:_:)``).
    @discardableResult
    @inlinable
    public func trySubmitBarrier<Success: Sendable, Failure: Error>(
        _ name: String, priority: JobPriority = .medium, options: JobOptions = JobOptions(),
        _ body: @escaping @Sendable () async throws(Failure) -> Success
    ) throws(SubmissionError) -> Job<Success, Failure> {
        let node = TypedJobNode(
            queue: self, name: name, priority: priority, isBlocking: false, isBarrier: true, body: body,
            attempt: TypedJobNode<Success, Failure>.attempt(of:))
        try enqueue(node, options, .checkNow)
        return Job(node: node)
    }

    // MARK: - Internals

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
        if maximumPending == nil && dependencies.isEmpty && options.group == nil && !options.isHeld
            && !node.isBarrier
        {
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
