import Synchronization

/// The lock behind `Isolated` and `ReadWriteIsolated`: shared and exclusive modes, a lock-free fast path, and a
/// slow path that serves blocked threads, suspended tasks and enqueued jobs without ever handing the lock to a
/// party that is not running.
///
/// ## State word
/// `state` packs `exclusiveBit` (a writer holds the lock), `queuedBit` (someone waits or holds a reservation) and
/// a reader count in units of `readerUnit`. The exclusive fast path is one compare-exchange from 0; the shared fast
/// path is one fetch-add that backs out when it finds a writer or the queued bit. Both succeed only while
/// `queuedBit` is clear, so once anyone waits, every arrival and every release goes through the slow path. A
/// backing-out reader shows up transiently in the count, also next to `exclusiveBit`.
///
/// ## Slow path
/// Waiters and reservations live in an ``AccessWaiters`` value behind a short internal mutex. Every change made
/// under it ends with `AccessWaiters.dispatch`, and the parties it names are woken after the mutex is released.
/// A woken party takes the lock itself when it runs (wake, don't hand): see ``AccessWaiters`` for why that makes
/// every mix of synchronous, asynchronous and enqueued accesses deadlock-free, and for the fairness policy.
///
/// The queued bit mirrors `AccessWaiters.needsSlowPath` and is only changed under the mutex. A release that races
/// with a queueing is not lost: the queueing sets the bit and then reads the word, so either it sees the lock free
/// (and its dispatch wakes someone) or the release finds the bit set and dispatches after it.
///
/// ## Enqueued jobs
/// An enqueued job is queued like a task; when woken, its `start` creates a task, which claims the lock when it
/// runs. That task then runs the exclusive enqueued jobs waiting right behind it too, keeping the lock between
/// them, up to ``enqueuedRunLimit`` in a row (``runEnqueuedExclusive(_:afterEach:)``); any other waiter ends the
/// run. FIFO order is unchanged.
///
/// Waits are not cancellable: like an actor hop, an access waits for its turn (critical sections are short).
@usableFromInline
struct AccessLock: ~Copyable, Sendable {
    @usableFromInline static var exclusiveBit: UInt { 1 }
    @usableFromInline static var queuedBit: UInt { 2 }
    @usableFromInline static var readerUnit: UInt { 4 }

    /// An asynchronous party waiting for the lock.
    enum Job: Sendable {
        /// A suspended task. Resumed with `true` when it took the lock while queueing (it was running then), with
        /// `false` when woken: it then claims the lock itself.
        case task(CheckedContinuation<Bool, Never>)
        /// Work enqueued from synchronous code: `start` (called outside any lock) starts a task that claims the
        /// lock. An exclusive job may also carry `inline`, its access itself, which a task already holding the lock
        /// for enqueued accesses may run in place (see ``runEnqueuedExclusive(_:afterEach:)``).
        case job(start: @Sendable () -> Void, inline: (@Sendable () -> Void)?)

        func wake() {
            switch self {
            case .task(let continuation): continuation.resume(returning: false)
            case .job(let start, _): start()
            }
        }
    }

    typealias Waiters = AccessWaiters<ThreadParker, Job>

    @usableFromInline let state = Atomic<UInt>(0)
    private let waiters: PlatformLock<Waiters>
    /// The thread running an exclusive holder's body, or 0. Written only by that thread, so a thread that reads
    /// its own identity here really is inside an exclusive access (relaxed ordering suffices for that question).
    @usableFromInline let exclusiveOwner = Atomic<UInt>(0)
    private let threadsBarge: Bool

    /// - Parameter threadsBarge: whether blocked threads compete like a plain mutex's (`Isolated`) or are served
    ///   phase-fair among themselves (`ReadWriteIsolated`); see ``AccessWaiters``.
    @usableFromInline
    init(threadsBarge: Bool) {
        self.threadsBarge = threadsBarge
        waiters = PlatformLock(Waiters(threadsBarge: threadsBarge))
    }

    // MARK: Exclusive mode

