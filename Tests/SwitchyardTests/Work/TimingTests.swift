import Switchyard
import SwitchyardTesting
import Testing

private struct Flaky: Error {}

@Suite("Delays, timeouts and retries on a manual clock")
struct TimingTests {
    @Test("a delayed job starts only once its delay has passed, holding no slot meanwhile")
    func delay() async throws {
        let clock = ManualClock()
        let queue = WorkQueue(name: "delayed", width: 1)
        let job = try queue.trySubmit("later", options: JobOptions().delayed(by: .seconds(5), clock: clock)) { 1 }
        let other = try queue.trySubmit("now") { 2 }
        #expect(try await other.value == 2)
        try await clock.waitForSleepers(count: 1)
        #expect(job.state == .waiting)
        #expect(queue.snapshot().jobs.first?.waitingReasons == [.delay(.seconds(5))])
        clock.advance(by: .seconds(4))
        #expect(job.state == .waiting)
        clock.advance(by: .seconds(1))
        #expect(try await job.value == 1)
    }

    @Test("cancelling a delayed job before it fires: it never runs and its timer is released")
    func cancelBeforeFiring() async throws {
        let clock = ManualClock()
        let queue = WorkQueue(name: "cancel delayed", width: 1)
        let ran = SharedFlag()
        let job = try queue.trySubmit("never", options: JobOptions().delayed(by: .seconds(5), clock: clock)) {
            ran.set(true)
        }
        try await clock.waitForSleepers(count: 1)
        job.cancel()
        #expect(job.state == .cancelled)
        try await clock.waitForSleepers(count: 0)
        clock.advance(by: .seconds(10))
        await queue.waitUntilIdle()
        #expect(!ran.value)
    }

    @Test("an attempt past its timeout is cancelled and reports timedOut")
    func timeout() async throws {
        let clock = ManualClock()
        let queue = WorkQueue(name: "timeouts", width: 1)
        let started = Arrivals()
        let job = try queue.trySubmit("slow", options: JobOptions().timeout(.seconds(2), clock: clock)) {
            started.arrive()
            try await Task.sleep(for: .seconds(600))
        }
        await started.wait(for: 1)
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        guard case .failure(.timedOut) = await job.result else {
            Issue.record("expected timedOut")
            return
        }
        #expect(job.state == .timedOut)
    }

    @Test("a failing job is retried after its backoff, without holding a slot")
    func retries() async throws {
        let clock = ManualClock()
        let queue = WorkQueue(name: "retries", width: 1)
        let attempts = SharedCounter()
        let policy = RetryPolicy.exponential(maximumAttempts: 3, initial: .seconds(1))
        #expect(policy.delay(afterAttempt: 1) == .seconds(1))
        #expect(policy.delay(afterAttempt: 2) == .seconds(2))
        let job = try queue.trySubmit("flaky", options: JobOptions().retrying(policy, clock: clock)) {
            () throws(Flaky) -> Int in
            if attempts.add() < 3 { throw Flaky() }
            return attempts.value
        }
        try await clock.waitForSleepers(count: 1)
        #expect(queue.snapshot().jobs.first?.waitingReasons == [.retryBackoff(attempt: 2)])
        #expect(queue.counts.running == 0)
        clock.advance(by: .seconds(1))
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        #expect(try await job.value == 3)
    }

    @Test("retries stop at maximumAttempts with the last error")
    func retriesExhausted() async throws {
        let clock = ManualClock()
        let queue = WorkQueue(name: "exhausted", width: 1)
        let attempts = SharedCounter()
        let job = try queue.trySubmit(
            "always failing",
            options: JobOptions().retrying(.constant(maximumAttempts: 2, delay: .seconds(1)), clock: clock)
        ) { () throws(Flaky) in
            attempts.add()
            throw Flaky()
        }
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(1))
        guard case .failure(.failed) = await job.result else {
            Issue.record("expected failed")
            return
        }
        #expect(attempts.value == 2)
    }
}
