import SwitchyardTesting
import Testing

@Suite("ManualClock", .timeLimit(.minutes(1)))
struct ManualClockTests {
    @Test("Time starts at zero, or at the given instant, and only moves when advanced")
    func initialTime() {
        #expect(ManualClock().now == .zero)
        let start = ManualClock.Instant(offset: .seconds(42))
        let clock = ManualClock(now: start)
        #expect(clock.now == start)
        #expect(clock.minimumResolution == .zero)
        clock.advance(by: .milliseconds(1_500))
        #expect(clock.now == start + .milliseconds(1_500))
        clock.advance(to: .zero + .seconds(100))
        #expect(clock.now.offset == .seconds(100))
        #expect(clock.sleeperCount == 0)
        #expect(clock.nextDeadline == nil)
    }

    @Test("Instants do arithmetic on their offsets")
    func instants() {
        let five = ManualClock.Instant.zero + .seconds(5)
        #expect(five.offset == .seconds(5))
        #expect(five - .seconds(2) == ManualClock.Instant(offset: .seconds(3)))
        #expect(five - ManualClock.Instant.zero == .seconds(5))
        #expect(ManualClock.Instant.zero.duration(to: five) == .seconds(5))
        #expect(five.advanced(by: .seconds(-5)) == .zero)
        #expect(ManualClock.Instant.zero < five)
        #expect(five.description == "ManualClock.Instant(5.0 seconds)")
    }

    @Test("A deadline at or before now returns immediately")
    func pastDeadlines() async throws {
        let clock = ManualClock(now: .zero + .seconds(10))
        try await clock.sleep(until: .zero + .seconds(10))
        try await clock.sleep(until: .zero)
        try await clock.sleep(for: .zero)
        #expect(clock.sleeperCount == 0)
    }

    @Test("A sleeper is resumed exactly when time reaches its deadline")
    func resumesExactlyAtDeadline() async throws {
        let clock = ManualClock()
        let woke = CallbackExpectation("woke")
        let sleeper = Task {
            try await clock.sleep(until: .zero + .seconds(10))
            woke.fulfill()
            return clock.now
        }
        try await clock.waitForSleepers(count: 1)
        #expect(clock.nextDeadline == .zero + .seconds(10))

        clock.advance(by: .seconds(9))
        #expect(clock.sleeperCount == 1, "deadline 10 must still be registered at 9")
        #expect(woke.fulfillmentCount == 0)

        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 0, "deadline 10 must be resumed and removed at 10")
        #expect(clock.nextDeadline == nil)
        #expect(try await sleeper.value == .zero + .seconds(10))
        #expect(woke.fulfillmentCount == 1)
    }

    @Test("One advance resumes exactly the due sleepers; the others stay registered")
    func partialAdvance() async throws {
        let clock = ManualClock()
        let sleepers = [3, 5, 7, 9].map { seconds in
            Task { try await clock.sleep(until: .zero + .seconds(seconds)) }
        }
        try await clock.waitForSleepers(count: 4)

        clock.advance(to: .zero + .seconds(5))
        #expect(clock.sleeperCount == 2)
        #expect(clock.nextDeadline == .zero + .seconds(7))
        try await sleepers[0].value
        try await sleepers[1].value

        clock.advance(by: .seconds(10))
        #expect(clock.sleeperCount == 0)
        for sleeper in sleepers {
            try await sleeper.value
        }
        #expect(clock.now == .zero + .seconds(15))
    }

    @Test("Sleepers are resumed in deadline order, FIFO among equal deadlines")
    func resumeOrder() async throws {
        let clock = ManualClock()
        let executor = SerialTaskExecutor()  // runs resumed tasks in the order they were resumed
        let log = Log<String>()
        let plan: [(name: String, seconds: Int)] = [
            ("d30", 30), ("d10-first", 10), ("d20", 20), ("d10-second", 10), ("d5", 5), ("d10-third", 10),
        ]
        var sleepers: [Task<Void, any Error>] = []
        for (name, seconds) in plan {
            sleepers.append(
                Task(executorPreference: executor) {
                    try await clock.sleep(until: .zero + .seconds(seconds))
                    log.append(name)
                }
            )
            try await clock.waitForSleepers(count: sleepers.count)  // fixes the registration order
        }

        clock.advance(by: .seconds(30))
        for sleeper in sleepers {
            try await sleeper.value
        }
        #expect(log.entries == ["d5", "d10-first", "d10-second", "d10-third", "d20", "d30"])
    }

    @Test("Cancelling a sleeper removes it and makes it throw CancellationError, without advancing")
    func cancellation() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        let other = Task { try await clock.sleep(for: .seconds(60)) }
        try await clock.waitForSleepers(count: 2)

        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 1)
        #expect(clock.now == .zero)

        clock.advance(by: .seconds(60))
        try await other.value
    }

    @Test("A task cancelled before it sleeps throws without registering")
    func cancelledBeforeSleeping() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test("waitForSleepers returns at once when enough sleepers are registered")
    func waitForSleepersImmediate() async throws {
        let clock = ManualClock()
        try await clock.waitForSleepers(count: 0)
        #expect(clock.sleeperCount == 0)
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        try await clock.waitForSleepers(count: 1)
        try await clock.waitForSleepers(count: 1)  // still registered: immediate
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
    }

    @Test("waitForSleepers is resumed by the registration of the N-th sleeper")
    func waitForSleepersResumedByRegistration() async throws {
        let clock = ManualClock()
        let waited = CallbackExpectation("three sleepers seen")
        let watcher = Task {
            try await clock.waitForSleepers(count: 3)
            #expect(clock.sleeperCount >= 3)
            waited.fulfill()
        }
        var sleepers: [Task<Void, any Error>] = []
        for index in 1...3 {
            sleepers.append(Task { try await clock.sleep(for: .seconds(index)) })
        }
        try await watcher.value
        #expect(waited.fulfillmentCount == 1)
        clock.advance(by: .seconds(3))
        for sleeper in sleepers {
            try await sleeper.value
        }
    }

    @Test("Cancelling waitForSleepers makes it throw CancellationError")
    func waitForSleepersCancellation() async {
        let clock = ManualClock()
        let watcher = Task { try await clock.waitForSleepers(count: 1) }
        watcher.cancel()
        await #expect(throws: CancellationError.self) { try await watcher.value }
    }

    @Test("Moving the clock backwards is reported and ignored")
    func backwards() {
        let clock = ManualClock(now: .zero + .seconds(5))
        withKnownIssue {
            clock.advance(to: .zero + .seconds(3))
        } matching: { issue in
            mentions("cannot move backwards", "5.0 seconds", "3.0 seconds")(issue)
        }
        withKnownIssue {
            clock.advance(by: .seconds(-1))
        } matching: { issue in
            mentions("negative duration")(issue)
        }
        #expect(clock.now == .zero + .seconds(5))
    }

    @Test("The clock works through the generic Clock API")
    func genericUse() async throws {
        func delayed<C: Clock<Duration>>(on clock: C, by delay: Duration) async throws -> C.Instant {
            try await clock.sleep(for: delay)
            return clock.now
        }
        let clock = ManualClock()
        let task = Task { try await delayed(on: clock, by: .seconds(2)) }
        try await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        #expect(try await task.value == .zero + .seconds(2))
    }
}
