import Synchronization

/// Exclusive access to a value: the accessor of the blog post "Lockless Exclusion Accessor Pattern" (LEA) as a type.
///
/// Every access gets the value `inout` inside a closure and cannot let it escape: there is no way to touch the
/// value without holding the isolation. Three forms, one lock:
///
/// ```swift
/// let counts = Isolated([String: Int](), label: "word counts")
/// let total = await counts.withValue { $0.values.reduce(0, +) }        // asynchronous: suspends, never blocks
/// counts.withValueBlocking { $0["swift", default: 0] += 1 }            // blocking, from any thread or task
/// counts.enqueue({ $0.removeAll() }, deliveringOn: .main) { _ in … }   // from synchronous code: later
/// ```
///
/// ## Ordering and fairness
/// - Asynchronous and enqueued accesses wait in one FIFO and are woken in that order; one that finds the value
///   free and nobody waiting proceeds at once, and once anyone waits, they queue behind. So asynchronous accesses
///   started one after another (one happens-before the next) run in that order, and so do `enqueue` calls made
///   one after another; both forms keep FIFO order among themselves and with each other.
/// - Blocking accesses behave like a plain mutex: a blocked thread spins briefly, then sleeps until a holder
///   releases, then competes again (it may overtake waiting tasks, and be overtaken). They get no ordering
///   promise; this is what keeps two threads from convoying on the lock.
/// - Observers see the value after every `withValue` access (see `values(bufferingPolicy:)`), in access order.
///
/// ## Cost
/// Uncontended synchronous access: one compare-exchange to enter, one to leave, plus the re-entrancy bookkeeping
/// (one `pthread_self()` and two relaxed stores): about one lock acquisition, as for `Mutex.withLock`; see suite
/// `isolation` in Documentation/Benchmarks.md.
/// Asynchronous access on a free value runs inline with no suspension; on a held one it suspends once. An
/// enqueued access starts a task when its turn comes, and that task also runs the enqueued accesses in line right
/// behind it (up to 32), so a backlog of enqueued accesses costs one task hop per 32 (suite `isolation` compares a
/// burst with a serial `DispatchQueue.async`).
///
/// ## Re-entrancy
/// A synchronous access from inside an access to the same instance (directly, or through other isolations:
/// A → B → A) would deadlock; it stops the process instead, with a message naming `label`. The check is cheap and
/// kept in release builds. The `enqueue` form is always safe to call from inside an access: it only queues.
///
/// ## Mixing forms
/// As long as the closures do not block, no mix of blocking, asynchronous, enqueued and observing accesses, from
/// threads, tasks and actors, on any pool width, can deadlock: the value is only ever taken by running code, and a
/// blocked thread never waits for a task that has yet to run (the Isolation article states the guarantee and why).
///
/// ## Choosing
/// - `Mutex`: when you never need to wait without blocking, never observe, and want no diagnostics.
/// - An `actor`: when the state's operations are themselves asynchronous, or the state owns long-running work.
///   An actor's methods can interleave at every `await`; `Isolated` closures are synchronous, so a critical section
///   is never split.
/// - `ReadWriteIsolated`: when reads dominate, take longer than a few hundred nanoseconds, and run on several
///   threads at once.
/// - `Isolated`: short critical sections reached from both synchronous and asynchronous code, with FIFO
///   asynchronous access, observation and a name in every diagnostic.
///
/// All methods are safe to call from any thread or task.
// Unchecked-Sendable invariant: `storage` is touched only while `lock` is held (see the body).
public final class Isolated<Value>: @unchecked Sendable {
    // Unchecked-Sendable invariant: `storage.pointee` is read or written only while `lock` is held exclusively
    // by the code doing so (every access below brackets it with enter/leave). Checked under Thread Sanitizer by
    // `IsolatedTests` and `AccessLockStressTests` (threads × writes, mixed synchronous/asynchronous/enqueued).
    // The value sits behind a pointer allocated once (not in a stored `var`), so accesses pay no dynamic
    // exclusivity check: the lock is the exclusivity.
    @usableFromInline let storage: UnsafeMutablePointer<Value>
    @usableFromInline let lock = AccessLock(threadsBarge: true)
    @usableFromInline let observers = ObserverList<Value>()
    #if SWITCHYARD_TEST_HOOKS
        /// Tasks started to run enqueued accesses (tests of their sharing; debug builds only).
        let enqueuedTasksStarted = Atomic<Int>(0)
    #endif