    /// Takes the lock if it is free and nobody waits. Never blocks.
    @inlinable @inline(__always)
    func tryLockExclusive() -> Bool {
        state.compareExchange(
            expected: 0, desired: Self.exclusiveBit,
            successOrdering: .acquiring, failureOrdering: .relaxed
        ).exchanged
    }

    /// Blocks the calling thread until it holds the lock exclusively. Spins briefly before queueing.
    @usableFromInline
    func lockExclusiveBlocking() {
        lockBlocking(exclusive: true)
    }

    /// Suspends (never blocks) until the calling task holds the lock exclusively.
    @usableFromInline
    func lockExclusiveSuspending(isolation: isolated (any Actor)? = #isolation) async {
        if tryLockExclusive() { return }
        await lockSuspending(exclusive: true, woken: false, isolation: isolation)
    }

    /// Takes a place in line now; `start` is called (on whichever thread wakes it) when its turn comes, and must
    /// start a task that calls ``claimWokenExclusive()`` before touching the value. `inline`, if given, is the
    /// access itself: a task already running enqueued accesses may run it instead.
    @usableFromInline
    func lockExclusiveEnqueued(inline: (@Sendable () -> Void)? = nil, _ start: @escaping @Sendable () -> Void) {
        slowPath { waiters in waiters.append(job: .job(start: start, inline: inline), exclusive: true) }
    }

    /// Called by the task an enqueued exclusive job started: takes the lock, waiting at the head of the line if a
    /// thread holds it meanwhile.
    func claimWokenExclusive() async {
        await lockSuspending(exclusive: true, woken: true)
    }

    /// The most enqueued accesses one task runs in a row (``runEnqueuedExclusive(_:afterEach:)``): between them
    /// there is no suspension point, so the bound keeps one burst from holding a cooperative thread.
    static var enqueuedRunLimit: Int { 32 }

