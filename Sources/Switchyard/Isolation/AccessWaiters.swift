import DequeModule

/// The waiting side of `AccessLock`, as a value: who waits, who has been woken, and who may take the lock next.
///
/// A pure state machine (no threads, no atomics): `AccessLock` keeps one behind a mutex, feeds it the lock word it
/// observes (`Held`), and carries out the wake-ups it returns after releasing the mutex. The tests drive it directly.
///
/// ## The rule that makes mixing access forms deadlock-free: wake, don't hand
/// The lock is only ever *taken* by running code: a thread in `lock…Blocking`, or a task that is executing. Waiting
/// parties are *woken*, and each takes the lock itself when it runs (`mayClaim…`). A woken task keeps a reservation
/// (it goes ahead of later asynchronous arrivals, so tasks stay FIFO), but a reservation never makes a *thread*
/// wait: a thread waits only for a running holder, or (in hand-off mode) for threads queued ahead of it. So nothing
/// a thread waits for ever needs a cooperative-pool thread, an actor or the main thread to make progress, and every
/// holder runs a critical section that does not block; hence no cycle of waits, on any pool width.
///
/// The price: a synchronous access may overtake waiting asynchronous ones (tasks are FIFO among themselves only).
///
/// ## Two modes for threads
/// - Barging (`Isolated`): threads compete for the lock like a plain mutex; a release wakes the oldest parked thread,
///   which competes again. Tasks compete with them when woken.
/// - Hand-off (`ReadWriteIsolated`): threads are served phase-fair among themselves (a woken thread holds a
///   reservation other *threads* respect); tasks are woken only while no thread waits.
///
/// ## Policy (phase-fair, applied to threads and to tasks separately)
/// A queued writer blocks new readers of its kind; when a write phase ends, all queued readers go before the next
/// writer; when a read phase ends, the oldest writer goes.
///
/// - Complexity: every operation is O(1) except `dispatch` waking k readers, which is O(k).
struct AccessWaiters<Thread, Job> {
    /// The lock word as observed under the mutex: whether a writer holds it, and how many readers do.
    struct Held: Equatable {
        var exclusive: Bool
        var readers: Int

        static var free: Held { Held(exclusive: false, readers: 0) }
    }

    /// Who asks.
    enum Party { case thread, task }

    /// The parties to wake, in order. Woken tasks and hand-off threads hold reservations; barging threads do not.
    struct Wakes {
        var threads: [Thread] = []
        var jobs: [Job] = []
        var isEmpty: Bool { threads.isEmpty && jobs.isEmpty }
    }

    let threadsBarge: Bool
    private(set) var threadWriters = Deque<Thread>()
    private(set) var threadReaders = Deque<Thread>()
    private(set) var taskWriters = Deque<Job>()
    private(set) var taskReaders = Deque<Job>()
    /// Reservations: parties woken that have not yet claimed (or re-queued).
    private(set) var wokenThreadWriter = false
    private(set) var wokenThreadReaders = 0
    private(set) var wokenTaskWriter = false
    private(set) var wokenTaskReaders = 0
    /// Whether the most recent claim was a write (decides who goes next when writers and readers both wait).
    private(set) var lastPhaseWasWrite = false

    init(threadsBarge: Bool) {
        self.threadsBarge = threadsBarge
    }

    /// Whether anyone waits or holds a reservation: `AccessLock` mirrors this in its queued bit, which closes the
    /// fast paths and sends every release through `dispatch`.
    var needsSlowPath: Bool {
        threadsPending || tasksPending
    }

    /// Threads queued or woken (hand-off mode: tasks yield to them).
    var threadsPending: Bool {
        !threadWriters.isEmpty || !threadReaders.isEmpty || wokenThreadWriter || wokenThreadReaders > 0
    }

    var tasksPending: Bool {
        !taskWriters.isEmpty || !taskReaders.isEmpty || wokenTaskWriter || wokenTaskReaders > 0
    }

    var waitingCount: (threads: Int, tasks: Int) {
        (threadWriters.count + threadReaders.count, taskWriters.count + taskReaders.count)
    }

    // MARK: Claims

    /// Whether `party` may take the lock exclusively now. `woken` parties have consumed their reservation first
    /// (``consumeReservation(of:exclusive:)``).
    func mayClaimExclusive(_ party: Party, woken: Bool, held: Held) -> Bool {
        guard !held.exclusive, held.readers == 0 else { return false }
        switch party {
        case .thread:
            if threadsBarge { return true }
            return woken || !threadsPending
        case .task:
            if !threadsBarge, threadsPending { return false }
            return woken || !tasksPending
        }
    }

    /// Whether `party` may take a shared hold now.
    func mayClaimShared(_ party: Party, woken: Bool, held: Held) -> Bool {
        guard !held.exclusive else { return false }
        let threadWriterPending = !threadWriters.isEmpty || wokenThreadWriter
        switch party {
        case .thread:
            return woken || !threadWriterPending
        case .task:
            if threadWriterPending { return false }
            if woken { return true }
            return !threadsPending && taskWriters.isEmpty && !wokenTaskWriter && taskReaders.isEmpty
        }
    }

