import Switchyard
import SwitchyardTesting
import Testing

/// Reports its deinitialization.
private final class Tracked: Sendable {
    let released: Arrivals
    init(released: Arrivals) { self.released = released }
    deinit { released.arrive() }
}

/// Larger than any inline buffer: stored out of line.
private struct Wide: Equatable, Sendable {
    var a = 1, b = 2, c = 3, d = 4, e = 5
    var label = "wide"
}

@Suite("Job values: every type round-trips, and a value lives exactly as long as its job", .timeLimit(.minutes(1)))
struct JobValueTests {
    @Test("values of no size, word size, strings and wide structs are read back, as often as asked")
    func valuesRoundTrip() async throws {
        let queue = WorkQueue(name: "values")
        let none = try queue.trySubmit("void") {}
        let number = try queue.trySubmit("int") { 42 }
        let text = try queue.trySubmit("string") { String(repeating: "x", count: 100) }
        let wide = try queue.trySubmit("wide") { Wide() }
        let optional = try queue.trySubmit("optional") { Int?.none }
        try await none.value
        #expect(try await number.value == 42)
        #expect(try await number.value == 42)
        #expect(try await text.value == String(repeating: "x", count: 100))
        #expect(try await wide.value == Wide())
        #expect(try await wide.result.get() == Wide())
        #expect(try await optional.value == nil)
        let sum = try queue.trySubmit("sum", after: number, wide) { (number: Int, wide: Wide) in number + wide.e }
        #expect(try await sum.value == 47)
    }

    @Test("a value is released with its job once no handle refers to it, and not before")
    func valueReleasedWithJob() async throws {
        let queue = WorkQueue(name: "lifetime")
        let released = Arrivals()
        var job: Job<Tracked, Never>? = try queue.trySubmit("make") { Tracked(released: released) }
        let first = try await job!.value
        let second = try await job!.value
        #expect(first === second)
        await queue.waitUntilIdle()
        #expect(released.count == 0)
        job = nil
        _ = consume first
        _ = consume second
        await released.wait(for: 1)
    }

    @Test("a value stored by a timed-out attempt is replaced by the retry's, and released then")
    func retryReplacesValue() async throws {
        let clock = ManualClock()
        let queue = WorkQueue(name: "retried values", width: 1)
        let released = Arrivals()
        let started = Arrivals()
        let gate = AsyncGate()
        let policy = RetryPolicy.constant(maximumAttempts: 2, delay: .seconds(1), retriesTimeouts: true)
        let options = JobOptions().timeout(.seconds(2), clock: clock).retrying(policy, clock: clock)
        let events = queue.events()
        let job = try queue.trySubmit("slow, then quick", options: options) { () -> Tracked in
            started.arrive()
            if started.count == 1 { await gate.wait() }  // ignores the timeout's cancellation, then succeeds late
            return Tracked(released: released)
        }
        await started.wait(for: 1)
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))  // the first attempt times out while it runs
        // The timeout takes effect when the sleeping timer's task runs: opening the gate before that would let the
        // first attempt succeed in time, and nothing would be retried.
        for await event in events where event.kind == .timedOut { break }
        gate.open()
        try await clock.waitForSleepers(count: 1)  // the retry's backoff
        #expect(released.count == 0)  // the late value is kept until the retry stores its own
        clock.advance(by: .seconds(1))
        let value = try await job.value
        await released.wait(for: 1)  // the first attempt's value, replaced
        #expect(started.count == 2)
        _ = consume value
    }

    @Test("a failed job stores no value; its error is reported")
    func failureStoresNothing() async throws {
        struct Refused: Error {}
        let queue = WorkQueue(name: "failures")
        let released = Arrivals()
        let job = try queue.trySubmit("fails") { () throws(Refused) -> Tracked in
            _ = Tracked(released: released)
            throw Refused()
        }
        await #expect(throws: JobError<Refused>.self) { try await job.value }
        #expect(released.count == 1)
    }
}
