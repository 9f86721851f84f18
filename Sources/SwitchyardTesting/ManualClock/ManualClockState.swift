/// The mutable state of a ``ManualClock``, and the bookkeeping of its suspensions.
///
/// Every method runs under the clock's lock and never resumes a continuation itself: methods return
/// the continuations to resume, and the clock resumes them after releasing the lock.
///
/// Both kinds of suspension (`sleep` and `waitForSleepers`) follow the same protocol, which makes
/// cancellation race-free: *begin* allocates an id before the task suspends, *register* stores the
/// continuation once the task is suspending, and *cancel* (from the task's cancellation handler,
/// which may run before, during or after registration) either marks the not-yet-registered id as
/// cancelled, or takes the registered continuation back, or finds nothing because it was already
/// resumed.
struct ManualClockState {
    typealias Continuation = CheckedContinuation<Void, any Error>

    /// What *register* decided.
    enum Registration {
        /// The continuation is stored; someone resumes it later.
        case registered
        /// Resume the continuation now: the condition already holds.
        case due
        /// Resume the continuation now with `CancellationError`.
        case cancelled
    }

    /// A `waitForSleepers` call.
    enum CountWaiter {
        /// Not suspended yet; `cancelled` records a cancellation that arrived meanwhile.
        case unregistered(cancelled: Bool)
        /// Suspended until at least `count` sleepers are registered.
        case waiting(count: Int, continuation: Continuation)
    }

    /// An attempt to move the clock backwards.
    struct BackwardsMove: Error {
        let now: ManualClock.Instant
        let target: ManualClock.Instant
    }

    /// The current instant.
    private(set) var now: ManualClock.Instant
    /// Registered sleepers.
    private(set) var sleepers = SleeperHeap()
    /// `sleep` calls that have an id but are not registered yet, mapped to whether they were
    /// cancelled meanwhile.
    private var unregisteredSleeps: [UInt64: Bool] = [:]
    /// `waitForSleepers` calls, by id.
    private var countWaiters: [UInt64: CountWaiter] = [:]
    /// The last id handed out.
    private var lastID: UInt64 = 0

    init(now: ManualClock.Instant) {
        self.now = now
    }

    private mutating func makeID() -> UInt64 {
        lastID += 1
        return lastID
    }

    // MARK: - Sleepers

    /// Begins a `sleep(until: deadline)`: returns its id, or `nil` if `deadline` is not after `now`.
    mutating func beginSleep(until deadline: ManualClock.Instant) -> UInt64? {
        guard deadline > now else { return nil }
        let id = makeID()
        unregisteredSleeps[id] = false
        return id
    }

    /// Registers the sleeper `id`, unless it was cancelled or became due meanwhile. Also returns the
    /// `waitForSleepers` continuations that the new sleeper count satisfies.
    mutating func registerSleep(
        id: UInt64,
        deadline: ManualClock.Instant,
        continuation: Continuation
    ) -> (Registration, [Continuation]) {
        let cancelled = unregisteredSleeps.removeValue(forKey: id) ?? true
        if cancelled {
            return (.cancelled, [])
        }
        if deadline <= now {
            return (.due, [])
        }
        sleepers.insert(id: id, deadline: deadline, continuation: continuation)
        return (.registered, takeSatisfiedCountWaiters())
    }

    /// Cancels the sleeper `id`; returns its continuation if it was registered.
    mutating func cancelSleep(id: UInt64) -> Continuation? {
        if unregisteredSleeps[id] != nil {
            unregisteredSleeps[id] = true  // registerSleep will report the cancellation
            return nil
        }
        return sleepers.remove(id: id)?.continuation  // nil: already resumed
    }

    /// Sets `now` to `target` and removes the sleepers due by then, in deadline order.
    mutating func advance(to target: ManualClock.Instant) -> Result<[SleeperHeap.Sleeper], BackwardsMove> {
        guard target >= now else {
            return .failure(BackwardsMove(now: now, target: target))
        }
        now = target
        return .success(sleepers.popDue(upTo: target))
    }

    // MARK: - Waiting for sleepers

    /// Begins a `waitForSleepers(count:)`: returns its id, or `nil` if enough sleepers are
    /// registered already.
    mutating func beginCountWait(count: Int) -> UInt64? {
        guard sleepers.count < count else { return nil }
        let id = makeID()
        countWaiters[id] = .unregistered(cancelled: false)
        return id
    }

    /// Registers the count waiter `id`, unless it was cancelled or satisfied meanwhile.
    mutating func registerCountWait(id: UInt64, count: Int, continuation: Continuation) -> Registration {
        guard case .unregistered(let cancelled) = countWaiters[id], !cancelled else {
            countWaiters[id] = nil
            return .cancelled
        }
        if sleepers.count >= count {
            countWaiters[id] = nil
            return .due
        }
        countWaiters[id] = .waiting(count: count, continuation: continuation)
        return .registered
    }

    /// Cancels the count waiter `id`; returns its continuation if it was registered.
    mutating func cancelCountWait(id: UInt64) -> Continuation? {
        switch countWaiters[id] {
        case .unregistered:
            countWaiters[id] = .unregistered(cancelled: true)  // registerCountWait will report it
            return nil
        case .waiting(_, let continuation):
            countWaiters[id] = nil
            return continuation
        case nil:
            return nil  // already resumed
        }
    }

    /// Removes and returns the count waiters that the current sleeper count satisfies. O(w) for w
    /// waiting `waitForSleepers` calls (a handful in practice).
    private mutating func takeSatisfiedCountWaiters() -> [Continuation] {
        var satisfied: [Continuation] = []
        for (id, waiter) in countWaiters {
            if case .waiting(let count, let continuation) = waiter, count <= sleepers.count {
                countWaiters[id] = nil
                satisfied.append(continuation)
            }
        }
        return satisfied
    }
}
