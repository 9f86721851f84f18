import SwitchyardTesting
import Testing

/// Waiting on several expectations, with and without order enforcement.
@Suite("CallbackExpectation: waiting on several", .timeLimit(.minutes(1)))
struct ExpectationOrderTests {
    @Test("Expectations satisfied in the listed order pass with enforceOrder")
    func inOrder() async throws {
        let clock = ManualClock()
        let opened = CallbackExpectation("opened")
        let written = CallbackExpectation("written", expectedCount: 2...3)
        let closed = CallbackExpectation("closed")
        async let result = CallbackExpectation.fulfillment(
            of: [opened, written, closed], within: .seconds(1), enforceOrder: true, clock: clock
        )
        try await clock.waitForSleepers(count: 1)
        await onDispatchThread {
            opened.fulfill()
            written.fulfill()
            written.fulfill()
            closed.fulfill()
            written.fulfill()  // still within 2...3: the order only concerns reaching the lower bound
        }
        #expect(await result == .satisfied)
        #expect(clock.now == .zero)
    }

    @Test("Expectations whose count starts at 0 take no part in ordering but are still checked for over-fulfilment")
    func zeroLowerBoundIgnoredForOrder() async throws {
        let clock = ManualClock()
        let request = CallbackExpectation("request sent")
        let retries = CallbackExpectation("retried", expectedCount: 0...2)
        let response = CallbackExpectation("response received")
        async let result = CallbackExpectation.fulfillment(
            of: [request, retries, response], within: .seconds(1), enforceOrder: true, clock: clock
        )
        try await clock.waitForSleepers(count: 1)
        await onDispatchThread {
            request.fulfill()
            response.fulfill()
            retries.fulfill()  // after the later one: no order applies to it
        }
        #expect(await result == .satisfied)
    }

    @Test("Without enforceOrder, any order passes")
    func anyOrder() async throws {
        let clock = ManualClock()
        let first = CallbackExpectation("first")
        let second = CallbackExpectation("second")
        let third = CallbackExpectation("third")
        async let result = CallbackExpectation.fulfillment(
            of: [first, second, third],
            within: .seconds(1), clock: clock)
        try await clock.waitForSleepers(count: 1)
        third.fulfill()
        Task.detached { first.fulfill() }
        await onDispatchThread { second.fulfill() }
        #expect(await result == .satisfied)
    }

    @Test("Satisfying a later expectation before an earlier one is reported as an order violation")
    func orderViolationDuringWait() async throws {
        let clock = ManualClock()
        let request = CallbackExpectation("request sent")
        let response = CallbackExpectation("response received")
        try await withKnownIssue {
            async let result = CallbackExpectation.fulfillment(
                of: [request, response], within: .seconds(1), enforceOrder: true, clock: clock
            )
            try await clock.waitForSleepers(count: 1)
            response.fulfill()
            #expect(await result == .outOfOrder)  // at once: no need to wait for "request sent"
        } matching: { issue in
            mentions(
                "not satisfied in the required order",
                "\"response received\" was satisfied while \"request sent\" was not"
            )(issue)
        }
        #expect(clock.now == .zero)
    }

    @Test("The satisfaction order is recorded even before the wait starts")
    func orderViolationBeforeWait() async {
        let a = CallbackExpectation("a")
        let b = CallbackExpectation("b", expectedCount: 2)
        let c = CallbackExpectation("c")
        a.fulfill()
        b.fulfill()
        c.fulfill()
        b.fulfill()  // b reaches its required count after c
        await withKnownIssue {
            let result = await CallbackExpectation.fulfillment(
                of: [a, b, c], within: .seconds(1), enforceOrder: true, clock: ManualClock()
            )
            #expect(result == .outOfOrder)
        } matching: { issue in
            mentions("\"c\" was satisfied before \"b\"", "actual order so far: \"a\", \"c\", \"b\"")(issue)
        }
        // The same expectations in the order they were satisfied pass.
        #expect(
            await CallbackExpectation.fulfillment(
                of: [a, c, b],
                within: .zero, enforceOrder: true, clock: ManualClock())
                == .satisfied
        )
    }

    @Test("An inverted expectation in the list makes the wait last the whole timeout")
    func mixedWithInverted() async throws {
        let clock = ManualClock()
        let saved = CallbackExpectation("saved")
        let failed = CallbackExpectation("failed", inverted: true)
        saved.fulfill()
        async let result = CallbackExpectation.fulfillment(of: [saved, failed], within: .seconds(2), clock: clock)
        try await clock.waitForSleepers(count: 1)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(2))
        #expect(await result == .satisfied)
    }

    @Test("Every problem is reported; the result is the first kind")
    func severalProblems() async {
        let over = CallbackExpectation("over")
        let inverted = CallbackExpectation("must not happen", inverted: true)
        await onDispatchThread {
            over.fulfill(2)
            inverted.fulfill()
        }
        await withKnownIssue {
            let result = await CallbackExpectation.fulfillment(
                of: [over, inverted],
                within: .seconds(1), clock: ManualClock())
            #expect(result == .overFulfilled)
        } matching: { issue in
            mentions("\"over\" was over-fulfilled")(issue) || mentions("\"must not happen\" was fulfilled")(issue)
        }
    }

    @Test("Concurrent waits on the same expectation all return")
    func concurrentWaits() async throws {
        let clock = ManualClock()
        let expectation = CallbackExpectation("shared")
        let results = await withTaskGroup(of: CallbackExpectation.WaitResult.self) { group in
            for _ in 0..<8 {
                group.addTask { await expectation.fulfillment(within: .seconds(1), clock: clock) }
            }
            try? await clock.waitForSleepers(count: 8)
            expectation.fulfill()
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: .satisfied, count: 8))
        #expect(clock.sleeperCount == 0)
    }
}
