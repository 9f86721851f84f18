import Foundation
import SwitchyardTesting
import Testing

@testable import Switchyard

/// User code in keys (`hash(into:)`, `==`, `deinit`) never runs under the engine lock: a slow key stalls only its
/// own coalescer, and a key's `deinit` may submit work.
@Suite("Coalescer: user code in keys", .timeLimit(.minutes(1)))
struct CoalescerKeyTests {
    /// A key whose `hash(into:)` and `==` block on `gate` while `blocking` is set.
    struct SlowKey: Hashable, Sendable {
        let id: Int
        let blocking: Bool
        let gate: ThreadGate
        let entered: CallbackExpectation

        func hash(into hasher: inout Hasher) {
            if blocking {
                entered.fulfill()
                gate.wait()
            }
            hasher.combine(id)
        }

        static func == (lhs: SlowKey, rhs: SlowKey) -> Bool {
            if lhs.blocking || rhs.blocking {
                lhs.entered.fulfill()
                lhs.gate.wait()
            }
            return lhs.id == rhs.id
        }
    }

    @Test("a key whose hash or == blocks does not stall an unrelated queue")
    func slowKeyStallsNothingElse() async throws {
        let gate = ThreadGate(waiters: 4)
        let entered = CallbackExpectation("the key's hash ran", expectedCount: .atLeast(1))
        let coalescer = Coalescer<SlowKey, Int>(queue: WorkQueue(name: "slow keys"))
        let unrelated = WorkQueue(name: "unrelated")
        let requester = NarrowPool(width: 1, name: "slow key requester")
        let request = Task(executorPreference: requester) {
            try await coalescer.value(for: SlowKey(id: 1, blocking: true, gate: gate, entered: entered)) { _ in 1 }
        }
        let ran = await withTaskExecutorPreference(NarrowPool(width: 1, name: "watchdog")) { () async -> Bool in
            // Windows for a loaded 2-core machine (the whole suite at once); a stall would never end.
            guard await entered.fulfillment(within: .seconds(25)).isSuccess else { return false }
            // The key is blocked inside its hash: another queue still runs jobs.
            let job = CallbackExpectation("the unrelated job ran")
            Task.detached {
                _ = try? await unrelated.submit("unrelated") { 2 }
                job.fulfill()
            }
            return await job.fulfillment(within: .seconds(25)).isSuccess
        }
        gate.open()
        #expect(ran)
        #expect(try await request.value == 1)
    }

    /// Submits a job to `queue` from its `deinit`, and fulfills `released` when that job ran.
    final class Token: Sendable {
        let queue: WorkQueue
        let released: CallbackExpectation
        init(queue: WorkQueue, released: CallbackExpectation) {
            self.queue = queue
            self.released = released
        }
        deinit {
            let released = released
            _ = try? queue.trySubmit("from a key's deinit") { released.fulfill() }
        }
    }

    struct TokenKey: Hashable, Sendable {
        let id: Int
        let token: Token
        func hash(into hasher: inout Hasher) { hasher.combine(id) }
        static func == (lhs: TokenKey, rhs: TokenKey) -> Bool { lhs.id == rhs.id }
    }

    @Test("a key whose deinit submits a job does not deadlock, whichever copy is destroyed last")
    func keyDeinitSubmits() async throws {
        let queue = WorkQueue(name: "token keys", width: 2)
        let coalescer = Coalescer<TokenKey, Int>(queue: queue)
        let released = CallbackExpectation("both callers' keys submitted a job from deinit", expectedCount: .exactly(2))
        let gate = AsyncGate()
        let probes = CallbackExpectation("probe keys released", expectedCount: .atLeast(0))
        func probe() -> TokenKey { TokenKey(id: 1, token: Token(queue: queue, released: probes)) }
        // The first caller's key is the one stored; it leaves (cancelled) while a second caller keeps the job, so
        // the stored key's last copy goes when the job finishes and the key is forgotten.
        let first = Task {
            try await coalescer.value(for: TokenKey(id: 1, token: Token(queue: queue, released: released))) { _ in
                await gate.wait()
                return 1
            }
        }
        while coalescer.waiterCount(for: probe()) < 1 {
            await Task.yield()
        }
        let second = Task {
            try await coalescer.value(for: TokenKey(id: 1, token: Token(queue: queue, released: released))) { _ in 2 }
        }
        while coalescer.waiterCount(for: probe()) < 2 {
            await Task.yield()
        }
        first.cancel()
        _ = await first.result
        gate.open()
        #expect(try await second.value == 1)
        let ran = await withTaskExecutorPreference(NarrowPool(width: 1, name: "watchdog")) {
            await released.fulfillment(within: .seconds(10)).isSuccess
        }
        #expect(ran)
        #expect(coalescer.inFlightCount == 0)
    }
}
