import SwitchyardTesting
import Testing

@testable import Switchyard

@Suite("MemoryPressureMonitor", .timeLimit(.minutes(1)))
struct MemoryPressureMonitorTests {
    /// A monitor over a fake cgroup v2 directory, polling every second on a manual clock, and the means to step
    /// and stop its polling task.
    private struct Harness {
        let tree: FakeFileTree
        let clock = ManualClock()
        let monitor: MemoryPressureMonitor
        /// Fulfilled when the polling task stops (set anew by each `stop`).
        private let stopped = TestMutex<CallbackExpectation?>(nil)

        init(current: UInt64 = 100, renotifyInterval: Duration = .seconds(10)) throws {
            tree = try FakeFileTree()
            try tree.writeCgroupV2(current: current, max: "1000")
            let stopped = self.stopped
            monitor = MemoryPressureMonitor(
                source: .cgroupV2(directory: tree.root, meminfoPath: tree.path("no-meminfo")),
                interval: .seconds(1), renotifyInterval: renotifyInterval, clock: clock, thresholds: .init(),
                name: "test monitor", pollingStopped: { stopped.withLock { $0 }?.fulfill() })
        }

        /// Lets the polling task take one reading: waits until it sleeps, advances the clock by its interval, and
        /// waits until it sleeps again (by then it has read, decided and notified).
        func tick() async throws {
            try await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(1))
            try await clock.waitForSleepers(count: 1)
        }

