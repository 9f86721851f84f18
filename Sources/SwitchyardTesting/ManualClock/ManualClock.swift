/// A `Clock` whose time only moves when the test says so, for deterministic tests of timeouts,
/// delays, retries and schedules.
///
/// Code under test takes `some Clock<Duration>` and sleeps on it; the test passes a `ManualClock`,
/// waits until the code is asleep with ``waitForSleepers(count:)`` and moves time forward with
/// ``advance(by:fileID:filePath:line:column:)``. No real time passes and nothing polls.
///
/// ```swift
/// @Test func retriesAfterOneSecond() async throws {
///     let clock = ManualClock()
///     let retried = CallbackExpectation("retried")
///     let task = Task {
///         try await clock.sleep(for: .seconds(1))   // code under test
///         retried.fulfill()
///     }
///     try await clock.waitForSleepers(count: 1)      // it is asleep now
///     clock.advance(by: .milliseconds(999))
///     #expect(clock.sleeperCount == 1)               // not yet due
///     clock.advance(by: .milliseconds(1))
///     #expect(clock.sleeperCount == 0)               // resumed, exactly at its deadline
///     await retried.fulfillment(within: .seconds(5))
///     try await task.value
/// }
/// ```
///
/// ## Semantics
/// - ``now`` starts at the instant given to ``init(now:)`` (``Instant/zero`` by default) and only
///   changes in `advance`. It never goes backwards.
/// - ``sleep(until:tolerance:)`` returns immediately if the deadline is at or before ``now``;
///   otherwise it registers a *sleeper* and suspends until an `advance` reaches the deadline.
///   Tolerance is ignored.
/// - `advance` sets ``now`` to the target, then resumes every sleeper whose deadline is at or
///   before the target, in deadline order (FIFO among equal deadlines). When `advance` returns,
///   exactly those sleepers have been removed and their continuations resumed; every later sleeper
///   is still registered. *Resumed* means the continuation was resumed: the sleeping task runs
///   afterwards, on its own executor, concurrently with the caller of `advance`; use an
///   ``CallbackExpectation`` (or the task's value) to wait for what it does next.
/// - A resumed sleeper observes `now >= deadline`: after a single `advance` past several deadlines,
///   every one of them observes the target of that `advance` (or a later instant, if the clock was
///   advanced again before it ran), not its own deadline. Advance in steps (for example to
///   ``nextDeadline``) when the code under test computes its next deadline from `now`. `advance`
///   does not step `now` through each deadline itself because the resumed tasks run later anyway,
///   so they could not observe the intermediate values.
/// - A sleeper whose task is cancelled is removed and throws `CancellationError` promptly, without
///   any `advance`. A task that is already cancelled throws from `sleep` without registering.
///
/// ## Thread safety and complexity
/// Every member is safe to call from any thread or task. State lives behind one
/// `Synchronization.Mutex` (wrapped so ThreadSanitizer understands it), which is
/// never held while resuming a continuation. Sleepers are kept in a binary heap: registering or
/// cancelling one is O(log n), an `advance` resuming k of n sleepers is O(k log n), and
/// ``sleeperCount`` is O(1).
public final class ManualClock: Clock, Sendable {
    private typealias Continuation = ManualClockState.Continuation

    /// All mutable state; see ``ManualClockState``.
    private let state: LockedState<ManualClockState>

    /// Creates a clock whose time is `now` (``Instant/zero`` by default) until it is advanced.
    public init(now: Instant = .zero) {
        self.state = LockedState(ManualClockState(now: now))
    }

    /// The current instant. Changes only when the clock is advanced.
    public var now: Instant {
        state.withLock { $0.now }
    }

    /// Always `.zero`: the clock resolves every instant exactly.
    public var minimumResolution: Swift.Duration {
        .zero
    }

    /// The number of sleepers currently registered (suspended in `sleep` and not yet resumed or
    /// cancelled). O(1).
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// The earliest deadline among the registered sleepers, or `nil` if none is registered. O(1).
    public var nextDeadline: Instant? {
        state.withLock { $0.sleepers.first?.deadline }
    }

