import Switchyard
import Testing

@Suite("MemoryPressureThresholds")
struct MemoryPressureThresholdsTests {
    private let thresholds = MemoryPressureThresholds()

    private func level(
        _ reading: MemoryPressureReading, previous: MemoryPressureReading? = nil
    ) -> MemoryPressureLevel {
        thresholds.level(for: reading, previous: previous)
    }

    @Test("usage ratio: warning from 0.85, critical from 0.95")
    func usageRatio() {
        #expect(level(MemoryPressureReading(source: "t", usedBytes: 849, limitBytes: 1000)) == .normal)
        #expect(level(MemoryPressureReading(source: "t", usedBytes: 850, limitBytes: 1000)) == .warning)
        #expect(level(MemoryPressureReading(source: "t", usedBytes: 949, limitBytes: 1000)) == .warning)
        #expect(level(MemoryPressureReading(source: "t", usedBytes: 950, limitBytes: 1000)) == .critical)
        #expect(level(MemoryPressureReading(source: "t", usedBytes: 950, limitBytes: 0)) == .normal)
        #expect(level(MemoryPressureReading(source: "t", usedBytes: 950)) == .normal)
    }

    @Test("PSI: some avg10 from 10 is a warning, full avg10 from 10 is critical")
    func psi() {
        #expect(level(MemoryPressureReading(source: "t", psiSomeAvg10: 9.99, psiFullAvg10: 9.99)) == .normal)
        #expect(level(MemoryPressureReading(source: "t", psiSomeAvg10: 10)) == .warning)
        #expect(level(MemoryPressureReading(source: "t", psiSomeAvg10: 50, psiFullAvg10: 10)) == .critical)
    }

    @Test("memory.events: only an increase since the previous reading counts")
    func events() {
        let before = MemoryPressureReading(source: "t", eventsHigh: 5, eventsMax: 1, eventsOOM: 0)
        #expect(level(before) == .normal)  // no previous reading: a baseline only
        #expect(level(before, previous: before) == .normal)
        var reading = before
        reading.eventsHigh = 6
        #expect(level(reading, previous: before) == .warning)
        reading.eventsMax = 2
        #expect(level(reading, previous: before) == .critical)
        reading = before
        reading.eventsOOM = 1
        #expect(level(reading, previous: before) == .critical)
        reading = MemoryPressureReading(source: "t", eventsHigh: 0)  // the cgroup was recreated
        #expect(level(reading, previous: before) == .normal)
    }

    @Test("v1 pressure_level: medium fired is a warning, critical fired is critical")
    func pressureLevel() {
        func fired(medium: UInt64, critical: UInt64) -> MemoryPressureReading {
            MemoryPressureReading(source: "t", pressureLevelMedium: medium, pressureLevelCritical: critical)
        }
        #expect(level(fired(medium: 0, critical: 0)) == .normal)
        #expect(level(fired(medium: 3, critical: 0)) == .warning)
        #expect(level(fired(medium: 1, critical: 1)) == .critical)
    }

    @Test("the level is the highest of all signals; custom thresholds apply")
    func maximumOfSignals() {
        let reading = MemoryPressureReading(
            source: "t", usedBytes: 10, limitBytes: 1000, psiSomeAvg10: 20,
            pressureLevelCritical: 1)
        #expect(level(reading) == .critical)
        let strict = MemoryPressureThresholds(
            warningUsageRatio: 0.5, criticalUsageRatio: 0.6,
            warningPSISomeAvg10: 1, criticalPSIFullAvg10: 2)
        #expect(
            strict.level(
                for: MemoryPressureReading(source: "t", usedBytes: 55, limitBytes: 100),
                previous: nil) == .warning)
        #expect(strict.level(for: MemoryPressureReading(source: "t", psiFullAvg10: 2), previous: nil) == .critical)
    }

    @Test("levels are ordered and named")
    func levels() {
        #expect(MemoryPressureLevel.normal < .warning && MemoryPressureLevel.warning < .critical)
        #expect([MemoryPressureLevel.critical, .normal, .warning].max() == .critical)
        #expect("\(MemoryPressureLevel.warning)" == "warning")
    }
}