    /// The name shown in `description` and in every diagnostic about this instance.
    public let label: String

    /// Creates an isolation holding `value`.
    ///
    /// - Parameters:
    ///   - value: the initial value.
    ///   - label: a name for diagnostics; defaults to the file and line of the call.
    ///   - fileID: the default label's file.
    ///   - line: the default label's line.
    public init(_ value: sending Value, label: String? = nil, fileID: StaticString = #fileID, line: UInt = #line) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
        self.label = label ?? "\(fileID):\(line)"
    }

    deinit {
        observers.finishAll()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    // MARK: Blocking access

    /// Runs `body` with exclusive, mutable access to the value and returns its result; blocks the calling thread
    /// while another access holds the value.
    ///
    /// Meant for short critical sections, like `Mutex.withLock`: safe on any thread, a cooperative-pool thread or an
    /// actor included (see "Mixing forms"). Observers receive the value afterwards, also when `body` throws.
    /// - Precondition: not called from inside an access to this instance on this thread (that stops the process).
    @inlinable
    public func withValueBlocking<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        enterBlocking()
        defer { leave(emitting: true) }
        return try body(&storage.pointee)
    }

    /// Runs `body` with exclusive, read-only access to the value; observers are not notified.
    ///
    /// Still exclusive: for reads that may overlap each other, use `ReadWriteIsolated`.
    @inlinable
    public func readBlocking<Result, Failure: Error>(
        _ body: (borrowing Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        enterBlocking()
        defer { leave(emitting: false) }
        return try withBorrow(&storage.pointee, body)
    }

    /// Runs `body` with exclusive, mutable access if the value is free and nobody waits for it; otherwise returns
    /// nil at once without running `body`. Never blocks or suspends.
    ///
    /// Like `Mutex.withLockIfAvailable`. Inside an access to this instance it returns nil (the value is held)
    /// rather than trapping, since it cannot deadlock. Observers receive the value afterwards if `body` ran.
    @inlinable
    public func withValueIfAvailable<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result? {
        guard lock.tryLockExclusive() else { return nil }
        lock.exclusiveOwner.store(currentThreadIdentity(), ordering: .relaxed)
        defer { leave(emitting: true) }
        return try body(&storage.pointee)
    }

    // MARK: Asynchronous access

    /// Runs `body` with exclusive, mutable access to the value, suspending (never blocking) while it is held.
    ///
    /// `body` runs in the caller's isolation, in FIFO order with other asynchronous and enqueued accesses.
    /// On a free value it runs at once, without suspending. Waiting is not cancellable (as with an actor hop);
    /// check `Task.isCancelled` inside `body` if it matters.
    @inlinable
    nonisolated(nonsending)
        public func withValue<Result, Failure: Error>(
            _ body: (inout sending Value) throws(Failure) -> sending Result
        ) async throws(Failure) -> sending Result
    {
        await enterSuspending()
        defer { leave(emitting: true) }
        return try body(&storage.pointee)
    }

    /// Runs `body` with exclusive, read-only access, suspending (never blocking) while the value is held.
    @inlinable
    nonisolated(nonsending)
        public func read<Result, Failure: Error>(
            _ body: (borrowing Value) throws(Failure) -> sending Result
        ) async throws(Failure) -> sending Result
    {
        await enterSuspending()
        defer { leave(emitting: false) }
        return try withBorrow(&storage.pointee, body)
    }

    // MARK: Enqueued access (from synchronous code)

    /// Takes a place in line now and returns at once; `body` runs later with exclusive, mutable access, and
    /// `completion` receives its result through `delivery`.
    ///
    /// - Ordering: bodies run in the order of their `enqueue` calls (FIFO with asynchronous accesses too), and
    ///   `delivery.deliver` is called in that same order, while the value is still held, so a serial delivery
    ///   target receives results in order.
    /// - `body` runs in a task on the global concurrent executor; it must not block. Enqueued accesses waiting one
    ///   behind another share a task: the one that runs an access also runs the next enqueued one in line, up to
    ///   32 in a row, with no suspension between them, instead of starting a task for each. (An access enqueued on
    ///   a free value starts its own task, so the sharing helps when accesses are already waiting.) Observers get
    ///   the values of such a run once it ends, in order: with `.bufferingNewest(1)` they may see fewer of them.
    /// - Safe to call from inside an access to this instance (it never waits).
    public func enqueue<Result: Sendable, Failure: Error>(
        _ body: @escaping @Sendable (inout Value) throws(Failure) -> Result,
        deliveringOn delivery: Delivery,
        completion: @escaping @Sendable (Swift.Result<Result, Failure>) -> Void
    ) {
        enqueueAccess { [self] in
            let result = Swift.Result { () throws(Failure) -> Result in try body(&self.storage.pointee) }
            delivery.deliver { completion(result) }
        }
    }

    /// Takes a place in line now and returns at once; `body` runs later with exclusive, mutable access.
    /// Ordering and tasks as for `enqueue(_:deliveringOn:completion:)`.
    public func enqueue(_ body: @escaping @Sendable (inout Value) -> Void) {
        enqueueAccess { [self] in body(&self.storage.pointee) }
    }

    /// Queues `access` (which touches the value) behind every earlier waiter; a task started for it also runs the
    /// enqueued accesses queued after it (see `AccessLock.runEnqueuedExclusive`). Observers see the value after
    /// each access.
    private func enqueueAccess(_ access: @escaping @Sendable () -> Void) {
        lock.lockExclusiveEnqueued(inline: access) { [self] in
            #if SWITCHYARD_TEST_HOOKS
                enqueuedTasksStarted.add(1, ordering: .relaxed)
            #endif
            Task.detached {
                await self.lock.claimWokenExclusive()
                let drains = self.lock.runEnqueuedExclusive(access) {
                    self.observers.isActive && self.observers.enqueue(self.storage.pointee)
                }
                if drains { self.observers.drainQueued() }  // after unlocking: see `ObserverList`
            }
        }
    }

    // MARK: Lock bracket

    @inlinable @inline(__always)
    func enterBlocking() {
        let me = currentThreadIdentity()
        if !lock.tryLockExclusive() {
            if lock.exclusiveOwner.load(ordering: .relaxed) == me { trapReentrantAccess() }
            lock.lockExclusiveBlocking()
        }
        lock.exclusiveOwner.store(me, ordering: .relaxed)
    }

    @inlinable
    nonisolated(nonsending)
        func enterSuspending() async
    {
        if !lock.tryLockExclusive() { await lock.lockExclusiveSuspending() }
        lock.exclusiveOwner.store(currentThreadIdentity(), ordering: .relaxed)
    }

    @inlinable @inline(__always)
    func leave(emitting: Bool) {
        let drains = emitting && observers.isActive && observers.enqueue(storage.pointee)
        lock.exclusiveOwner.store(0, ordering: .relaxed)
        lock.unlockExclusive()
        if drains { observers.drainQueued() }  // after unlocking: see `ObserverList`
    }

    @usableFromInline
    func trapReentrantAccess() -> Never {
        ReentrancyCheck.trap("access", inside: "access", typeName: typeName, label: label)
    }

    @usableFromInline
    var typeName: String { "Isolated<\(Value.self)>" }
}

extension Isolated where Value: Sendable {
    /// The value after every `withValue` access (synchronous, asynchronous or enqueued), starting with the
    /// current value, in access order.
    ///
    /// - Parameter bufferingPolicy: what a slow consumer gets. The default keeps only the newest value, so a slow
    ///   observer sees the latest state and skips intermediate ones; `.unbounded` delivers every write (and lets
    ///   memory grow with the consumer's lag).
    /// - Cost: while nobody observes, a write pays one relaxed load. The stream ends when this isolation is
    ///   deinitialised; the observer is removed when the consumer stops iterating.
    /// - Blocks briefly (like `withValueBlocking`) to register atomically with respect to writes.
    public func values(
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1)
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: bufferingPolicy)
        let observer = ObserverList<Value>.Observer(
            yield: { continuation.yield($0) }, finish: { continuation.finish() })
        let identifier = readBlocking { value in
            continuation.yield(value)
            return observers.add(observer)
        }
        continuation.onTermination = { [observers] _ in observers.remove(identifier) }
        return stream
    }
}

extension Isolated: CustomStringConvertible, CustomDebugStringConvertible {
    /// `Isolated<Value>("label")`.
    public var description: String { "\(typeName)(\"\(label)\")" }

    /// The description plus the lock's current state, e.g. `Isolated<Int>("hits"): held exclusively, 2 waiting`.
    /// The state is a snapshot that may be stale as soon as it is read.
    public var debugDescription: String { "\(description): \(lock.stateDescription)" }
}
