import DequeModule
import Synchronization

/// The lock behind `Isolated` and `ReadWriteIsolated`: shared and exclusive modes, a lock-free fast path, and a
/// FIFO hand-off slow path that serves blocked threads, suspended tasks and enqueued jobs alike.
///
/// ## State word
/// `state` packs `exclusiveBit` (a writer holds the lock), `queuedBit` (someone waits in `queues`) and a reader
/// count in units of `readerUnit`. The exclusive fast path is one compare-exchange from 0; the shared fast path
/// is one fetch-add that backs out when it finds a writer or waiters. Both succeed only while `queuedBit` is
/// clear, so once anyone waits, newcomers queue behind them — except blocked threads of `Isolated`, which barge
/// (below). A backing-out reader shows up transiently in the count, also next to `exclusiveBit`.
///
/// ## Slow path
/// Waiters sit in `queues` (one FIFO for writers, one for readers) guarded by a short internal `Mutex`. Whoever
/// changes the state while `queuedBit` is set (an enqueuer, a releasing writer, the last releasing reader) runs
/// `dispatch`, which hands the lock to the next waiters *directly* (the state already names them as owners when
/// they wake), so a woken waiter never has to race for the lock.
///
/// ## Policy (phase-fair)
/// - A queued writer blocks new readers (writer preference): readers that arrive while a writer waits queue.
/// - When a writer releases and readers are queued, *all* queued readers enter together before the next writer.
/// - When the last reader releases and a writer is queued, the oldest queued writer enters.
/// So a writer waits for at most one read phase per writer ahead of it, and a reader for at most one write phase.
///
/// ## Blocked threads: hand-off or barging
/// Suspended tasks and enqueued jobs always get the lock handed to them, in FIFO order. Blocked *threads* get it
/// handed over too when `threadsBarge` is false (`ReadWriteIsolated`, whose writer preference needs it). When it
/// is true (`Isolated`), a releasing holder instead wakes the oldest blocked thread and leaves the lock free: the
/// woken thread competes again with running threads. Handing a lock to a thread that is still asleep stalls every
/// other thread for a wake-up latency (a lock convoy); barging keeps the throughput of a plain mutex. Synchronous
/// accessors get no ordering promise; like a plain mutex's, their fairness is left to the scheduler (a woken thread
/// that loses the race queues again, at the back).
///
/// ## Enqueued jobs
/// An enqueued job is started (a task, created by its owner's closure) when the lock is handed to it. That task then
/// runs the exclusive enqueued jobs waiting right behind it too, keeping the lock between them, up to
/// ``enqueuedRunLimit`` in a row (``runEnqueuedExclusive(_:afterEach:)``); a waiter of any other kind, or a read
/// phase that is due, ends the run and gets the lock as usual. FIFO order is unchanged.
///
/// Waits are not cancellable: like an actor hop, an access waits for its turn (critical sections are short).
@usableFromInline
struct AccessLock: ~Copyable, Sendable {
    @usableFromInline static var exclusiveBit: UInt { 1 }
    @usableFromInline static var queuedBit: UInt { 2 }
    @usableFromInline static var readerUnit: UInt { 4 }

    /// One party waiting for the lock, and how to tell it that it now holds the lock.
    enum Waiter: Sendable {
        /// A synchronous accessor blocked on its thread.
        case thread(ThreadParker)
        /// An asynchronous accessor suspended in its task.
        case task(CheckedContinuation<Void, Never>)
        /// Work enqueued from synchronous code: `start` is called (outside any lock) once it holds the lock.
        /// An exclusive job may also carry `inline`, its access itself, which a task that is running enqueued
        /// accesses of the same lock may run in place of starting one (see ``runEnqueuedExclusive(_:afterEach:)``).
        case job(start: @Sendable () -> Void, inline: (@Sendable () -> Void)?)

