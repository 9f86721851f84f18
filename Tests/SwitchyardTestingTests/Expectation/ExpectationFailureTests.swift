import SwitchyardTesting
import Synchronization
import Testing

/// Over-fulfillment and inverted expectations.
@Suite("CallbackExpectation: over-fulfillment and inverted expectations", .timeLimit(.minutes(1)))
struct ExpectationFailureTests {
    // MARK: Over-fulfillment

    @Test("Over-fulfillment during a wait ends the wait and is reported")
    func overFulfilledDuringWait() async throws {
        let clock = ManualClock()
        let expectation = CallbackExpectation("saved", expectedCount: 2)
        try await withKnownIssue {
            async let result = expectation.fulfillment(within: .seconds(1), clock: clock)
            try await clock.waitForSleepers(count: 1)
            await onDispatchThread { expectation.fulfill(3) }
            #expect(await result == .overFulfilled)
        } matching: { issue in
            mentions("\"saved\" was over-fulfilled", "expected exactly 2 fulfillments", "fulfilled 3 times")(issue)
        }
        #expect(clock.now == .zero)
    }

    @Test("Over-fulfillment in the test's context after the wait returned is reported immediately, once")
    func overFulfilledAfterWaitInTestContext() async {
        let clock = ManualClock()
        let expectation = CallbackExpectation("notified")
        expectation.fulfill()
        #expect(await expectation.fulfillment(within: .seconds(1), clock: clock) == .satisfied)
        let fulfillLine = #line + 2
        withKnownIssue {
            expectation.fulfill()  // Test.current != nil here: recorded right away, at this line
        } matching: { issue in
            mentions("\"notified\" was over-fulfilled", "fulfilled 2 times")(issue)
                && issue.sourceLocation?.line == fulfillLine
        }
        expectation.fulfill()  // already reported: not reported again
        // A later wait returns the failure without recording a second issue (no withKnownIssue).
        #expect(await expectation.fulfillment(within: .zero, clock: clock) == .overFulfilled)
    }

    @Test("A surplus fulfill before any wait is reported at that fulfill; the wait then returns overFulfilled")
    func overFulfilledBeforeWait() async {
        let expectation = CallbackExpectation("twice")
        expectation.fulfill()
        let surplusLine = #line + 2
        withKnownIssue {
            expectation.fulfill()
        } matching: { issue in
            mentions("\"twice\" was over-fulfilled", "fulfilled 2 times")(issue)
                && issue.sourceLocation?.line == surplusLine
        }
        #expect(await expectation.fulfillment(within: .zero, clock: ManualClock()) == .overFulfilled)
    }

    @Test("A structured child task is a test context too: its over-fulfillment is recorded at once")
    func overFulfilledInChildTask() async {
        let expectation = CallbackExpectation("child")
        expectation.fulfill()
        await withKnownIssue {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { expectation.fulfill() }
            }
        } matching: { issue in
            mentions("\"child\" was over-fulfilled")(issue)
        }
    }

    @Test("Over-fulfillment outside any test context after the wait is reported at the next wait")
    func overFulfilledAfterWaitOutsideTestContext() async {
        let clock = ManualClock()
        let expectation = CallbackExpectation("late extra")
        expectation.fulfill()
        #expect(await expectation.fulfillment(within: .seconds(1), clock: clock) == .satisfied)
        await Task.detached { expectation.fulfill() }.value  // detached: Test.current == nil
        await onDispatchThread { expectation.fulfill() }
        let waitLine = #line + 2
        await withKnownIssue {
            #expect(await expectation.fulfillment(within: .zero, clock: clock) == .overFulfilled)
        } matching: { issue in
            mentions("\"late extra\" was over-fulfilled", "fulfilled 3 times")(issue)
                && issue.sourceLocation?.line == waitLine
        }
    }

    @Test("Unreported over-fulfillment is reported when the expectation is released in the test")
    func overFulfilledReportedAtDeinit() async {
        let holder = Holder(CallbackExpectation("dropped"))
        await onDispatchThread {
            // The only strong reference taken here ends before this closure returns.
            holder.expectation?.fulfill(2)
        }
        withKnownIssue {
            holder.release()  // the last reference: deinit runs here, in the test's context
        } matching: { issue in
            mentions("\"dropped\" was over-fulfilled", "deallocated")(issue)
        }
    }

    // MARK: Inverted expectations

    @Test("An unfulfilled inverted expectation passes after the whole timeout")
    func invertedUnfulfilled() async throws {
        let clock = ManualClock()
        let crash = CallbackExpectation("crashed", inverted: true)
        async let result = crash.fulfillment(within: .seconds(3), clock: clock)
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        #expect(clock.sleeperCount == 1, "an inverted wait lasts the whole timeout")
        clock.advance(by: .seconds(1))
        #expect(await result == .satisfied)
    }

    @Test("Fulfilling an inverted expectation during the wait fails it at once")
    func invertedFulfilledDuringWait() async throws {
        let clock = ManualClock()
        let crash = CallbackExpectation("crashed", inverted: true)
        try await withKnownIssue {
            async let result = crash.fulfillment(within: .seconds(3), clock: clock)
            try await clock.waitForSleepers(count: 1)
            await onDispatchThread { crash.fulfill() }
            #expect(await result == .invertedFulfilled)  // without advancing the clock
        } matching: { issue in
            mentions(
                "Inverted expectation \"crashed\" was fulfilled 1 time during a wait of 3.0 seconds, but it must not be fulfilled."
            )(issue)
        }
        #expect(clock.now == .zero)
    }

    @Test("An inverted expectation fulfilled before the wait fails without waiting")
    func invertedFulfilledBeforeWait() async {
        let retried = CallbackExpectation("retried", inverted: true)
        retried.fulfill()
        await withKnownIssue {
            #expect(await retried.fulfillment(within: .seconds(60), clock: ManualClock()) == .invertedFulfilled)
        } matching: { issue in
            mentions("Inverted expectation \"retried\"")(issue)
        }
    }

    @Test("An inverted expectation with a count tolerates fulfillments below that count")
    func invertedWithCount() async throws {
        let clock = ManualClock()
        let warnings = CallbackExpectation("three warnings", expectedCount: 3, inverted: true)
        warnings.fulfill(2)
        async let result = warnings.fulfillment(within: .seconds(1), clock: clock)
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        #expect(await result == .satisfied)
        warnings.fulfill()  // no wait is running: not reported
        await withKnownIssue {
            #expect(await warnings.fulfillment(within: .seconds(1), clock: clock) == .invertedFulfilled)
        } matching: { issue in
            mentions("\"three warnings\" was fulfilled 3 times", "must be fulfilled fewer than 3 times")(issue)
        }
    }
}

/// Holds the only strong reference to an expectation, so a test controls where it is released.
private final class Holder: Sendable {
    private let storage: Mutex<CallbackExpectation?>

    init(_ expectation: CallbackExpectation) {
        storage = Mutex(expectation)
    }

    var expectation: CallbackExpectation? {
        storage.withLock { $0 }
    }

    func release() {
        let expectation = storage.withLock { storage in
            defer { storage = nil }
            return storage
        }
        _ = expectation  // released at the end of this scope, on the calling thread
    }
}
