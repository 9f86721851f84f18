/// A job node with a typed body.
///
/// The value lives behind ``valueStorage``, a typed pointer (and a failure in ``JobNode/outcome``), not in a
/// stored property of type `Success?`: this class's methods are not specialized (they are reached through its
/// vtable), so each access to a generic optional field, its deinitialization included, would ask the runtime for
/// `Optional<Success>` metadata (a hash lookup). Nor in an existential `Any`: reading it back would take a dynamic
/// cast. A pointer's layout does not depend on `Success`, and storing, reading and destroying through it need only
/// `Success`'s own metadata, which the node carries. The body keeps its own type (a thick function: no metadata is
/// needed to call or release it).
///
/// Unchecked-Sendable invariant: as ``JobNode``; `body` is set at creation and cleared either under the engine lock
/// once the job can no longer run, or after the lock hold that finished the job by the job's own task (see
/// ``Engine/endAttempt(of:end:retryAllowed:on:)``) or, for a self-completing job, by the thread that completed it
/// (``Engine/attemptCompleted(_:_:end:)``). Only the job's task reads it. `valueStorage` is written only by the
/// job's task while an attempt runs (or by a self-completing job's first completion, before it is recorded), and
/// read only once the job finished: after `isDone` was seen set (acquiring), or by a task whose creation followed a
/// hold of the lock that saw the job finished (a dependent's input, read by its own attempt). Exercised under
/// Thread Sanitizer by `WorkQueueStressTests` and `JobValueTests` (values of every size written by a worker and read
/// by other tasks, replaced on a retry).
@usableFromInline
final class TypedJobNode<Success: Sendable, Failure: Error>: JobNode, @unchecked Sendable {
    @usableFromInline
    @exclusivity(unchecked) var body: (@Sendable () async throws(Failure) -> Success)?
    /// The value of the successful attempt, once there was one (read it only once `outcome` is `.succeeded`): an
    /// allocation of its own, or ``zeroSizedValueAddress`` when `Success` has no size (`Void`), so a job without
    /// a result allocates nothing.
    @usableFromInline
    @exclusivity(unchecked) var valueStorage: UnsafeMutablePointer<Success>?

    /// A node with the next job identifier. The entry point of the inlinable `submit` functions: called from the
    /// caller's module, where `TypedJobNode<Success, Failure>` is a concrete type whose metadata the caller
    /// caches, instead of looking it up in the runtime's table on every submission.
    ///
    /// `attempt` is ``attempt(of:)`` as compiled in the caller's module: there `Success` and `Failure` are usually
    /// concrete, so the body's result and error need no buffers from the task allocator (two allocations per
    /// attempt through ``runAttempt()``, which is compiled once for all types).
    @usableFromInline
    convenience init(
        queue: WorkQueue, name: String, priority: JobPriority, isBlocking: Bool, isBarrier: Bool,
        body: @escaping @Sendable () async throws(Failure) -> Success,
        attempt: @escaping @Sendable (JobNode) async -> AttemptEnd
    ) {
        self.init(
            identifier: Engine.nextIdentifier(), name: name, queue: queue, priority: priority, isBlocking: isBlocking,
            isBarrier: isBarrier, body: body)
        specializedAttempt = attempt
    }

    /// ``runAttempt()`` for `node`, which must be a `TypedJobNode<Success, Failure>`; inlinable, so that callers
    /// compile it for their types, and always inlined into the closure that refers to it (a call of its own
    /// would allocate an async frame per attempt).
    @inlinable @inline(__always)
    static func attempt(of node: JobNode) async -> AttemptEnd {
        let node = unsafeDowncast(node, to: TypedJobNode<Success, Failure>.self)
        guard let body = node.body else { return .failure(CancellationError()) }
        do throws(Failure) {
            node.storeValue(try await body())
            return .success
        } catch {
            return .failure(error)
        }
    }

    init(
        identifier: UInt64, name: String, queue: WorkQueue, priority: JobPriority, isBlocking: Bool,
        isBarrier: Bool, body: @escaping @Sendable () async throws(Failure) -> Success
    ) {
        self.body = body
        super.init(
            identifier: identifier, name: name, queue: queue, priority: priority, isBlocking: isBlocking,
            isBarrier: isBarrier)
    }

    override func runAttempt() async -> AttemptEnd {
        guard let body else { return .failure(CancellationError()) }
        do throws(Failure) {
            storeValue(try await body())
            return .success
        } catch {
            return .failure(error)
        }
    }

    deinit {
        guard let valueStorage else { return }
        // A plain value (no references) needs no deinitialization: skip the generic call.
        if !_isPOD(Success.self) { valueStorage.deinitialize(count: 1) }
        if MemoryLayout<Success>.size != 0 { valueStorage.deallocate() }
    }

    /// Stores the value of a successful attempt. Called by the job's task while the attempt runs.
    @inlinable @inline(__always)
    func storeValue(_ value: consuming Success) {
        if let valueStorage {
            valueStorage.pointee = value
            return
        }
        let storage: UnsafeMutablePointer<Success> =
            MemoryLayout<Success>.size == 0
            ? UnsafeMutablePointer(bitPattern: zeroSizedValueAddress)!
            : .allocate(capacity: 1)
        storage.initialize(to: value)
        valueStorage = storage
    }

    override func discardBody(into transaction: inout Transaction) {
        if let body {
            transaction.discardedValues.append(body)
            self.body = nil
        }
    }

    override func clearBody() { body = nil }

    /// The result; call only once `outcome` is set (under the lock, or after a wait that observed it).
    var result: Result<Success, JobError<Failure>> {
        if case .succeeded = outcome { return .success(successValue) }
        return .failure(error)
    }

    /// The value of a job that succeeded. Call only once `outcome` is `.succeeded`.
    @inlinable
    var successValue: Success {
        guard let valueStorage else { preconditionFailure("TypedJobNode: a successful job without a value") }
        return valueStorage.pointee
    }

    /// The error of a job that did not succeed; call only once `outcome` is set and not `.succeeded`.
    var error: JobError<Failure> {
        switch outcome {
        // `.failed` holds what `runAttempt` caught, a `Failure`.
        case .failed(let error): .failed(error as! Failure)
        case .cancelled: .cancelled
        case .timedOut: .timedOut
        case .dependencyFailed(let name, let error): .dependencyFailed(dependency: name, error: error)
        case .succeeded, nil: preconditionFailure("TypedJobNode.error read for a job without an error")
        }
    }
}

/// The address every job whose `Success` type has no size (such as `Void`) stores its value at: storing,
/// reading and destroying a value of no size touch no memory, so one address serves them all and such jobs
/// allocate nothing for their value. Kept as an integer, which is `Sendable`; the memory is never freed.
@usableFromInline
let zeroSizedValueAddress = UInt(bitPattern: UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16))
