import Switchyard
import Testing

@Suite("Priority escalation and deadlock diagnostics")
struct EscalationTests {
    @Test("a dependency inherits its dependents' priority, through the chain and across queues")
    func escalationThroughGraph() async throws {
        let low = WorkQueue(name: "low", width: 1)
        let high = WorkQueue(name: "high", width: 1)
        low.suspend()
        let a = try low.trySubmit("a", priority: .background) {}
        let b = try low.trySubmit("b", priority: .background, options: JobOptions().after(a)) {}
        let urgent = try high.trySubmit("urgent", priority: .userInteractive, options: JobOptions().after(b)) {}
        #expect(a.priority == .background)
        #expect(a.effectivePriority == .userInteractive)
        #expect(b.effectivePriority == .userInteractive)
        urgent.cancel()
        #expect(a.effectivePriority == .background)
        #expect(b.state == .waiting)
        low.resume()
        await low.waitUntilIdle()
    }

    @Test("an escalated dependency overtakes equal- and lower-priority ready work (no priority inversion)")
    func noInversion() async throws {
        let queue = WorkQueue(name: "pathfinder", width: 1)
        let other = WorkQueue(name: "meteo", width: 1)
        let log = Log<String>()
        queue.suspend()
        for index in 0..<3 { try queue.trySubmit("medium \(index)") { log.append("medium") } }
        let bus = try queue.trySubmit("bus", priority: .background) { log.append("bus") }
        try other.trySubmit("critical", priority: .userInteractive, options: JobOptions().after(bus)) {
            log.append("critical")
        }
        queue.resume()
        await queue.waitUntilIdle()
        await other.waitUntilIdle()
        #expect(log.all.first == "bus")
    }

    @Test("a task awaiting a job lends it its priority")
    func awaiterEscalates() async throws {
        let queue = WorkQueue(name: "awaited", width: 1)
        queue.suspend()
        let job = try queue.trySubmit("slow start", priority: .background) { 3 }
        let waiter = Task(priority: .high) { try await job.value }
        while job.effectivePriority == .background { await Task.yield() }
        #expect(job.effectivePriority == .userInitiated)
        queue.resume()
        #expect(try await waiter.value == 3)
    }

    @Test("a job raised while it waits for a job of another queue raises that job too (inheritance through waits)")
    func escalationThroughWait() async throws {
        let inner = WorkQueue(name: "inner", width: 1)
        let outer = WorkQueue(name: "outer", width: 1)
        inner.suspend()
        let awaited = try inner.trySubmit("awaited", priority: .background) { 7 }
        let waiting = try outer.trySubmit("waiting", priority: .utility) { () async throws(JobError<Never>) -> Int in
            try await awaited.value
        }
        // The wait has begun once it lends the awaited job its level (the waiting job's worker runs at utility).
        var rounds = 0
        while awaited.effectivePriority == .background, rounds < 1_000_000 {
            rounds += 1
            await Task.yield()
        }
        #expect(awaited.effectivePriority == .utility)
        let visible = Task(priority: .high) { try await waiting.value }
        rounds = 0
        while awaited.effectivePriority == .utility, rounds < 1_000_000 {
            rounds += 1
            await Task.yield()
        }
        #expect(waiting.effectivePriority == .userInitiated)
        #expect(awaited.effectivePriority == .userInitiated)
        inner.resume()
        #expect(try await visible.value == 7)
    }

    @Test("awaiting a job that needs the awaiting job's slot reports a deadlock naming both")
    func deadlockReported() async throws {
        let queue = WorkQueue(name: "serial", width: 1)
        let outer = try queue.trySubmit("outer") { () async throws(JobError<Never>) -> Int in
            let inner = try! queue.trySubmit("inner") { 1 }
            return try await inner.value
        }
        let result = await outer.result
        guard case .failure(.failed(.wouldDeadlock(let report))) = result else {
            Issue.record("expected a deadlock report, got \(result)")
            return
        }
        #expect(report.waitingJob == "outer")
        #expect(report.awaitedJob == "inner")
        #expect(report.domain == "serial")
        await queue.waitUntilIdle()
    }

    @Test("awaiting a job in another domain, or with a free slot, is not a deadlock")
    func noFalseDeadlock() async throws {
        let queue = WorkQueue(name: "wide", width: 2)
        let outer = try queue.trySubmit("outer") { () async throws(JobError<Never>) -> Int in
            let inner = try! queue.trySubmit("inner") { 1 }
            return try await inner.value
        }
        #expect(try await outer.value == 1)
    }
}
