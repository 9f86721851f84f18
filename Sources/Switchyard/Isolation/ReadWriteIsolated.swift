import Synchronization

/// Shared reads and exclusive writes of a value: the accessor of the blog post "Read/Write Lockless Exclusion",
/// as a type.
///
/// Readers get the value read-only (a `borrowing` parameter: they cannot mutate it by construction) and may run
/// at the same time on different threads; a writer gets it `inout`, alone.
///
/// ```swift
/// let routes = ReadWriteIsolated([String: Route](), label: "routes")
/// let route = await routes.read { $0["U2"] }                 // many at once; suspends while a writer runs
/// await routes.write { $0["U2"] = newRoute }                 // alone
/// let count = routes.readBlocking { $0.count }               // blocks the thread instead of suspending
/// ```
///
/// ## Fairness policy (phase-fair)
/// - **Writers are never starved:** a waiting writer blocks new readers (writer preference); the current read
///   phase drains, then the writer enters.
/// - **Readers are never starved:** when a writer leaves and readers are waiting, *all* of them enter together
///   before the next writer, even under a continuous stream of writers.
/// So a writer waits for at most one read phase per writer queued ahead of it, and a reader for at most one
/// write phase. Within each kind, waiters are served in FIFO order: asynchronous and enqueued *writes* started
/// one after another run in that order, and so do reads. Across kinds the phase policy decides: if a writer holds
/// the value and you enqueue a write `a` and then a read `b`, the read phase comes first and `b` does not see `a`.
/// Await `a` (or use its completion) before starting `b` when `b` must see it. The policy applies among blocked
/// threads, and among tasks and enqueued accesses; where the two meet, threads go first (see "Mixing forms").
///
/// ## Cost
/// An uncontended write is one compare-exchange to enter and one to leave; a read is one fetch-add to enter and
/// one to leave, plus re-entrancy bookkeeping (thread-local frames). All readers update one shared word, so reads
/// scale across threads only when the read itself costs more than moving that cache line between cores; shorter
/// reads are faster through `Isolated`. Where the crossover lies: suite `isolation` in Documentation/Benchmarks.md.
///
/// ## Re-entrancy
/// A synchronous read or write from inside a read or write of the same instance on the same thread stops the
/// process with a message naming `label` (a nested read would deadlock as soon as a writer queues between the two
/// reads, so it is refused too). Kept in release builds.
///
/// ## Mixing forms
/// As with ``Isolated``, no mix of blocking, asynchronous, enqueued and observing accesses can deadlock while the
/// closures do not block. Blocked threads are served phase-fair among themselves; waiting tasks and enqueued
/// accesses are served phase-fair among themselves, and go once no thread waits (a thread never waits for a task,
/// which might need that very thread to run).
///
/// ## Choosing
/// Prefer `Isolated` (or `Mutex`) unless reads dominate, take long enough to be worth overlapping, and come from
/// several threads at once: a read/write lock costs more per access than an exclusive one.
///
/// All methods are safe to call from any thread or task. `Value` is `Sendable` because readers on different
/// threads see it at the same time.
// Unchecked-Sendable invariant: `value` is written only under the exclusive lock, read only under a hold (see body).
public final class ReadWriteIsolated<Value: Sendable>: @unchecked Sendable {
    // Unchecked-Sendable invariant: `value` is written only while `lock` is held exclusively, and read only
    // while it is held (shared or exclusive) by the reader. Checked under Thread Sanitizer by
    // `ReadWriteIsolatedTests` and `AccessLockStressTests` (readers and writers hammering one instance, exact
    // results, no torn reads). A stored property, not a pointer: a formal read access lets readers borrow the
    // value in place (no copy, so no reference-count traffic between concurrent readers).
    @usableFromInline var value: Value
    @usableFromInline let lock = AccessLock(threadsBarge: false)
    @usableFromInline let observers = ObserverList<Value>()
    #if SWITCHYARD_TEST_HOOKS
        /// Tasks started to run enqueued writes (tests of their sharing; debug builds only).
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
    public init(_ value: Value, label: String? = nil, fileID: StaticString = #fileID, line: UInt = #line) {
        self.value = value
        self.label = label ?? "\(fileID):\(line)"
    }

    deinit {
        observers.finishAll()
    }

    // MARK: Blocking access