    /// A woken party is running and gives up its reservation (it then claims, or queues at the front).
    mutating func consumeReservation(of party: Party, exclusive: Bool) {
        switch (party, exclusive) {
        case (.thread, true):
            guard !threadsBarge else { return }
            precondition(wokenThreadWriter, "Switchyard internal error: no thread writer reservation")
            wokenThreadWriter = false
        case (.thread, false):
            precondition(wokenThreadReaders > 0, "Switchyard internal error: no thread reader reservation")
            wokenThreadReaders -= 1
        case (.task, true):
            precondition(wokenTaskWriter, "Switchyard internal error: no task writer reservation")
            wokenTaskWriter = false
        case (.task, false):
            precondition(wokenTaskReaders > 0, "Switchyard internal error: no task reader reservation")
            wokenTaskReaders -= 1
        }
    }

    /// Records which kind of phase is in progress when the first party arrives at an idle slow path: that phase
    /// began on the fast path, unseen.
    mutating func noteFastPathPhase(held: Held) {
        if held.exclusive { lastPhaseWasWrite = true } else if held.readers > 0 { lastPhaseWasWrite = false }
    }

    /// Records a successful claim (for the phase policy).
    mutating func claimed(exclusive: Bool) {
        lastPhaseWasWrite = exclusive
    }

    // MARK: Queueing

    /// Queues a thread; `front` for one that was woken and lost its claim (it keeps its place).
    mutating func append(thread: Thread, exclusive: Bool, front: Bool = false) {
        switch (exclusive, front) {
        case (true, false): threadWriters.append(thread)
        case (true, true): threadWriters.prepend(thread)
        case (false, false): threadReaders.append(thread)
        case (false, true): threadReaders.prepend(thread)
        }
    }

    /// Queues a task or enqueued job; `front` for one that was woken and lost its claim.
    mutating func append(job: Job, exclusive: Bool, front: Bool = false) {
        switch (exclusive, front) {
        case (true, false): taskWriters.append(job)
        case (true, true): taskWriters.prepend(job)
        case (false, false): taskReaders.append(job)
        case (false, true): taskReaders.prepend(job)
        }
    }

    /// For a writer that keeps the lock to run the next enqueued write in place: removes and returns the head
    /// writer if `isInline` accepts it and nothing else is due first (no thread waits, no queued task reader is
    /// owed its read phase, nobody holds a reservation).
    mutating func takeNextInline(where isInline: (Job) -> Bool) -> Job? {
        guard !threadsPending, taskReaders.isEmpty, !wokenTaskWriter, wokenTaskReaders == 0,
            let head = taskWriters.first, isInline(head)
        else { return nil }
        lastPhaseWasWrite = true
        return taskWriters.removeFirst()
    }

    // MARK: Dispatch

    /// Decides whom to wake now that the lock word reads `held`. Called after every change made under the mutex
    /// (a release, a queueing, a claim), so a free lock with waiters always has somebody awake to take it.
    mutating func dispatch(held: Held) -> Wakes {
        var wakes = Wakes()
        guard !held.exclusive else { return wakes }
        if threadsBarge {
            if let thread = threadWriters.popFirst() { wakes.threads.append(thread) }
            if !wokenTaskWriter, let job = taskWriters.popFirst() {
                wokenTaskWriter = true
                wakes.jobs.append(job)
            }
            return wakes
        }
        if !wokenThreadWriter, wokenThreadReaders == 0 {
            Self.wakeNextPhase(
                &threadWriters, &threadReaders, &wokenThreadWriter, &wokenThreadReaders,
                readersHold: held.readers > 0, lastPhaseWasWrite: lastPhaseWasWrite, into: &wakes.threads)
        }
        if !threadsPending, !wokenTaskWriter, wokenTaskReaders == 0 {
            Self.wakeNextPhase(
                &taskWriters, &taskReaders, &wokenTaskWriter, &wokenTaskReaders,
                readersHold: held.readers > 0, lastPhaseWasWrite: lastPhaseWasWrite, into: &wakes.jobs)
        }
        return wakes
    }

    /// Wakes the next phase of one kind of waiters (a writer, or every reader), recording their reservations.
    private static func wakeNextPhase<Waiter>(
        _ writers: inout Deque<Waiter>, _ readers: inout Deque<Waiter>, _ wokenWriter: inout Bool,
        _ wokenReaders: inout Int, readersHold: Bool, lastPhaseWasWrite: Bool, into woken: inout [Waiter]
    ) {
        switch nextPhase(
            writers: writers.count, readers: readers.count, readersHold: readersHold,
            lastPhaseWasWrite: lastPhaseWasWrite)
        {
        case .writer:
            wokenWriter = true
            woken.append(writers.removeFirst())
        case .readers:
            wokenReaders += readers.count
            woken.append(contentsOf: readers)
            readers.removeAll(keepingCapacity: true)
        case .none:
            break
        }
    }

    private enum Phase { case writer, readers, none }

    /// Phase-fair choice among one kind of waiters, given that no writer holds the lock.
    private static func nextPhase(writers: Int, readers: Int, readersHold: Bool, lastPhaseWasWrite: Bool) -> Phase {
        if readersHold {
            // A read phase is on: more readers may join unless a writer waits (it goes when the phase drains).
            return writers == 0 && readers > 0 ? .readers : .none
        }
        if writers > 0, readers == 0 || !lastPhaseWasWrite { return .writer }
        return readers > 0 ? .readers : .none
    }
}