    /// Runs enqueued exclusive accesses on the current task, starting with `first`, whose lock the task holds.
    /// After each one, while the lock is still held, `afterEach` runs (it returns whether observers must be drained
    /// after the release). Then, if the next in line is another enqueued exclusive access, nobody else is due and
    /// fewer than ``enqueuedRunLimit`` ran, the lock stays held and that access runs here too; otherwise the lock
    /// is released. Returns whether any `afterEach` asked for a drain.
    func runEnqueuedExclusive(_ first: @escaping @Sendable () -> Void, afterEach: () -> Bool) -> Bool {
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
    /// and nobody else is due: then the hold passes to that access without being released, and its body is
    /// returned for the caller (which is running) to run.
    private func unlockExclusiveOrTakeNextJob() -> (@Sendable () -> Void)? {
        if state.compareExchange(
            expected: Self.exclusiveBit, desired: 0,
            successOrdering: .releasing, failureOrdering: .relaxed
        ).exchanged {
            return nil
        }
        var next: (@Sendable () -> Void)?
        slowPath { waiters in
            let job = waiters.takeNextInline { if case .job(_, _?) = $0 { true } else { false } }
            if case .job(_, let inline)? = job {
                next = inline
            } else {
                state.bitwiseAnd(~Self.exclusiveBit, ordering: .acquiringAndReleasing)
            }
        }
        return next
    }

    @inlinable @inline(__always)
    func unlockExclusive() {
        if state.compareExchange(
            expected: Self.exclusiveBit, desired: 0,
            successOrdering: .releasing, failureOrdering: .relaxed
        ).exchanged {
            return
        }
        unlockExclusiveSlow()
    }

    /// Releasing with the queued bit set.
    @usableFromInline
    func unlockExclusiveSlow() {
        slowPath { _ in state.bitwiseAnd(~Self.exclusiveBit, ordering: .acquiringAndReleasing) }
    }

    // MARK: Shared mode

    /// Takes a shared hold if no writer holds or waits. Never blocks.
    ///
    /// One fetch-add, not a compare-exchange loop: concurrent readers never make each other retry. A reader that
    /// finds a writer (or waiters) backs out with `unlockShared()`, which behaves exactly like a reader leaving —
    /// including dispatching if it was the last one — so a transient reader count is always accounted for.
    @inlinable @inline(__always)
    func tryLockShared() -> Bool {
        let old = state.wrappingAdd(Self.readerUnit, ordering: .acquiring).oldValue
        if old & (Self.exclusiveBit | Self.queuedBit) == 0 { return true }
        unlockShared()
        return false
    }

    @usableFromInline
    func lockSharedBlocking() {
        lockBlocking(exclusive: false)
    }

    @usableFromInline
    func lockSharedSuspending(isolation: isolated (any Actor)? = #isolation) async {
        if tryLockShared() { return }
        await lockSuspending(exclusive: false, woken: false, isolation: isolation)
    }

    /// As ``lockExclusiveEnqueued(inline:_:)`` for a shared hold; the started task calls ``claimWokenShared()``.
    @usableFromInline
    func lockSharedEnqueued(_ start: @escaping @Sendable () -> Void) {
        slowPath { waiters in waiters.append(job: .job(start: start, inline: nil), exclusive: false) }
    }

    /// Called by the task an enqueued shared job started: takes a shared hold.
    func claimWokenShared() async {
        await lockSuspending(exclusive: false, woken: true)
    }

    @inlinable @inline(__always)
    func unlockShared() {
        let old = state.wrappingSubtract(Self.readerUnit, ordering: .releasing).oldValue
        // Last reader out while someone waits: dispatch.
        if old == Self.readerUnit | Self.queuedBit { unlockSharedSlow() }
    }

    /// The last reader left (or a reader backed out) while the queued bit is set.
    @usableFromInline
    func unlockSharedSlow() {
        slowPath { _ in }
    }

    /// A human-readable snapshot of the state, e.g. "held exclusively, 2 waiting (1 thread, 1 task)".
    /// Takes the internal mutex briefly; the answer may be stale as soon as it is returned.
    @usableFromInline
    var stateDescription: String {
        let (threads, tasks) = waitingCount
        let current = state.load(ordering: .relaxed)
        var text: String
        if current & Self.exclusiveBit != 0 {
            text = "held exclusively"
        } else if current >= Self.readerUnit {
            text = "read by \(current / Self.readerUnit)"
        } else {
            text = "free"
        }
        if threads + tasks > 0 {
            text +=
                ", \(threads + tasks) waiting (\(threads) blocked \(threads == 1 ? "thread" : "threads"), "
                + "\(tasks) suspended or enqueued)"
        }
        return text
    }

    /// Parties queued (not counting woken ones that have yet to claim).
    var waitingCount: (threads: Int, tasks: Int) {
        waiters.withLock { $0.waitingCount }
    }

    /// Every party queued, of any kind (for tests that arrange a wait).
    var waitingTotal: Int {
        let (threads, tasks) = waitingCount
        return threads + tasks
    }

    // MARK: Slow path

    /// Spin iterations before a thread queues: the critical sections this lock guards are meant to be short, so
    /// the holder usually releases before a sleep and wake-up would pay off.
    private static var spinLimit: Int { 100 }
    private static var bargingSpinLimit: Int { 400 }

    private var held: Waiters.Held { Self.held(state.load(ordering: .acquiring)) }

    private static func held(_ word: UInt) -> Waiters.Held {
        Waiters.Held(exclusive: word & exclusiveBit != 0, readers: Int(word / readerUnit))
    }

    /// Runs `change` under the mutex, then dispatches, mirrors the queued bit and wakes whoever `dispatch` named
    /// (after the mutex is released).
    @discardableResult
    private func slowPath<Result>(_ change: (inout Waiters) -> Result) -> Result {
        let (result, wakes) = waiters.withLock { waiters -> (Result, Waiters.Wakes) in
            if !waiters.needsSlowPath { waiters.noteFastPathPhase(held: held) }
            let result = change(&waiters)
            // Set the queued bit before reading the word for dispatch (see the type's notes); clear it after.
            if waiters.needsSlowPath { state.bitwiseOr(Self.queuedBit, ordering: .acquiringAndReleasing) }
            let wakes = waiters.dispatch(held: held)
            if !waiters.needsSlowPath { state.bitwiseAnd(~Self.queuedBit, ordering: .acquiringAndReleasing) }
            return (result, wakes)
        }
        for parker in wakes.threads { parker.unpark() }
        for job in wakes.jobs { job.wake() }
        return result
    }

    /// Tries to take the lock for `party` under the mutex: a compare-exchange against the word the decision was
    /// made on, retried if a reader passing through moved it. Returns whether the lock was taken.
    private func claim(_ waiters: inout Waiters, _ party: Waiters.Party, exclusive: Bool, woken: Bool) -> Bool {
        while true {
            let word = state.load(ordering: .acquiring)
            let observed = Self.held(word)
            if exclusive {
                guard waiters.mayClaimExclusive(party, woken: woken, held: observed) else { return false }
                if state.compareExchange(
                    expected: word, desired: word | Self.exclusiveBit,
                    ordering: .acquiringAndReleasing
                ).exchanged {
                    waiters.claimed(exclusive: true)
                    return true
                }
            } else {
                guard waiters.mayClaimShared(party, woken: woken, held: observed) else { return false }
                if state.compareExchange(
                    expected: word, desired: word &+ Self.readerUnit,
                    ordering: .acquiringAndReleasing
                ).exchanged {
                    waiters.claimed(exclusive: false)
                    return true
                }
            }
        }
    }

    /// A thread's slow path: spin, then claim or park until woken, and again.
    private func lockBlocking(exclusive: Bool) {
        if exclusive ? tryLockExclusive() : tryLockShared() { return }
        if spin(exclusive: exclusive) { return }
        var woken = false
        while true {
            let parker = ThreadParker()
            let took = slowPath { waiters -> Bool in
                if woken { waiters.consumeReservation(of: .thread, exclusive: exclusive) }
                if claim(&waiters, .thread, exclusive: exclusive, woken: woken) { return true }
                waiters.append(thread: parker, exclusive: exclusive, front: woken && !threadsBarge)
                return false
            }
            if took { return }
            parker.park()
            woken = true
            if threadsBarge, spin(exclusive: exclusive) { return }
        }
    }

    /// Brief spinning before a thread queues. Barging threads take a free lock whatever the queued bit says; the
    /// others only while nobody waits.
    private func spin(exclusive: Bool) -> Bool {
        if threadsBarge {
            for _ in 0..<Self.bargingSpinLimit {
                let current = state.load(ordering: .relaxed)
                if current & Self.exclusiveBit == 0, current < Self.readerUnit,
                    state.compareExchange(
                        expected: current, desired: current | Self.exclusiveBit,
                        successOrdering: .acquiring, failureOrdering: .relaxed
                    ).exchanged
                {
                    return true
                }
            }
            return false
        }
        for _ in 0..<Self.spinLimit {
            let current = state.load(ordering: .relaxed)
            if current & Self.queuedBit != 0 { return false }
            if exclusive {
                if current == 0, tryLockExclusive() { return true }
            } else if current & Self.exclusiveBit == 0, tryLockShared() {
                return true
            }
        }
        return false
    }

    /// A task's slow path: claim, or queue and suspend; when woken, claim again at the head of the line.
    private func lockSuspending(exclusive: Bool, woken: Bool, isolation: isolated (any Actor)? = #isolation) async {
        var woken = woken
        while true {
            let took = await withCheckedContinuation(isolation: isolation) {
                (continuation: CheckedContinuation<Bool, Never>) in
                let took = slowPath { waiters -> Bool in
                    if woken { waiters.consumeReservation(of: .task, exclusive: exclusive) }
                    if claim(&waiters, .task, exclusive: exclusive, woken: woken) { return true }
                    waiters.append(job: .task(continuation), exclusive: exclusive, front: woken)
                    return false
                }
                if took { continuation.resume(returning: true) }
            }
            if took { return }
            woken = true
        }
    }
}