    /// Suspends until the clock is advanced to `deadline` or later.
    ///
    /// Returns immediately if `deadline <= now`. Otherwise registers a sleeper (waking
    /// ``waitForSleepers(count:)`` callers it satisfies) and suspends until an `advance` reaches
    /// `deadline`. O(log n) for n registered sleepers.
    ///
    /// - Parameters:
    ///   - deadline: The instant to sleep until.
    ///   - tolerance: Ignored; a manual clock is exact.
    /// - Throws: `CancellationError` if the task is cancelled before or while sleeping; the sleeper
    ///   is then removed at once.
    public func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        try Task.checkCancellation()
        guard let id = state.withLock({ $0.beginSleep(until: deadline) }) else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Continuation) in
                let (registration, countWaiters) = state.withLock {
                    $0.registerSleep(id: id, deadline: deadline, continuation: continuation)
                }
                Self.complete(continuation, after: registration)
                for waiter in countWaiters {
                    waiter.resume()
                }
            }
        } onCancel: {
            state.withLock { $0.cancelSleep(id: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` and resumes every sleeper that is then due.
    ///
    /// Equivalent to `advance(to: now + duration)`, computed atomically. See the type's
    /// documentation for ordering and what resumed sleepers observe. Synchronous: callable from any
    /// thread; it never suspends.
    ///
    /// A negative `duration` is reported as a test failure at the call site and leaves the clock
    /// unchanged. `advance(by: .zero)` resumes nothing (no sleeper is registered at or before
    /// ``now``).
    ///
    /// - Parameters:
    ///   - duration: How far to move time; must not be negative.
    ///   - fileID: The file ID of the call site; leave the default.
    ///   - filePath: The file path of the call site; leave the default.
    ///   - line: The line of the call site; leave the default.
    ///   - column: The column of the call site; leave the default.
    public func advance(
        by duration: Swift.Duration,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        guard duration >= .zero else {
            TestFailureReporter.record("ManualClock cannot advance by a negative duration (\(duration)).", at: location)
            return
        }
        finishAdvance(state.withLock { $0.advance(to: $0.now.advanced(by: duration)) }, at: location)
    }

    /// Moves time forward to `instant` and resumes every sleeper whose deadline is at or before it.
    ///
    /// When this returns, ``now`` is `instant` (unless another thread advanced it further), the due
    /// sleepers have been removed and their continuations resumed in deadline order (FIFO among
    /// equal deadlines), and every other sleeper is still registered. Synchronous: callable from
    /// any thread; it never suspends. O(k log n) for k due sleepers out of n.
    ///
    /// An `instant` before ``now`` is reported as a test failure at the call site and leaves the
    /// clock unchanged; `instant == now` does nothing.
    ///
    /// - Parameters:
    ///   - instant: The new current instant; must not be before ``now``.
    ///   - fileID: The file ID of the call site; leave the default.
    ///   - filePath: The file path of the call site; leave the default.
    ///   - line: The line of the call site; leave the default.
    ///   - column: The column of the call site; leave the default.
    public func advance(
        to instant: Instant,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        finishAdvance(
            state.withLock { $0.advance(to: instant) },
            at: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Resumes the sleepers an advance made due (outside the lock), or reports a backwards move.
    private func finishAdvance(
        _ outcome: Result<[SleeperHeap.Sleeper], ManualClockState.BackwardsMove>,
        at location: FailureLocation
    ) {
        switch outcome {
        case .success(let due):
            for sleeper in due {
                sleeper.continuation.resume()
            }
        case .failure(let move):
            TestFailureReporter.record(
                "ManualClock cannot move backwards from \(move.now) to \(move.target).", at: location
            )
        }
    }

    /// Suspends until at least `count` sleepers are registered on this clock.
    ///
    /// Returns immediately if ``sleeperCount`` is already at least `count`. Otherwise the caller is
    /// resumed by the `sleep` call that registers the `count`-th sleeper: no polling, no
    /// `Task.yield` loops. Sleepers resumed or cancelled before this call do not count.
    ///
    /// Typical use: start the code under test, `try await clock.waitForSleepers(count: 1)` to know
    /// that it reached its `sleep`, then `advance`. Note that a wait on a ``CallbackExpectation`` with
    /// `clock: thisClock` registers a sleeper too. If the code never sleeps, this never returns;
    /// bound such tests with Swift Testing's `.timeLimit` trait.
    ///
    /// - Parameter count: The number of registered sleepers to wait for.
    /// - Throws: `CancellationError` if the task is cancelled before enough sleepers register.
    public func waitForSleepers(count: Int) async throws {
        try Task.checkCancellation()
        guard let id = state.withLock({ $0.beginCountWait(count: count) }) else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: Continuation) in
                let registration = state.withLock {
                    $0.registerCountWait(id: id, count: count, continuation: continuation)
                }
                Self.complete(continuation, after: registration)
            }
        } onCancel: {
            state.withLock { $0.cancelCountWait(id: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Resumes `continuation` now if its registration says so.
    private static func complete(_ continuation: Continuation, after registration: ManualClockState.Registration) {
        switch registration {
        case .registered: break
        case .due: continuation.resume()
        case .cancelled: continuation.resume(throwing: CancellationError())
        }
    }
}
