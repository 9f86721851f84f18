import Dispatch
import SwitchyardTesting
import Testing

/// Satisfying expectations from tasks and threads, and what an expectation reports about itself.
///
/// Waits that must succeed use `ContinuousClock` with a generous timeout as a safety net only:
/// they return as soon as the expectation is satisfied. Waits whose *timing* matters use a
/// `ManualClock` that the test never advances, which proves that no time had to pass.
@Suite("CallbackExpectation: satisfaction", .timeLimit(.minutes(1)))
struct ExpectationTests {
    @Test("An already satisfied expectation returns at once, without touching the clock")
    func alreadySatisfied() async {
        let clock = ManualClock()
        let expectation = CallbackExpectation("done")
        expectation.fulfill()
        let result = await expectation.fulfillment(within: .seconds(1), clock: clock)
        #expect(result == .satisfied)
        #expect(result.isSuccess)
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == .zero)
    }

    @Test("A fulfill that arrives while the wait is suspended ends the wait without any time passing")
    func lateFulfillFromDetachedTask() async throws {
        let clock = ManualClock()
        let expectation = CallbackExpectation("late callback")
        let fulfiller = Task.detached {
            try await clock.waitForSleepers(count: 1)  // the wait's timer is armed: it is suspended
            expectation.fulfill()
        }
        let result = await expectation.fulfillment(within: .seconds(1), clock: clock)
        #expect(result == .satisfied)
        #expect(clock.now == .zero)
        #expect(clock.sleeperCount == 0, "the wait's timer must be cancelled and removed")
        try await fulfiller.value
    }

    @Test("A fulfill from a Dispatch thread ends a suspended wait")
    func lateFulfillFromDispatchThread() async throws {
        let clock = ManualClock()
        let expectation = CallbackExpectation("dispatch callback")
        async let result = expectation.fulfillment(within: .seconds(1), clock: clock)
        try await clock.waitForSleepers(count: 1)
        DispatchQueue.global().async { expectation.fulfill() }
        #expect(await result == .satisfied)
        #expect(clock.now == .zero)
    }

    @Test("Many detached tasks fulfilling concurrently satisfy an exact count")
    func detachedTasks() async {
        let expectation = CallbackExpectation("detached", expectedCount: 50)
        for _ in 0..<50 {
            Task.detached { expectation.fulfill() }
        }
        #expect(await expectation.fulfillment(within: .seconds(30)) == .satisfied)
        #expect(expectation.fulfillmentCount == 50)
    }

    @Test("Dispatch threads fulfilling concurrently satisfy an exact count")
    func dispatchThreads() async {
        let expectation = CallbackExpectation("dispatch", expectedCount: 200)
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: 100) { _ in
                expectation.fulfill()
            }
        }
        for _ in 0..<50 {
            DispatchQueue.global().async { expectation.fulfill(2) }
        }
        #expect(await expectation.fulfillment(within: .seconds(30)) == .satisfied)
        #expect(expectation.fulfillmentCount == 200)
    }

    @Test("A range count is satisfied at its lower bound and stays satisfied up to its upper bound")
    func rangeCounts() async {
        let clock = ManualClock()
        let expectation = CallbackExpectation("chunks", expectedCount: 2...4)
        expectation.fulfill()
        #expect(!expectation.isSatisfied)
        async let result = expectation.fulfillment(within: .seconds(1), clock: clock)
        await onDispatchThread { expectation.fulfill() }
        #expect(await result == .satisfied)
        expectation.fulfill(2)
        #expect(expectation.isSatisfied)
        #expect(await expectation.fulfillment(within: .zero, clock: clock) == .satisfied)
    }

    @Test("atLeast is never over-fulfilled")
    func atLeastCounts() async {
        let expectation = CallbackExpectation("progress", expectedCount: 3...)
        expectation.fulfill(1_000)
        #expect(await expectation.fulfillment(within: .zero, clock: ManualClock()) == .satisfied)
        #expect(expectation.expectedCount == .atLeast(3))
    }

    @Test("fulfill(0) changes nothing")
    func fulfillZero() {
        let expectation = CallbackExpectation("noop")
        expectation.fulfill(0)
        #expect(expectation.fulfillmentCount == 0)
    }

    @Test("The description shows the description and the counts")
    func description() {
        let expectation = CallbackExpectation("download finished", expectedCount: 3)
        expectation.fulfill(2)
        #expect(
            expectation.description
                == "CallbackExpectation \"download finished\": fulfilled 2 times, expected exactly 3 fulfillments"
        )
        let inverted = CallbackExpectation("no crash", inverted: true)
        #expect(inverted.description == "Inverted expectation \"no crash\": fulfilled 0 times, must not be fulfilled")
        #expect(inverted.isInverted)
        #expect(inverted.isSatisfied)
        #expect(inverted.expectationDescription == "no crash")
    }

    @Test("An empty list of expectations is satisfied immediately")
    func emptyList() async {
        #expect(await CallbackExpectation.fulfillment(of: [], within: .seconds(1), clock: ManualClock()) == .satisfied)
    }
}
