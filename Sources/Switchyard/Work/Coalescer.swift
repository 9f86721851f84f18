import Synchronization

/// Keyed coalescing: concurrent requests for the same key share one job.
///
/// ```swift
/// let thumbnails = Coalescer<URL, Image>(queue: renderQueue)
/// let image = try await thumbnails.value(for: url) { url in try await render(url) }   // one render per URL
/// ```
///
/// - The first request for a key submits a job (named `"<name> <key>"`) to the queue; requests for the same key
///   while it is unfinished wait for that job instead of starting another.
/// - The job's effective priority is the maximum of its waiters' (each waiter lends its task's priority, or the
///   one it passes, and more if its task is escalated while it waits: a job's body that waits here passes on the
///   escalation of its own job).
/// - A waiter whose task is cancelled leaves at once with ``JobError/cancelled``; the job goes on for the others,
///   and is cancelled only when the last waiter leaves.
/// - When the job finishes, the key is forgotten: failures are not cached, and the next request starts a new job.
///
/// Thread-safe. The keyed state sits behind this coalescer's own lock, never the engine's: a key's `hash(into:)`
/// runs once per request, outside any lock; its `==` runs under that lock only, when hashes match (a slow one
/// delays requests to this coalescer, no other queue); and a key is destroyed after the lock is released, so its
/// `deinit` may use the coalescer, its queue or any other.
/// - Complexity: O(1) per request and per waiter that leaves (plus escalation when the job's priority changes).
// Unchecked-Sendable invariant: `queue` and `name` are immutable; `entries` (and, in debug builds, the test hook's
// `watchers`) are `PlatformLock`s, touched only inside `withLock`; `watcherCount` is atomic. Exercised under Thread
// Sanitizer by `CoalescerTests` and the HTTP and image tests that wait for callers.
public final class Coalescer<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    /// The queue the shared jobs run on.
    public let queue: WorkQueue
    /// The prefix of the jobs' names.
    public let name: String

    private struct Entry {
        let node: TypedJobNode<Value, any Error>
        var waiters: Int
    }

    /// A key with its hash, computed once per request outside the lock: holds of the lock only combine the stored
    /// hash, and compare keys with `==` when the hashes match.
    private struct HashedKey: Hashable {
        let key: Key
        let hash: Int

        init(_ key: Key) {
            self.key = key
            hash = key.hashValue
        }

        static func == (lhs: HashedKey, rhs: HashedKey) -> Bool { lhs.hash == rhs.hash && lhs.key == rhs.key }
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// Adaptive: its holds are short and contended by every caller of the queue's keys and by the threads that
    /// finish their jobs, so a waiter spins briefly before it sleeps.
    private let entries = PlatformLock([HashedKey: Entry](), adaptive: true)

    #if SWITCHYARD_TEST_HOOKS
        /// A task in ``waitForWaiters(_:for:)``.
        private struct Watcher {
            let key: HashedKey
            let count: Int
            let continuation: CheckedContinuation<Void, Never>
        }

        /// The tasks in ``waitForWaiters(_:for:)`` by identifier, and the last identifier given. Taken before
        /// `entries` when both are held, never after.
        private let watchers = PlatformLock((last: 0, waiting: [Int: Watcher]()))
        /// How many tasks `watchers` holds: a join looks at them only when there are some (one load; tests only).
        private let watcherCount = Atomic<Int>(0)
    #endif

    /// A coalescer submitting to `queue`.
    public init(queue: WorkQueue, name: String = "coalesced") {
        self.queue = queue
        self.name = name
    }

    /// Keys with a shared job in flight. A key is forgotten once its job finishes: at the latest before any caller
    /// that waited for that job returns. - Complexity: O(1).
    public var inFlightCount: Int { entries.withLock { $0.count } }

    /// The callers waiting for `key`'s unfinished job, 0 when there is none (for diagnostics and tests).
    /// - Complexity: O(1).
    public func waiterCount(for key: Key) -> Int {
        let hashed = HashedKey(key)
        return entries.withLock { $0[hashed]?.waiters ?? 0 }
    }

    #if SWITCHYARD_TEST_HOOKS
        /// Returns once at least `count` callers wait for `key`'s unfinished job (as ``waiterCount(for:)`` counts
        /// them), or once the calling task is cancelled; not when the job ends first. A test hook, in debug builds
        /// only (`SWITCHYARD_TEST_HOOKS`): an event to wait for instead of polling the count.
        /// - Complexity: O(1) per join while nobody waits here; O(tasks waiting here) per join otherwise.
        @_spi(Testing)
        public func waitForWaiters(_ count: Int, for key: Key) async {
            let hashed = HashedKey(key)
            let identifier = watchers.withLock { state in
                state.last += 1
                return state.last
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let registered = watchers.withLock { state -> Bool in
                        // Cancelled before this: the handler below found nothing to resume.
                        if Task.isCancelled { return false }
                        state.waiting[identifier] = Watcher(key: hashed, count: count, continuation: continuation)
                        // Before the count is read below: a join that this read misses sees the watcher (the count is
                        // read and written under `entries`' lock, which orders the two).
                        watcherCount.add(1, ordering: .relaxed)
                        return true
                    }
                    if registered {
                        resumeSatisfiedWatchers()
                    } else {
                        continuation.resume()
                    }
                }
            } onCancel: {
                let watcher = watchers.withLock { state -> Watcher? in
                    guard let watcher = state.waiting.removeValue(forKey: identifier) else { return nil }
                    watcherCount.subtract(1, ordering: .relaxed)
                    return watcher
                }
                watcher?.continuation.resume()
            }
        }

        /// Resumes the tasks in ``waitForWaiters(_:for:)`` whose count is reached. Called after a join, without
        /// `entries`' lock.
        private func resumeSatisfiedWatchers() {
            // Returned, so that their keys are released after the lock (see the type's comment).
            let satisfied = watchers.withLock { state -> [Int: Watcher] in
                let ready = entries.withLock { entries in
                    state.waiting.filter { (entries[$0.value.key]?.waiters ?? 0) >= $0.value.count }
                }
                for identifier in ready.keys { state.waiting[identifier] = nil }
                watcherCount.subtract(ready.count, ordering: .relaxed)
                return ready
            }
            for watcher in satisfied.values { watcher.continuation.resume() }
        }
    #endif

    /// Resumes the tasks in `waitForWaiters(_:for:)` whose count a join may have reached, if there are any (debug
    /// builds; nothing otherwise).
    @inline(__always)
    private func noteJoin() {
        #if SWITCHYARD_TEST_HOOKS
            if watcherCount.load(ordering: .relaxed) > 0 { resumeSatisfiedWatchers() }
        #endif
    }

    /// The value for `key`: joins the unfinished job for `key`, or submits `load` as a new one.
    ///
    /// Never waits for room: on a bounded queue that is full, a new key fails with ``JobError/failed(_:)`` wrapping
    /// ``SubmissionError``.
    /// - Parameters:
    ///   - key: what identifies the work: callers with equal keys share one job while it is unfinished.
    ///   - priority: the priority this request lends the job; by default the current task's.
    ///   - load: the work, run as the job's body when no unfinished job has this key.
    /// - Throws: ``JobError/cancelled`` when this caller's task is cancelled (or the job was cancelled), otherwise
    ///   the job's error.
    public func value(
        for key: Key, priority: JobPriority? = nil,
        load: @escaping @Sendable (Key) async throws -> Value
    ) async throws(JobError<any Error>) -> Value {
        try await value(for: key, describedAs: nil, priority: priority, makeNode: Self.loadingNode(key, load))
    }

    /// Makes the node of a job whose body is `load(key)`, given the queue, the job's name and priority.
    private static func loadingNode(
        _ key: Key, _ load: @escaping @Sendable (Key) async throws -> Value
    ) -> (WorkQueue, String, JobPriority) -> TypedJobNode<Value, any Error> {
        { queue, name, priority in
            queue.makeNode(name, priority, isBlocking: false, isBarrier: false, JobOptions()) {
                () async throws(any Error) -> Value in try await load(key)
            }
        }
    }

    /// The value for `key`: joins the unfinished job for `key`, or submits a new self-completing job (see
    /// ``JobCompletion``) whose `start` begins the work once the job holds its slot and returns at once.
    ///
    /// For work carried out by callbacks (an event loop, a completion-handler API): no task runs the job, and
    /// the thread that completes it resumes its callers. Cancellation is as for ``value(for:priority:load:)``:
    /// a caller that leaves stops waiting, and when the last one leaves the job is cancelled, which runs the
    /// handler `start` gave to ``JobCompletion/onCancel(_:)``.
    /// - Parameters:
    ///   - key: what identifies the work: callers with equal keys share one job while it is unfinished.
    ///   - priority: the priority this request lends the job; by default the current task's.
    ///   - start: called once, after the engine's lock is released, on the thread that starts the job, with the
    ///     key and the job's ``JobCompletion``; must not block. A completion made before it returns is carried out
    ///     by a new task.
    /// - Throws: ``JobError/cancelled`` when this caller's task is cancelled (or the job was cancelled), otherwise
    ///   the error the job was failed with.
    public func value(
        for key: Key, priority: JobPriority? = nil,
        start: @escaping @Sendable (Key, JobCompletion<Value, any Error>) -> Void
    ) async throws(JobError<any Error>) -> Value {
        try await value(for: key, describedAs: nil, priority: priority, start: start)
    }

    /// ``value(for:priority:start:)`` whose job, when this call submits one, is named `"<name> <description>"`
    /// instead of by printing the key: for a caller that has the key's text at hand (printing a generic key goes
    /// through the runtime's dynamic casts, on every new job).
    package func value(
        for key: Key, describedAs description: String?, priority: JobPriority? = nil,
        start: @escaping @Sendable (Key, JobCompletion<Value, any Error>) -> Void
    ) async throws(JobError<any Error>) -> Value {
        try await value(for: key, describedAs: description, priority: priority) { queue, name, priority in
            let node = queue.makeNode(name, priority, isBlocking: false, isBarrier: false, JobOptions()) {
                () async throws(any Error) -> Value in throw CancellationError()  // never run: the job has a starter
            }
            node.starter = { node, attempt in
                let typed = unsafeDowncast(node, to: TypedJobNode<Value, any Error>.self)
                start(key, JobCompletion(node: typed, attempt: attempt))
            }
            return node
        }
    }

    private func value(
        for key: Key, describedAs description: String?, priority: JobPriority?,
        makeNode: (WorkQueue, String, JobPriority) -> TypedJobNode<Value, any Error>
    ) async throws(JobError<any Error>) -> Value {
        let level = (priority ?? JobPriority(Task.currentPriority)).level
        let hashed = HashedKey(key)  // the key's own hashing, outside the lock
        let node: TypedJobNode<Value, any Error>
        let created: Bool
        do {
            (node, created) = try join(hashed, describedAs: description, level: level, makeNode: makeNode)
        } catch {
            throw .failed(error)
        }
        // The job is submitted at its first caller's priority (so it never starts lower); once that caller's wait
        // lends the same level, its own request drops to the lowest, so the job's priority is the highest of the
        // callers still waiting, and falls back when a high-priority caller leaves.
        let end = await Engine.wait(
            for: node, level: level, cancellable: true, thenRequest: created ? .background : nil,
            followsTask: priority == nil)
        switch end {
        case .finished:
            let done = node.isDone.load(ordering: .acquiring)  // publishes the result without the lock
            assert(done, "Coalescer: resumed before the shared job finished")
            // Every waiter ends here or in `leave`, so the first of them to return forgets the finished job (the job
            // needs no completion handler of its own, nor a hold of this lock on the thread that finishes it).
            forget(hashed, ObjectIdentifier(node))
            return try node.result.get()
        case .deadlock(let report):
            leave(hashed, node)
            throw .wouldDeadlock(report)
        case .left:
            leave(hashed, node)
            throw .cancelled
        }
    }

    /// The unfinished job for `key`, joined, or a new one; `created` says which.
    ///
    /// A caller that finds an unfinished job joins it in one short hold of this coalescer's lock. Otherwise the new
    /// job is made outside the lock, and a second hold joins the job another caller may have submitted meanwhile
    /// (dropping this one, never admitted; internal for the test of that drop) or submits this one. On a queue
    /// without a pending-job bound the job is only pushed to the engine's intake under this lock and admitted
    /// after it (see ``Engine/pushPlain(_:)``), so this lock is not held while the engine's lock is awaited, except
    /// when the push races with a merge of the queue's region (rare: the push is then admitted in the surviving
    /// region, under its lock). Any hold of the engine's lock admits pushed jobs first, so another caller that joins
    /// the job meanwhile waits for an admitted job. On a bounded queue the room check needs the engine's lock: it
    /// is taken inside this coalescer's lock, never the reverse. A hold made under this lock has its transaction
    /// carried out after it (``Engine/performHeld(in:_:)``): starting a job, which may run its `start`, never
    /// happens under this lock.
    func join(
        _ key: Key, level: Int, load: @escaping @Sendable (Key) async throws -> Value
    ) throws(SubmissionError) -> (node: TypedJobNode<Value, any Error>, created: Bool) {
        try join(HashedKey(key), describedAs: nil, level: level, makeNode: Self.loadingNode(key, load))
    }

    /// ``join(_:level:load:)`` with the node made by `makeNode` (given the queue, the job's name and priority); a
    /// new job's name ends with `description`, or with the printed key when it is nil.
    private func join(
        _ key: HashedKey, describedAs description: String?, level: Int,
        makeNode: (WorkQueue, String, JobPriority) -> TypedJobNode<Value, any Error>
    ) throws(SubmissionError) -> (node: TypedJobNode<Value, any Error>, created: Bool) {
        if let node = entries.withLock({ joinExisting(key, &$0) }) {
            noteJoin()
            return (node, false)
        }
        let node = makeNode(
            queue, description.map { name + " " + $0 } ?? "\(name) \(key.key)", JobPriority(level: level))
        var removed: (key: HashedKey, value: Entry)?
        defer { _ = removed }  // a replaced key and its job are released here, after the lock
        var held: Transaction?  // a bounded queue's admission, carried out after this coalescer's lock
        defer { if let held { Engine.carryOutHeld(held) } }
        let joined = try entries.withLock {
            (entries) throws(SubmissionError) -> (node: TypedJobNode<Value, any Error>, created: Bool) in
            if let existing = joinExisting(key, &entries) { return (existing, false) }
            if let maximumPending = queue.maximumPending {
                held = try Engine.performHeld(in: queue.region) { (transaction) throws(SubmissionError) in
                    if !queue.roomWaiters.isEmpty || queue.pendingCount + queue.reservedRoom >= maximumPending {
                        throw SubmissionError(code: .full, queue: queue.name, maximumPending: maximumPending)
                    }
                    Engine.admit(node, dependencies: [], group: nil, isHeld: false, &transaction)
                }
            } else {
                held = Engine.pushPlain(node)
            }
            if let index = entries.index(forKey: key) { removed = entries.remove(at: index) }  // a finished job's
            entries[key] = Entry(node: node, waiters: 1)
            return (node, true)
        }
        if joined.created && queue.maximumPending == nil { Engine.admitPushed(of: node) }
        noteJoin()
        return joined
    }

    /// Joins `key`'s unfinished job. Called under this coalescer's lock. A job that finished but is not yet
    /// forgotten is not joined (its result is final, and a new request starts a new job).
    private func joinExisting(_ key: HashedKey, _ entries: inout [HashedKey: Entry]) -> TypedJobNode<Value, any Error>?
    {
        guard let index = entries.index(forKey: key), !entries.values[index].node.isDone.load(ordering: .acquiring)
        else { return nil }
        entries.values[index].waiters += 1
        return entries.values[index].node
    }

    private func leave(_ key: HashedKey, _ node: TypedJobNode<Value, any Error>) {
        let removed = entries.withLock { entries -> (key: HashedKey, value: Entry)? in
            guard let index = entries.index(forKey: key), entries.values[index].node === node else { return nil }
            entries.values[index].waiters -= 1
            return entries.values[index].waiters > 0 ? nil : entries.remove(at: index)
        }
        // The last waiter left: the job is cancelled; the key and the entry are released after every lock.
        if removed != nil { Engine.perform(in: queue.region) { transaction in Engine.cancel(node, &transaction) } }
    }

    /// Forgets `key` if its entry is still the job `identity` names (the entry retains that job, so a match can
    /// never be another job at a reused address). The removed key and job are released after the lock.
    private func forget(_ key: HashedKey, _ identity: ObjectIdentifier) {
        let removed = entries.withLock { entries -> (key: HashedKey, value: Entry)? in
            guard let index = entries.index(forKey: key), ObjectIdentifier(entries.values[index].node) == identity
            else { return nil }
            return entries.remove(at: index)
        }
        _ = removed
    }
}
