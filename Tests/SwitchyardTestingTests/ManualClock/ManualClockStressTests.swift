import Dispatch
import SwitchyardTesting
import Testing

/// Randomized, bounded stress of sleepers, cancellations and concurrent advances.
///
/// Each run prints its seed; to replay a failure, run with `SWITCHYARD_SEED=<printed seed>`.
@Suite("ManualClock: stress", .timeLimit(.minutes(3)))
struct ManualClockStressTests {
    @Test("Random sleepers and cancellations: each advance resumes exactly the due sleepers")
    func randomizedSleepers() async throws {
        var random = SeededRandomNumberGenerator.forTest("ManualClockStressTests.randomizedSleepers")
        let seed = random.seed
        let clock = ManualClock()

        let deadlines = (0..<300).map { _ in Int.random(in: 1...100, using: &random) }
        let cancelled = deadlines.map { _ in Int.random(in: 0..<5, using: &random) == 0 }
        let sleepers = deadlines.map { deadline in
            Task {
                try await clock.sleep(until: .zero + .milliseconds(deadline))
                return deadline
            }
        }
        try await clock.waitForSleepers(count: sleepers.count)
        for (sleeper, cancel) in zip(sleepers, cancelled) where cancel {
            sleeper.cancel()  // the cancellation handler runs synchronously: removed on return
        }
        let live = zip(deadlines, cancelled).filter { !$0.1 }.map(\.0)
        #expect(clock.sleeperCount == live.count, "seed \(seed)")

        var now = 0
        while now < 100 {
            now = min(100, now + Int.random(in: 1...15, using: &random))
            clock.advance(to: .zero + .milliseconds(now))
            let stillDue = live.filter { $0 > now }
            #expect(clock.sleeperCount == stillDue.count, "seed \(seed), at \(now) ms")
            #expect(clock.nextDeadline == stillDue.min().map { .zero + .milliseconds($0) }, "seed \(seed)")
        }

        for (index, sleeper) in sleepers.enumerated() {
            if cancelled[index] {
                await #expect(throws: CancellationError.self) { try await sleeper.value }
            } else {
                #expect(try await sleeper.value == deadlines[index])
            }
        }
    }

    @Test("Concurrent advances from many threads add up and resume every due sleeper")
    func concurrentAdvances() async throws {
        let clock = ManualClock()
        let sleepers = (1...100).map { milliseconds in
            Task { try await clock.sleep(until: .zero + .milliseconds(milliseconds)) }
        }
        try await clock.waitForSleepers(count: 100)
        await onDispatchThread {
            DispatchQueue.concurrentPerform(iterations: 100) { _ in
                clock.advance(by: .milliseconds(1))
            }
        }
        #expect(clock.now == .zero + .milliseconds(100))
        #expect(clock.sleeperCount == 0)
        for sleeper in sleepers {
            try await sleeper.value
        }
    }
}