    /// Runs `body` with shared, read-only access; blocks the calling thread while a writer holds or waits for
    /// the value. Other readers may run at the same time.
    @inlinable
    public func readBlocking<Result, Failure: Error>(
        _ body: (borrowing Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let outer = enterSharedBlocking()
        defer { lock.unlockShared() }
        return try ReadFrames.reading(instance, on: outer) { () throws(Failure) -> Result in
            try body(value)
        }
    }

    /// Runs `body` with exclusive, mutable access; blocks the calling thread while readers or another writer
    /// hold the value. Observers receive the value afterwards, also when `body` throws.
    @inlinable
    public func writeBlocking<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        enterExclusiveBlocking()
        defer { leaveExclusive() }
        return try body(&value)
    }

    /// Runs `body` with shared, read-only access if no writer holds or waits for the value; otherwise returns nil
    /// at once without running `body`. Never blocks or suspends.
    /// - Precondition: not called from inside a read of this instance on this thread (that stops the process, as
    ///   for `read`).
    @inlinable
    public func readIfAvailable<Result, Failure: Error>(
        _ body: (borrowing Value) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        let outer = ReadFrames.innermost
        if ReadFrames.isHeld(instance, from: outer) { trapReentrant("read", inside: "read") }
        guard lock.tryLockShared() else { return nil }
        defer { lock.unlockShared() }
        return try ReadFrames.reading(instance, on: outer) { () throws(Failure) -> Result in try body(value) }
    }

    /// Runs `body` with exclusive, mutable access if nobody holds or waits for the value; otherwise returns nil at
    /// once without running `body`. Never blocks or suspends. Observers receive the value afterwards if `body` ran.
    @inlinable
    public func writeIfAvailable<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result? {
        guard lock.tryLockExclusive() else { return nil }
        lock.exclusiveOwner.store(currentThreadIdentity(), ordering: .relaxed)
        defer { leaveExclusive() }
        return try body(&value)
    }

    // MARK: Asynchronous access

    /// Runs `body` with shared, read-only access, suspending (never blocking) while a writer holds or waits for
    /// the value. `body` runs in the caller's isolation; on a free value it runs at once. Not cancellable while
    /// waiting.
    @inlinable
    nonisolated(nonsending)
        public func read<Result, Failure: Error>(
            _ body: (borrowing Value) throws(Failure) -> Result
        ) async throws(Failure) -> Result
    {
        await lock.lockSharedSuspending()  // tries the fast path first
        defer { lock.unlockShared() }
        return try ReadFrames.reading(instance, on: ReadFrames.innermost) { () throws(Failure) -> Result in
            try body(value)
        }
    }

    /// Runs `body` with exclusive, mutable access, suspending (never blocking) while the value is held.
    /// `body` runs in the caller's isolation; on a free value it runs at once. Not cancellable while waiting.
    @inlinable
    nonisolated(nonsending)
        public func write<Result, Failure: Error>(
            _ body: (inout Value) throws(Failure) -> Result
        ) async throws(Failure) -> Result
    {
        if !lock.tryLockExclusive() { await lock.lockExclusiveSuspending() }
        lock.exclusiveOwner.store(currentThreadIdentity(), ordering: .relaxed)
        defer { leaveExclusive() }
        return try body(&value)
    }

    // MARK: Enqueued access (from synchronous code)

    /// Takes a place in line now and returns at once; `body` later reads the value (shared) in a task on the
    /// global concurrent executor, and `completion` receives the result through `delivery`.
    public func enqueueRead<Result: Sendable, Failure: Error>(
        _ body: @escaping @Sendable (Value) throws(Failure) -> Result,
        deliveringOn delivery: Delivery,
        completion: @escaping @Sendable (Swift.Result<Result, Failure>) -> Void
    ) {
        lock.lockSharedEnqueued { [self] in
            Task.detached {
                await self.lock.claimWokenShared()
                let result = ReadFrames.reading(self.instance, on: ReadFrames.innermost) {
                    Swift.Result { () throws(Failure) -> Result in try body(self.value) }
                }
                delivery.deliver { completion(result) }
                self.lock.unlockShared()
            }
        }
    }

    /// Takes a place in line now and returns at once; `body` later writes the value (exclusive) in a task on the
    /// global concurrent executor, and `completion` receives the result through `delivery`. Writes run in the
    /// order of their calls, and deliveries are made in that order. Consecutive enqueued writes share a task (up
    /// to 32 in a row) unless queued readers get their read phase in between.
    public func enqueueWrite<Result: Sendable, Failure: Error>(
        _ body: @escaping @Sendable (inout Value) throws(Failure) -> Result,
        deliveringOn delivery: Delivery,
        completion: @escaping @Sendable (Swift.Result<Result, Failure>) -> Void
    ) {
        enqueueWriteAccess { [self] in
            let result = Swift.Result { () throws(Failure) -> Result in try body(&self.value) }
            delivery.deliver { completion(result) }
        }
    }