        func grant(announcing handoffs: borrowing Atomic<UInt>) {
            if case .thread = self {} else { handoffs.wrappingAdd(1, ordering: .releasing) }
            switch self {
            case .thread(let parker): parker.unpark()
            case .task(let continuation): continuation.resume()
            case .job(let start, _): start()
            }
        }
    }

    struct Queues {
        var writers = Deque<Waiter>()
        var readers = Deque<Waiter>()
        /// Whether the phase that ended most recently was a write phase (decides who goes next when both wait).
        var lastPhaseWasWrite = false
        var isEmpty: Bool { writers.isEmpty && readers.isEmpty }
    }

    @usableFromInline let state = Atomic<UInt>(0)
    private let queues = PlatformLock(Queues())
    /// The thread running an exclusive holder's body, or 0. Written only by that thread, so a thread that reads
    /// its own identity here really is inside an exclusive access (relaxed ordering suffices for that question).
    @usableFromInline let exclusiveOwner = Atomic<UInt>(0)
    /// Whether blocked threads are woken to compete (true) or handed the lock (false); see the type's notes.
    private let threadsBarge: Bool
    /// Counts hand-overs. A granter increments it (release) before waking a suspended task or starting an
    /// enqueued job; the grantee loads it (acquire) before touching the value. The hand-over itself is ordered
    /// by the continuation or task start, but ThreadSanitizer does not see that ordering (resuming a
    /// continuation is invisible to it on Linux); this pair makes it visible, at no cost to the fast paths. An
    /// enqueued access run by the task that ran the one before it needs no hand-over: its body came through the
    /// queues' lock, and the value is touched by that one thread throughout.
    private let handoffs = Atomic<UInt>(0)

    @usableFromInline
    init(threadsBarge: Bool) {
        self.threadsBarge = threadsBarge
    }

    // MARK: Exclusive mode

    /// Takes the lock if it is free and nobody waits. Never blocks.
    @inlinable @inline(__always)
    func tryLockExclusive() -> Bool {
        state.compareExchange(expected: 0, desired: Self.exclusiveBit,
                              successOrdering: .acquiring, failureOrdering: .relaxed).exchanged
    }

    /// Blocks the calling thread until it holds the lock exclusively. Spins briefly before queueing.
    @usableFromInline
    func lockExclusiveBlocking() {
        if tryLockExclusive() { return }
        if threadsBarge { return lockExclusiveBarging() }
        for _ in 0..<Self.spinLimit {
            let current = state.load(ordering: .relaxed)
            if current & Self.queuedBit != 0 { break }
            if current == 0, tryLockExclusive() { return }
        }
        let parker = ThreadParker()
        enqueue(.thread(parker), exclusive: true)
        parker.park()
    }

    /// Competes for the lock alongside running threads; between attempts, sleeps until a holder releases.
    private func lockExclusiveBarging() {
        while true {
            for _ in 0..<Self.bargingSpinLimit {
                let current = state.load(ordering: .relaxed)
                if current & Self.exclusiveBit == 0, current < Self.readerUnit,
                   state.compareExchange(expected: current, desired: current | Self.exclusiveBit,
                                         successOrdering: .acquiring, failureOrdering: .relaxed).exchanged {
                    return
                }
            }
            let parker = ThreadParker()
            let queued = queues.withLock { queues -> Bool in
                let current = state.bitwiseOr(Self.queuedBit, ordering: .acquiringAndReleasing).newValue
                if current & Self.exclusiveBit == 0, current < Self.readerUnit {
                    // Released meanwhile: compete again instead of sleeping (nobody would wake us).
                    if queues.isEmpty { state.bitwiseAnd(~Self.queuedBit, ordering: .acquiringAndReleasing) }
                    return false
                }
                queues.writers.append(.thread(parker))
                return true
            }
            if queued { parker.park() }
        }
    }

    /// Suspends (never blocks) until the calling task holds the lock exclusively.
    @usableFromInline
    func lockExclusiveSuspending(isolation: isolated (any Actor)? = #isolation) async {
        if tryLockExclusive() { return }
        await withCheckedContinuation(isolation: isolation) { continuation in
            enqueue(.task(continuation), exclusive: true)
        }
        acceptHandoff()
    }

