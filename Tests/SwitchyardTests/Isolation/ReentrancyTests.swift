import Switchyard
import Testing

/// Re-entrant synchronous access is a certain deadlock; these exit tests prove it stops the process instead,
/// with the documented message naming the instance's label.
@Suite("Re-entrancy diagnostics", .timeLimit(.minutes(1)))
struct ReentrancyTests {
    private static func expectMessage(_ result: ExitTest.Result?, mentions fragments: [String]) {
        let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        for fragment in fragments {
            #expect(standardError.contains(fragment), "stderr was: \(standardError)")
        }
    }

    @Test("Isolated: access inside an access of the same instance")
    func isolatedNested() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let value = Isolated(0, label: "nested-probe")
            value.withValueBlocking { _ in value.withValueBlocking { _ in } }
        }
        Self.expectMessage(
            result,
            mentions: [
                "re-entrant access of Isolated<Int> \"nested-probe\"", "would deadlock",
            ])
    }

    @Test("Isolated: synchronous access inside the second enqueued access of a run (same task as the first)")
    func isolatedNestedInEnqueuedRun() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let value = Isolated(0, label: "run-probe")
            await value.withValue { _ in
                value.enqueue { $0 += 1 }
                value.enqueue { _ in value.withValueBlocking { _ in } }
            }
            await value.withValue { _ in }  // queued behind both: the process stops before this runs
        }
        Self.expectMessage(result, mentions: ["re-entrant access of Isolated<Int> \"run-probe\"", "would deadlock"])
    }

    @Test("Isolated: A → B → A (the case dispatch_sync_safe deadlocks on)")
    func isolatedThroughAnotherInstance() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let first = Isolated(0, label: "queue-A")
            let second = Isolated(0, label: "queue-B")
            first.withValueBlocking { _ in second.withValueBlocking { _ in first.readBlocking { _ in } } }
        }
        Self.expectMessage(result, mentions: ["\"queue-A\""])
    }

    @Test("ReadWriteIsolated: read inside a write")
    func readInsideWrite() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let value = ReadWriteIsolated(0, label: "rw-probe")
            value.writeBlocking { _ in _ = value.readBlocking { $0 } }
        }
        Self.expectMessage(
            result,
            mentions: [
                "re-entrant read of ReadWriteIsolated<Int> \"rw-probe\" from inside a write"
            ])
    }

    @Test("ReadWriteIsolated: write inside a read")
    func writeInsideRead() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let value = ReadWriteIsolated(0, label: "rw-probe")
            value.readBlocking { _ in value.writeBlocking { $0 += 1 } }
        }
        Self.expectMessage(
            result, mentions: ["re-entrant write of ReadWriteIsolated<Int> \"rw-probe\" from inside a read"])
    }

    @Test("ReadWriteIsolated: read inside a read")
    func readInsideRead() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let value = ReadWriteIsolated(0, label: "rw-probe")
            value.readBlocking { _ in _ = value.readBlocking { $0 } }
        }
        Self.expectMessage(
            result, mentions: ["re-entrant read of ReadWriteIsolated<Int> \"rw-probe\" from inside a read"])
    }

    @Test("ReadWriteIsolated: write inside a write")
    func writeInsideWrite() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let value = ReadWriteIsolated(0, label: "rw-probe")
            value.writeBlocking { _ in value.writeBlocking { $0 += 1 } }
        }
        Self.expectMessage(
            result, mentions: ["re-entrant write of ReadWriteIsolated<Int> \"rw-probe\" from inside a write"])
    }

    @Test("reads of different instances nest freely, and so do sequential accesses")
    func legalNesting() {
        let first = ReadWriteIsolated(1, label: "first")
        let second = ReadWriteIsolated(2, label: "second")
        let sum = first.readBlocking { a in second.readBlocking { b in a + b } }
        #expect(sum == 3)
        #expect(first.readBlocking { $0 } == 1)
        first.writeBlocking { $0 = 5 }
        #expect(first.readBlocking { $0 } == 5)
    }
}
