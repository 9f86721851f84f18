import SwitchyardTesting
import Testing

/// Timeouts, driven by a `ManualClock` (never by real time), and cancellation of waits.
@Suite("CallbackExpectation: timeouts and cancellation", .timeLimit(.minutes(1)))
struct ExpectationTimeoutTests {
    @Test("A timeout fails the running test with the description, the counts and the timeout")
    func timeoutFailsTheTest() async throws {
        let clock = ManualClock()
        let expectation = CallbackExpectation("upload acknowledged", expectedCount: 2)
        expectation.fulfill()
        try await withKnownIssue {
            async let result = expectation.fulfillment(within: .seconds(5), clock: clock)
            try await clock.waitForSleepers(count: 1)
            #expect(clock.nextDeadline == .zero + .seconds(5))
            clock.advance(by: .seconds(5))
            #expect(await result == .timedOut)
        } matching: { issue in
            mentions(
                "Timed out after 5.0 seconds",
                "\"upload acknowledged\"",
                "expected exactly 2 fulfillments",
                "fulfilled 1 time"
            )(issue)
        }
        #expect(clock.sleeperCount == 0)
    }

    @Test("The wait does not time out one instant early")
    func noEarlyTimeout() async throws {
        let clock = ManualClock()
        let expectation = CallbackExpectation("in time")
        async let result = expectation.fulfillment(within: .seconds(10), clock: clock)
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(10) - .nanoseconds(1))
        #expect(clock.sleeperCount == 1, "the wait's timer must still be armed")
        expectation.fulfill()
        #expect(await result == .satisfied)
    }

    @Test("The failure is attributed to the wait's source location")
    func failureSourceLocation() async throws {
        let clock = ManualClock()
        let expectation = CallbackExpectation("located")
        let waitLine = #line + 2
        try await withKnownIssue {
            async let result = expectation.fulfillment(within: .seconds(1), clock: clock)
            try await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(1))
            _ = await result
        } matching: { issue in
            issue.sourceLocation?.line == waitLine
                && issue.sourceLocation?.fileID == #fileID
                && mentions("\"located\"")(issue)
        }
    }

    @Test("A zero timeout checks once and fails if the expectation is not satisfied yet")
    func zeroTimeout() async {
        let expectation = CallbackExpectation("instant")
        await withKnownIssue {
            #expect(await expectation.fulfillment(within: .zero, clock: ManualClock()) == .timedOut)
        } matching: { issue in
            mentions("Timed out after 0.0 seconds", "\"instant\"")(issue)
        }
    }

    @Test("Cancelling the waiting task ends the wait promptly without reporting a failure")
    func cancellationWithManualClock() async throws {
        let clock = ManualClock()
        let expectation = CallbackExpectation("never")
        let waiter = Task { await expectation.fulfillment(within: .seconds(60), clock: clock) }
        try await clock.waitForSleepers(count: 1)
        waiter.cancel()
        #expect(await waiter.value == .cancelled)
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == .zero)
    }

    @Test("Cancelling a wait on the continuous clock ends it long before its hour-long timeout")
    func cancellationWithContinuousClock() async {
        let expectation = CallbackExpectation("never either")
        let waiter = Task { await expectation.fulfillment(within: .seconds(3_600)) }
        waiter.cancel()
        #expect(await waiter.value == .cancelled)
    }

    @Test("A wait started in an already cancelled task returns the decided outcome if there is one")
    func cancelledButSatisfied() async {
        let expectation = CallbackExpectation("done before")
        expectation.fulfill()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await expectation.fulfillment(within: .seconds(60), clock: ManualClock())
        }
        #expect(await waiter.value == .satisfied)
    }

    @Test("A multi-expectation timeout names only the unsatisfied expectations")
    func multiTimeout() async throws {
        let clock = ManualClock()
        let connected = CallbackExpectation("connected")
        let synced = CallbackExpectation("synced", expectedCount: .atLeast(2))
        let closed = CallbackExpectation("closed")
        connected.fulfill()
        synced.fulfill()
        try await withKnownIssue {
            async let result = CallbackExpectation.fulfillment(
                of: [connected, synced, closed],
                within: .seconds(2), clock: clock)
            try await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(3))
            #expect(await result == .timedOut)
        } matching: { issue in
            mentions(
                "2 of 3 expectations",
                "\"synced\" expected at least 2 fulfillments, but it was fulfilled 1 time",
                "\"closed\" expected exactly 1 fulfillment, but it was fulfilled 0 times"
            )(issue) && !mentions("\"connected\"")(issue)
        }
    }
}