    /// Takes a place in line now; `start` is called (on the thread that hands over the lock) once held. `inline`,
    /// if given, is the access itself: a task already running enqueued accesses may run it instead.
    @usableFromInline
    func lockExclusiveEnqueued(inline: (@Sendable () -> Void)? = nil, _ start: @escaping @Sendable () -> Void) {
        if tryLockExclusive() {
            handoffs.wrappingAdd(1, ordering: .releasing)
            return start()
        }
        enqueue(.job(start: start, inline: inline), exclusive: true)
    }

    /// The most enqueued accesses one task runs in a row (``runEnqueuedExclusive(_:afterEach:)``): between them
    /// there is no suspension point, so the bound keeps one burst from holding a cooperative thread. Every access
    /// of a run executes in the context of the task started for the first (today all are detached tasks at the
    /// default priority; an `enqueue` that took a priority or an executor would have to end a run where they
    /// differ).
    static var enqueuedRunLimit: Int { 32 }

    /// Runs enqueued exclusive accesses on the current task, starting with `first`, whose hold was handed to this
    /// task. After each one, while the lock is still held, `afterEach` runs (it returns whether observers must be
    /// drained after the release). Then, if the next in line is another enqueued exclusive access (and fewer than
    /// ``enqueuedRunLimit`` ran), the lock stays held and that access runs here too, instead of a task being
    /// started for it; otherwise the lock is released as by ``unlockExclusive()``. The order is the queue's order
    /// either way: only the task that carries the accesses out changes. Returns whether any `afterEach` asked for
    /// a drain.
    func runEnqueuedExclusive(_ first: @escaping @Sendable () -> Void, afterEach: () -> Bool) -> Bool {
        acceptHandoff()
        var access = first
        var run = 1
        var drains = false
        while true {
            exclusiveOwner.store(currentThreadIdentity(), ordering: .relaxed)
            access()
            if afterEach() { drains = true }
            exclusiveOwner.store(0, ordering: .relaxed)
            guard run < Self.enqueuedRunLimit, let next = unlockExclusiveOrTakeNextJob() else {
                if run >= Self.enqueuedRunLimit { unlockExclusive() }
                return drains
            }
            access = next
            run += 1
        }
    }

    /// Releases an exclusive hold, unless the next in line is an enqueued exclusive access with an `inline` body
    /// and no queued reader goes first (after a write phase, queued readers do): then the hold passes to that
    /// access without ever being released, and its body is returned for the caller to run.
    private func unlockExclusiveOrTakeNextJob() -> (@Sendable () -> Void)? {
        if state.compareExchange(expected: Self.exclusiveBit, desired: 0,
                                 successOrdering: .releasing, failureOrdering: .relaxed).exchanged { return nil }
        let next = queues.withLock { queues -> (@Sendable () -> Void)? in
            guard queues.readers.isEmpty, case .job(_, let inline?) = queues.writers.first else { return nil }
            queues.writers.removeFirst()
            queues.lastPhaseWasWrite = true
            if queues.isEmpty { state.bitwiseAnd(~Self.queuedBit, ordering: .acquiringAndReleasing) }
            return inline
        }
        if next == nil { unlockExclusiveSlow() }
        return next
    }

    @inlinable @inline(__always)
    func unlockExclusive() {
        if state.compareExchange(expected: Self.exclusiveBit, desired: 0,
                                 successOrdering: .releasing, failureOrdering: .relaxed).exchanged { return }
        unlockExclusiveSlow()
    }

    /// Releasing with waiters queued (the state is exclusive + queued).
    @usableFromInline
    func unlockExclusiveSlow() {
        if threadsBarge { return unlockExclusiveBarging() }
        let granted = queues.withLock { queues in
            state.bitwiseAnd(~Self.exclusiveBit, ordering: .acquiringAndReleasing)
            queues.lastPhaseWasWrite = true
            return dispatch(&queues)
        }
        for waiter in granted { waiter.grant(announcing: handoffs) }
    }

