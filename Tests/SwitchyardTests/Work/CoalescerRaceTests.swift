import Testing

@testable import Switchyard

/// A key whose `description` runs a hook the first time it is read. The coalescer reads it, outside the engine
/// lock, to name a new job: the hook lets a test put another caller's submission exactly in that window.
private struct RacingKey: Hashable, Sendable, CustomStringConvertible {
    let hook: Hook

    final class Hook: Sendable {
        let action = TestMutex<(@Sendable () -> Void)?>(nil)
        func runOnce() {
            action.withLock { action in
                defer { action = nil }
                return action
            }?()
        }
    }

    var description: String {
        hook.runOnce()
        return "racing"
    }

    static func == (lhs: RacingKey, rhs: RacingKey) -> Bool { lhs.hook === rhs.hook }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(hook)) }
}

/// Lives as long as whatever captured it.
private final class Token: Sendable {}

@Suite("Coalescer: two callers racing to submit one key")
struct CoalescerRaceTests {
    /// The job a caller makes is named outside the lock; if another caller submits for the same key meanwhile, the
    /// first joins that job and drops its own. The dropped job must not outlive the call: it once held itself (and
    /// its queue) through its completion handler, a cycle that only finishing breaks (found by LeakSanitizer).
    @Test("the job that lost the race is released, with what it captured")
    func loserReleased() async throws {
        let key = RacingKey(hook: RacingKey.Hook())
        weak var weakToken: Token?
        weak var weakQueue: WorkQueue?
        do {
            let queue = WorkQueue(name: "race", width: 1)
            weakQueue = queue
            let coalescer = Coalescer<RacingKey, Int>(queue: queue)
            // The other caller: submits for the same key while this caller is naming its own job.
            key.hook.action.withLock { action in
                action = { _ = try? coalescer.join(key, level: JobPriority.medium.level) { _ in 1 } }
            }
            let token = Token()
            weakToken = token
            let value = try await coalescer.value(for: key) { _ in
                withExtendedLifetime(token) { 2 }  // the losing job's body; it never runs
            }
            #expect(value == 1)
            await queue.waitUntilIdle()
            #expect(coalescer.inFlightCount == 0)
        }
        #expect(weakToken == nil)
        #expect(weakQueue == nil)
    }
}
