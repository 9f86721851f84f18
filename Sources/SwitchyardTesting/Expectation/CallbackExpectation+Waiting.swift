extension CallbackExpectation {
    /// Waits until this expectation is satisfied, failing the running test if it is not satisfied
    /// within `timeout`.
    ///
    /// - Returns as soon as the count reaches `expectedCount.lowerBound` (immediately if it already
    ///   has), with ``WaitResult/satisfied``.
    /// - On timeout, reports a failure naming the description, the expected and actual counts and
    ///   the timeout, and returns ``WaitResult/timedOut``.
    /// - If the count exceeds `expectedCount.upperBound` (before or during the wait), reports the
    ///   over-fulfillment (unless it was already reported, as at the surplus `fulfill()` on the
    ///   test's task) and returns ``WaitResult/overFulfilled`` at once.
    /// - For an inverted expectation, waits the whole `timeout` and returns ``WaitResult/satisfied``
    ///   if the count stayed below `expectedCount.lowerBound`; as soon as it reaches it, reports a
    ///   failure and returns ``WaitResult/invertedFulfilled``.
    /// - If the waiting task is cancelled, returns promptly with ``WaitResult/cancelled`` (or the
    ///   outcome, if it was already decided) **without** reporting a timeout. How promptly depends on
    ///   `clock.sleep` honoring cancellation; ``ManualClock`` and the standard clocks do.
    ///
    /// Failures are attributed to this call's source location and reported from the calling task;
    /// see "Reporting" on ``CallbackExpectation``.
    ///
    /// ```swift
    /// let clock = ManualClock()
    /// let crashed = CallbackExpectation("crashed", inverted: true)
    /// async let result = crashed.fulfillment(within: .seconds(5), clock: clock)
    /// try await clock.waitForSleepers(count: 1)   // the wait's timer is armed
    /// clock.advance(by: .seconds(5))              // ends the wait, deterministically
    /// #expect(await result == .satisfied)         // not fulfilled during those 5 seconds
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: How long to wait, measured by `clock`. Zero or negative checks once (inverted
    ///     expectations then pass if not fulfilled yet).
    ///   - clock: The clock that measures `timeout`; `ContinuousClock()` by default. Pass a
    ///     ``ManualClock`` to drive timeouts deterministically (the wait then registers one sleeper
    ///     on it).
    ///   - fileID: The file ID of the call site; leave the default.
    ///   - filePath: The file path of the call site; leave the default.
    ///   - line: The line of the call site; leave the default.
    ///   - column: The column of the call site; leave the default.
    /// - Returns: How the wait ended; ``WaitResult/isSuccess`` tells whether it passed.
    @discardableResult
    public func fulfillment(
        within timeout: Duration,
        clock: some Clock<Duration> = ContinuousClock(),
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> WaitResult {
        await Self.wait(
            for: [self], within: timeout, enforceOrder: false, clock: clock,
            at: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// Waits until every expectation in `expectations` is satisfied, failing the running test if
    /// they are not all satisfied within `timeout`.
    ///
    /// The rules of ``fulfillment(within:clock:fileID:filePath:line:column:)`` apply to each
    /// expectation, plus:
    /// - The wait returns as soon as every regular expectation is satisfied, unless the list
    ///   contains an inverted expectation: then it lasts the whole timeout (inverted expectations
    ///   must stay unfulfilled for all of it) and fails as soon as one of them is fulfilled.
    /// - The timeout message lists every unsatisfied expectation with its expected and actual count.
    /// - With `enforceOrder: true`, the regular expectations must be *satisfied* (reach their
    ///   `expectedCount.lowerBound`) in the listed order. The moment each one was satisfied is
    ///   recorded when it happens, even before the wait starts. As soon as one is satisfied while
    ///   an earlier-listed one is not, or was satisfied after it, an order failure naming both is
    ///   reported and the wait returns ``WaitResult/outOfOrder``. Inverted expectations, and those
    ///   whose expected count starts at 0 (satisfied from the start, such as `.atMost(2)`), are
    ///   ignored for ordering; they are still checked for over-fulfilment.
    /// - Every problem found is reported (one issue each); the returned value is the first one in
    ///   ``WaitResult`` declaration order.
    ///
    /// An empty list is satisfied immediately. Several waits may run concurrently on the same
    /// expectations.
    ///
    /// - Parameters:
    ///   - expectations: The expectations to wait for, in the required order if `enforceOrder`.
    ///   - timeout: How long to wait for all of them together, measured by `clock`.
    ///   - enforceOrder: Whether the expectations must be satisfied in the listed order.
    ///   - clock: The clock that measures `timeout`; `ContinuousClock()` by default.
    ///   - fileID: The file ID of the call site; leave the default.
    ///   - filePath: The file path of the call site; leave the default.
    ///   - line: The line of the call site; leave the default.
    ///   - column: The column of the call site; leave the default.
    /// - Returns: How the wait ended; ``WaitResult/isSuccess`` tells whether it passed.
    @discardableResult
    public static func fulfillment(
        of expectations: [CallbackExpectation],
        within timeout: Duration,
        enforceOrder: Bool = false,
        clock: some Clock<Duration> = ContinuousClock(),
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> WaitResult {
        await wait(
            for: expectations, within: timeout, enforceOrder: enforceOrder, clock: clock,
            at: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    // MARK: - Implementation

    /// Why the suspended part of a wait ended.
    private enum WakeReason: Sendable {
        /// An expectation changed and the outcome is decided.
        case conditionMet
        /// The timeout elapsed.
        case deadline
        /// The waiting task was cancelled.
        case cancelled
    }

    /// The shared implementation of both public waits.
    ///
    /// Registers an observer on every expectation *before* the first check, so no `fulfill` can be
    /// missed between the check and the suspension; the observer re-evaluates the whole list and
    /// fires a ``WaitSignal`` once the outcome is decided. The suspension races that signal against
    /// `clock.sleep(until: deadline)` in a task group; the loser is cancelled (which removes its
    /// sleeper from a ``ManualClock``). Observers are removed *before* the final evaluation, so an
    /// over-fulfillment is seen either by this evaluation or by `fulfill` (which then handles it
    /// itself): it cannot fall between the two.
    private static func wait<C: Clock>(
        for expectations: [CallbackExpectation],
        within timeout: Duration,
        enforceOrder: Bool,
        clock: C,
        at location: FailureLocation
    ) async -> WaitResult where C.Duration == Duration {
        let deadline = clock.now.advanced(by: timeout)
        let signal = WaitSignal()
        let tokens = expectations.map { expectation in
            expectation.addObserver {
                if !signal.hasFired, WaitEvaluation(expectations, enforceOrder: enforceOrder).isDecisive {
                    signal.fire(.conditionMet)
                }
            }
        }

        let reason: WakeReason
        if WaitEvaluation(expectations, enforceOrder: enforceOrder).isDecisive {
            reason = .conditionMet
        } else if Task.isCancelled {
            reason = .cancelled
        } else {
            reason = await race(signal, against: deadline, on: clock)
        }

        for (expectation, token) in zip(expectations, tokens) {
            expectation.removeObserver(token)
        }
        return conclude(
            WaitEvaluation(expectations, enforceOrder: enforceOrder),
            deadlineReached: reason == .deadline, timeout: timeout, at: location
        )
    }

    /// Suspends until `signal` fires, `deadline` passes on `clock`, or the task is cancelled.
    private static func race<C: Clock>(
        _ signal: WaitSignal,
        against deadline: C.Instant,
        on clock: C
    ) async -> WakeReason {
        await withTaskGroup(of: WakeReason.self) { group in
            group.addTask {
                switch await signal.wait() {
                case .conditionMet: .conditionMet
                case .cancelled: .cancelled
                }
            }
            group.addTask {
                do {
                    try await clock.sleep(until: deadline, tolerance: nil)
                    return .deadline
                } catch {
                    // A clock may throw something other than CancellationError; only a cancelled
                    // task means the wait was abandoned.
                    return Task.isCancelled ? .cancelled : .deadline
                }
            }
            let first = await group.next() ?? .cancelled
            group.cancelAll()
            return first
        }
    }

    /// Turns the final evaluation into a result, reporting every failure found.
    private static func conclude(
        _ evaluation: WaitEvaluation,
        deadlineReached: Bool,
        timeout: Duration,
        at location: FailureLocation
    ) -> WaitResult {
        var result: WaitResult?
        for index in evaluation.overFulfilled {
            result = result ?? .overFulfilled
            let expectation = evaluation.expectations[index]
            if expectation.claimOverFulfillmentReport() {
                let message = expectation.overFulfilledMessage(count: evaluation.snapshots[index].count)
                TestFailureReporter.record(message, at: location)
            }
        }
        for index in evaluation.invertedFulfilled {
            result = result ?? .invertedFulfilled
            TestFailureReporter.record(evaluation.invertedMessage(index, timeout: timeout), at: location)
        }
        if let message = evaluation.orderMessage() {
            result = result ?? .outOfOrder
            TestFailureReporter.record(message, at: location)
        }
        if let result {
            return result
        }
        if evaluation.isSuccess(deadlineReached: deadlineReached) {
            return .satisfied
        }
        if deadlineReached {
            TestFailureReporter.record(evaluation.timeoutMessage(timeout: timeout), at: location)
            return .timedOut
        }
        return .cancelled
    }
}