    /// Barging mode: a task or job at the head gets the lock handed over (it stays held, so nobody can barge in
    /// between); a thread at the head is woken and the lock is left free for it to compete for.
    private func unlockExclusiveBarging() {
        let next: Waiter? = queues.withLock { queues in
            // The queued bit can be set with nobody queued: a thread that found the lock free while queueing
            // sets and clears it again. So flags are cleared with and-not, never subtracted.
            guard let head = queues.writers.popFirst() else {
                state.bitwiseAnd(~(Self.exclusiveBit | Self.queuedBit), ordering: .acquiringAndReleasing)
                return nil
            }
            let emptied = queues.isEmpty ? Self.queuedBit : 0
            if case .thread = head {
                state.bitwiseAnd(~(Self.exclusiveBit | emptied), ordering: .acquiringAndReleasing)
            } else if emptied != 0 {
                state.bitwiseAnd(~Self.queuedBit, ordering: .acquiringAndReleasing)
            }
            return head
        }
        next?.grant(announcing: handoffs)
    }

    /// Called by an enqueued job before it touches the value (see `handoffs`).
    @usableFromInline
    func acceptHandoff() {
        _ = handoffs.load(ordering: .acquiring)
    }

    // MARK: Shared mode

    /// Takes a shared hold if no writer holds or waits. Never blocks.
    ///
    /// One fetch-add, not a compare-exchange loop: concurrent readers never make each other retry. A reader that
    /// finds a writer (or waiters) backs out with `unlockShared()`, which behaves exactly like a reader leaving —
    /// including handing over if it was the last one — so a transient reader count is always accounted for.
    @inlinable @inline(__always)
    func tryLockShared() -> Bool {
        let old = state.wrappingAdd(Self.readerUnit, ordering: .acquiring).oldValue
        if old & (Self.exclusiveBit | Self.queuedBit) == 0 { return true }
        unlockShared()
        return false
    }

    @usableFromInline
    func lockSharedBlocking() {
        if tryLockShared() { return }
        for _ in 0..<Self.spinLimit {
            let current = state.load(ordering: .relaxed)
            if current & Self.queuedBit != 0 { break }
            if current & Self.exclusiveBit == 0, tryLockShared() { return }
        }
        let parker = ThreadParker()
        enqueue(.thread(parker), exclusive: false)
        parker.park()
    }

    @usableFromInline
    func lockSharedSuspending(isolation: isolated (any Actor)? = #isolation) async {
        if tryLockShared() { return }
        await withCheckedContinuation(isolation: isolation) { continuation in
            enqueue(.task(continuation), exclusive: false)
        }
        acceptHandoff()
    }

    @usableFromInline
    func lockSharedEnqueued(_ start: @escaping @Sendable () -> Void) {
        if tryLockShared() {
            handoffs.wrappingAdd(1, ordering: .releasing)
            return start()
        }
        enqueue(.job(start: start, inline: nil), exclusive: false)
    }

    @inlinable @inline(__always)
    func unlockShared() {
        let old = state.wrappingSubtract(Self.readerUnit, ordering: .releasing).oldValue
        // Last reader out while someone waits: hand over.
        if old == Self.readerUnit | Self.queuedBit { unlockSharedSlow() }
    }

    /// The last reader left (or a reader backed out) while waiters queue. Leaves `lastPhaseWasWrite` alone: a
    /// reader backing out of a write phase must not make the phase look like a read phase.
    @usableFromInline
    func unlockSharedSlow() {
        let granted = queues.withLock { queues in dispatch(&queues) }
        for waiter in granted { waiter.grant(announcing: handoffs) }
    }