        /// Unregisters `responders` and lets the polling task wake, find no responder, and end without reading.
        func stopPolling(unregistering responders: RecordingResponder...) async throws {
            for responder in responders { monitor.unregister(responder) }
            let expectation = CallbackExpectation("polling stopped")
            stopped.withLock { $0 = expectation }
            try await clock.waitForSleepers(count: 1)
            let reading = monitor.lastReading
            clock.advance(by: .seconds(1))
            await expectation.fulfillment(within: .seconds(30))
            #expect(clock.sleeperCount == 0 && monitor.lastReading == reading)
        }
    }

    @Test("polling over a cgroup going normal → warning → critical tells responders on each rise")
    func risingLevels() async throws {
        let harness = try Harness(current: 500)
        let (tree, monitor) = (harness.tree, harness.monitor)
        let responder = RecordingResponder()
        monitor.register(responder)

        try await harness.tick()
        #expect(monitor.level == .normal && responder.levels == [])
        #expect(monitor.lastReading?.usedBytes == 500)

        try tree.write("memory.current", "900\n")
        try await harness.tick()
        #expect(monitor.level == .warning && responder.levels == [.warning])

        try tree.write("memory.events", "low 0\nhigh 0\nmax 1\noom 0\noom_kill 0\n")  // usage still 0.9
        try await harness.tick()
        #expect(monitor.level == .critical && responder.levels == [.warning, .critical])

        try tree.write("memory.current", "990\n")  // the max counter stays put; usage 0.99 keeps it critical
        try await harness.tick()
        try await harness.tick()
        #expect(monitor.level == .critical && responder.levels == [.warning, .critical])  // not due again yet

        try tree.write("memory.current", "900\n")
        try await harness.tick()  // a fall to warning is not told
        #expect(monitor.level == .warning && responder.levels == [.warning, .critical])
        try tree.write("memory.current", "990\n")
        try await harness.tick()  // a rise again is
        #expect(monitor.level == .critical && responder.levels == [.warning, .critical, .critical])
        try await harness.stopPolling(unregistering: responder)
    }

    @Test("responders are told again every renotifyInterval while the level stays at warning or above")
    func renotification() async throws {
        let harness = try Harness(current: 900, renotifyInterval: .seconds(3))
        let responder = RecordingResponder()
        harness.monitor.register(responder)
        try await harness.tick()  // t = 1: rise to warning
        #expect(responder.levels == [.warning])
        try await harness.tick()  // t = 2
        try await harness.tick()  // t = 3
        #expect(responder.levels == [.warning])
        try await harness.tick()  // t = 4: 3 s since the last notification
        #expect(responder.levels == [.warning, .warning])
        try harness.tree.write("memory.current", "100\n")
        try await harness.tick()  // t = 5: normal, responders are not told
        try harness.tree.write("memory.current", "900\n")
        try await harness.tick()  // t = 6: a new rise, told at once
        #expect(responder.levels == [.warning, .warning, .warning])
        try await harness.stopPolling(unregistering: responder)
    }

    @Test("check reads once now, decides and notifies before returning")
    func check() async throws {
        let harness = try Harness(current: 960)
        let (tree, monitor) = (harness.tree, harness.monitor)
        #expect(await monitor.check() == .critical)  // no responder: nothing polls, nothing to tell
        #expect(monitor.level == .critical && monitor.lastReading?.limitBytes == 1000)
        let responder = RecordingResponder()
        monitor.register(responder)
        try tree.write("memory.current", "100\n")
        #expect(await monitor.check() == .normal)
        try tree.write("memory.current", "900\n")
        #expect(await monitor.check() == .warning)
        #expect(responder.levels == [.warning])
        try await harness.stopPolling(unregistering: responder)
    }

    @Test("simulate tells every live responder at once, in registration order, and changes no state")
    func simulate() async throws {
        let harness = try Harness()
        let monitor = harness.monitor
        let log = ResponderLog()
        let first = RecordingResponder("first", sharedLog: log)
        let second = RecordingResponder("second", sharedLog: log)
        monitor.register(first)
        monitor.register(second)
        monitor.register(first)  // already registered: no-op
        monitor.simulate(.critical)
        monitor.simulate(.normal)  // responders are never told normal
        monitor.simulate(.warning)
        #expect(log.calls == ["first: critical", "second: critical", "first: warning", "second: warning"])
        #expect(monitor.level == .normal && monitor.lastReading == nil)
        monitor.unregister(first)
        monitor.simulate(.warning)
        #expect(first.levels == [.critical, .warning] && second.levels == [.critical, .warning, .warning])
        #expect("\(monitor)".hasPrefix("test monitor [cgroup v2 \(harness.tree.root)]: normal, polling every"))
        #expect("\(monitor)".hasSuffix("1 responder (RecordingResponder)"))
        try await harness.stopPolling(unregistering: second)
        #expect("\(monitor)".hasSuffix("normal, not polling, 0 responders"))
    }

    @Test("a responder may call back into the monitor while it is told")
    func reentrantResponder() async throws {
        let harness = try Harness()
        let responder = SelfRemovingResponder(monitor: harness.monitor)
        harness.monitor.register(responder)
        harness.monitor.simulate(.warning)
        harness.monitor.simulate(.warning)
        #expect(responder.calls.withLock { $0 } == 1)
        try await harness.stopPolling()
    }

    @Test("responders are held weakly: a released one is dropped, and polling stops when none is left")
    func weakRegistration() async throws {
        let harness = try Harness(current: 900)
        let monitor = harness.monitor
        let kept = RecordingResponder("kept")
        var released: RecordingResponder? = RecordingResponder("released")
        weak let releasedReference = released
        monitor.register(kept)
        monitor.register(released!)
        released = nil
        #expect(releasedReference == nil)
        monitor.simulate(.warning)
        #expect(kept.levels == [.warning])
        #expect("\(monitor)".hasSuffix("1 responder (RecordingResponder)"))

        var alsoReleased: RecordingResponder? = RecordingResponder("also released")
        monitor.unregister(kept)
        monitor.register(alsoReleased!)
        alsoReleased = nil
        try await harness.stopPolling()  // stops without reading: no live responder at the tick
        monitor.register(kept)  // polling starts again
        try await harness.tick()
        #expect(monitor.level == .warning && kept.levels == [.warning, .warning])
        try await harness.stopPolling(unregistering: kept)
    }

    @Test("the polling task does not keep the monitor alive")
    func monitorReleased() async throws {
        let tree = try FakeFileTree()
        try tree.writeCgroupV2(current: 100, max: "1000")
        let clock = ManualClock()
        let responder = RecordingResponder()
        weak var monitorReference: MemoryPressureMonitor?
        do {
            let monitor = MemoryPressureMonitor(
                source: .cgroupV2(directory: tree.root), interval: .seconds(1),
                clock: clock)
            monitorReference = monitor
            monitor.register(responder)
            try await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(1))
            try await clock.waitForSleepers(count: 1)
            #expect(monitor.lastReading != nil)
        }
        #expect(monitorReference == nil)
        clock.advance(by: .seconds(1))  // the task wakes, finds the monitor gone, and ends
    }

    @Test("notification rule: rises are told at once, steady levels every renotifyInterval, normal never")
    func notificationRule() {
        var state = MemoryPressureMonitorState()
        let reading = MemoryPressureReading(source: "t")
        let interval = Duration.seconds(10)
        func decide(_ level: MemoryPressureLevel, at seconds: Int64) -> MemoryPressureLevel? {
            state.decide(level, reading: reading, at: .seconds(seconds), renotifyInterval: interval)
        }
        #expect(decide(.normal, at: 0) == nil)
        #expect(decide(.warning, at: 1) == .warning)
        #expect(decide(.warning, at: 10) == nil)
        #expect(decide(.critical, at: 10) == .critical)  // a rise, even before the interval
        #expect(decide(.warning, at: 11) == nil)  // a fall is not a rise
        #expect(decide(.warning, at: 20) == .warning)  // 10 s after the last notification
        #expect(decide(.normal, at: 21) == nil)
        #expect(decide(.warning, at: 22) == .warning)
    }
}

/// A responder that unregisters itself from inside `respond(to:)`.
private final class SelfRemovingResponder: MemoryPressureResponder {
    let monitor: MemoryPressureMonitor
    let calls = TestMutex(0)

    init(monitor: MemoryPressureMonitor) {
        self.monitor = monitor
    }

    func respond(to level: MemoryPressureLevel) {
        calls.withLock { $0 += 1 }
        _ = monitor.level
        monitor.unregister(self)
    }
}
