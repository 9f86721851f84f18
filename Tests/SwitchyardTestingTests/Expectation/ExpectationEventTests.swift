import SwitchyardTesting
import Testing

/// `CallbackExpectation.event`: an `async` event awaited with a timeout, driven by a `ManualClock`.
@Suite("CallbackExpectation.event", .timeLimit(.minutes(1)))
struct ExpectationEventTests {
    @Test("An event that returns satisfies the wait, before any time passes")
    func eventReturns() async {
        let clock = ManualClock()
        let signal = AsyncStream<Void>.makeStream()
        signal.continuation.yield()
        let result = await CallbackExpectation.event("signalled", within: .seconds(5), clock: clock) {
            for await _ in signal.stream { return }
        }
        #expect(result == .satisfied)
        #expect(clock.now == .zero)
    }

    @Test("An event that never comes fails the test at the timeout, and is cancelled")
    func eventNeverComes() async throws {
        let clock = ManualClock()
        let ended = CallbackExpectation("the event's task ended")
        try await withKnownIssue {
            async let result = CallbackExpectation.event("never", within: .seconds(5), clock: clock) {
                let never = AsyncStream<Void>.makeStream()  // never yields; ends when the task is cancelled
                for await _ in never.stream {}
                ended.fulfill()
            }
            try await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(5))
            #expect(await result == .timedOut)
        } matching: { issue in
            mentions("Timed out after 5.0 seconds", "\"never\"")(issue)
        }
        await ended.fulfillment(within: .seconds(30))
    }

    @Test("Cancelling the waiting task ends the wait without a failure and cancels the event")
    func waitCancelled() async throws {
        let clock = ManualClock()
        let ended = CallbackExpectation("the event's task ended")
        let wait = Task {
            await CallbackExpectation.event("never", within: .seconds(5), clock: clock) {
                let never = AsyncStream<Void>.makeStream()
                for await _ in never.stream {}
                ended.fulfill()
            }
        }
        try await clock.waitForSleepers(count: 1)
        wait.cancel()
        #expect(await wait.value == .cancelled)
        await ended.fulfillment(within: .seconds(30))
    }
}