    /// A human-readable snapshot of the state, e.g. "held exclusively, 2 waiting (1 writer, 1 reader)".
    /// Takes the internal queue lock briefly; the answer may be stale as soon as it is returned.
    @usableFromInline
    var stateDescription: String {
        let (writers, readers) = queues.withLock { ($0.writers.count, $0.readers.count) }
        let current = state.load(ordering: .relaxed)
        var text: String
        if current & Self.exclusiveBit != 0 {
            text = "held exclusively"
        } else if current >= Self.readerUnit {
            text = "read by \(current / Self.readerUnit)"
        } else {
            text = "free"
        }
        if writers + readers > 0 {
            text += ", \(writers + readers) waiting (\(writers) exclusive, \(readers) shared)"
        }
        return text
    }

    // MARK: Slow path

    /// Spin iterations before queueing; short, because the fast path of a free lock is one compare-exchange
    /// and the critical sections this lock guards are meant to be short.
    private static var spinLimit: Int { 100 }
    /// Barging threads retry for longer: the holder of a short critical section usually releases before a sleep
    /// and wake-up would pay off.
    private static var bargingSpinLimit: Int { 400 }

    private func enqueue(_ waiter: Waiter, exclusive: Bool) {
        let granted = queues.withLock { queues in
            let current = state.bitwiseOr(Self.queuedBit, ordering: .acquiringAndReleasing).newValue
            if queues.isEmpty {
                // The phase in progress began on the fast path; record which kind it is.
                queues.lastPhaseWasWrite = current & Self.exclusiveBit != 0
            }
            if exclusive { queues.writers.append(waiter) } else { queues.readers.append(waiter) }
            return dispatch(&queues)
        }
        for waiter in granted { waiter.grant(announcing: handoffs) }
    }

    /// Hands the lock to as many queued waiters as the policy allows. Called with `queues` locked and
    /// `queuedBit` set. While `queuedBit` is set no fast path can keep a hold; the state can still move under us
    /// (readers leaving, a reader's fetch-add backing out, a barging thread in `Isolated`), so the exclusive
    /// grant is a compare-exchange that simply yields to whoever moved first.
    ///
    /// - Complexity: O(k) for k waiters granted.
    private func dispatch(_ queues: inout Queues) -> [Waiter] {
        var granted: [Waiter] = []
        let current = state.load(ordering: .acquiring)
        assert(current >> 48 == 0, "Switchyard internal error: implausible reader count (state \(current))")
        if current & Self.exclusiveBit == 0 {
            let readersActive = current >= Self.readerUnit
            let admitReaders: Bool
            if queues.writers.isEmpty {
                admitReaders = !queues.readers.isEmpty
            } else if readersActive {
                admitReaders = false  // a writer waits: let the read phase drain, admit no newcomer
            } else {
                admitReaders = !queues.readers.isEmpty && queues.lastPhaseWasWrite
            }
            if admitReaders {
                let count = UInt(queues.readers.count)
                state.wrappingAdd(count &* Self.readerUnit, ordering: .acquiringAndReleasing)
                granted.append(contentsOf: queues.readers)
                queues.readers.removeAll(keepingCapacity: true)
                queues.lastPhaseWasWrite = false
            } else if !readersActive, threadsBarge, case .thread = queues.writers.first {
                granted.append(queues.writers.removeFirst())  // woken to compete; the lock stays free
            } else if !readersActive, !queues.writers.isEmpty {
                let exchanged = state.compareExchange(
                    expected: current, desired: current | Self.exclusiveBit,
                    ordering: .acquiringAndReleasing).exchanged
                if exchanged {
                    granted.append(queues.writers.removeFirst())
                    queues.lastPhaseWasWrite = true
                }
                // Otherwise the state moved under us: a barging thread took the lock, or a reader's fetch-add is
                // passing through (it backs out at once). Either way the queued bit is set, so that holder's or
                // reader's release finds it and dispatches again.
            }
        }
        if queues.isEmpty {
            state.bitwiseAnd(~Self.queuedBit, ordering: .acquiringAndReleasing)
        }
        return granted
    }
}