    /// Takes a place in line now and returns at once; `body` later writes the value (exclusive). Ordering and
    /// tasks as for `enqueueWrite(_:deliveringOn:completion:)`.
    public func enqueueWrite(_ body: @escaping @Sendable (inout Value) -> Void) {
        enqueueWriteAccess { [self] in body(&self.value) }
    }

    /// Queues the write `access` behind every earlier waiter; a task started for it also runs the enqueued writes
    /// queued right after it (see `AccessLock.runEnqueuedExclusive`). Observers see the value after each write.
    private func enqueueWriteAccess(_ access: @escaping @Sendable () -> Void) {
        lock.lockExclusiveEnqueued(inline: access) { [self] in
            #if SWITCHYARD_TEST_HOOKS
                enqueuedTasksStarted.add(1, ordering: .relaxed)
            #endif
            Task.detached {
                await self.lock.claimWokenExclusive()
                let drains = self.lock.runEnqueuedExclusive(access) {
                    self.observers.isActive && self.observers.enqueue(self.value)
                }
                if drains { self.observers.drainQueued() }  // after unlocking: see `ObserverList`
            }
        }
    }

    // MARK: Observation

    /// The value after every write (synchronous, asynchronous or enqueued), starting with the current value, in
    /// write order. Buffering and cost as for `Isolated.values(bufferingPolicy:)`.
    public func values(
        bufferingPolicy: AsyncStream<Value>.Continuation.BufferingPolicy = .bufferingNewest(1)
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: bufferingPolicy)
        let observer = ObserverList<Value>.Observer(
            yield: { continuation.yield($0) }, finish: { continuation.finish() })
        // Register under the exclusive lock so no write is missed or seen twice.
        enterExclusiveBlocking()
        continuation.yield(value)
        let identifier = observers.add(observer)
        lock.exclusiveOwner.store(0, ordering: .relaxed)
        lock.unlockExclusive()
        continuation.onTermination = { [observers] _ in observers.remove(identifier) }
        return stream
    }

    // MARK: Lock bracket

    /// This instance's address: the key of its frames in `ReadFrames`.
    @inlinable
    var instance: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// Takes a shared hold, blocking if needed; returns this thread's innermost read frame for `reading`.
    @inlinable @inline(__always)
    func enterSharedBlocking() -> UnsafeMutableRawPointer? {
        let outer = ReadFrames.innermost
        if ReadFrames.isHeld(instance, from: outer) { trapReentrant("read", inside: "read") }
        if !lock.tryLockShared() {
            if lock.exclusiveOwner.load(ordering: .relaxed) == currentThreadIdentity() {
                trapReentrant("read", inside: "write")
            }
            lock.lockSharedBlocking()
        }
        return outer
    }

    @inlinable @inline(__always)
    func enterExclusiveBlocking() {
        let me = currentThreadIdentity()
        if !lock.tryLockExclusive() {
            if lock.exclusiveOwner.load(ordering: .relaxed) == me { trapReentrant("write", inside: "write") }
            if ReadFrames.isHeld(instance, from: ReadFrames.innermost) { trapReentrant("write", inside: "read") }
            lock.lockExclusiveBlocking()
        }
        lock.exclusiveOwner.store(me, ordering: .relaxed)
    }

    @inlinable @inline(__always)
    func leaveExclusive() {
        let drains = observers.isActive && observers.enqueue(value)
        lock.exclusiveOwner.store(0, ordering: .relaxed)
        lock.unlockExclusive()
        if drains { observers.drainQueued() }  // after unlocking: see `ObserverList`
    }

    @usableFromInline
    func trapReentrant(_ attempted: String, inside held: String) -> Never {
        ReentrancyCheck.trap(attempted, inside: held, typeName: typeName, label: label)
    }

    @usableFromInline
    var typeName: String { "ReadWriteIsolated<\(Value.self)>" }
}

extension ReadWriteIsolated: CustomStringConvertible, CustomDebugStringConvertible {
    /// `ReadWriteIsolated<Value>("label")`.
    public var description: String { "\(typeName)(\"\(label)\")" }

    /// The description plus the lock's current state, e.g. `…: read by 3, 1 waiting (1 exclusive, 0 shared)`.
    /// A snapshot that may be stale as soon as it is read.
    public var debugDescription: String { "\(description): \(lock.stateDescription)" }
}
