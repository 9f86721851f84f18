import Switchyard
import Testing

@Suite("WorkQueue scheduling: order, priority, width, limit domains")
struct WorkQueueSchedulingTests {
    @Test("equal priorities start in submission order")
    func fifoAmongEqualPriorities() async throws {
        let queue = WorkQueue(name: "fifo", width: 1)
        let log = Log<Int>()
        queue.suspend()
        for index in 0..<50 { try queue.trySubmit("job \(index)") { log.append(index) } }
        queue.resume()
        await queue.waitUntilIdle()
        #expect(log.all == Array(0..<50))
    }

    @Test("higher priority starts first; FIFO within each level")
    func priorityOrder() async throws {
        let queue = WorkQueue(name: "priorities", width: 1)
        let log = Log<String>()
        queue.suspend()
        let plan: [(String, JobPriority)] = [
            ("b1", .background), ("m1", .medium), ("h1", .userInitiated), ("m2", .medium), ("b2", .background),
            ("i1", .userInteractive), ("h2", .userInitiated), ("u1", .utility),
        ]
        for (name, priority) in plan { try queue.trySubmit(name, priority: priority) { log.append(name) } }
        queue.resume()
        await queue.waitUntilIdle()
        #expect(log.all == ["i1", "h1", "h2", "m1", "m2", "u1", "b1", "b2"])
    }

    @Test("changing a pending job's priority re-files it at the back of its new level")
    func priorityChange() async throws {
        let queue = WorkQueue(name: "reprioritize", width: 1)
        let log = Log<String>()
        queue.suspend()
        let a = try queue.trySubmit("a") { log.append("a") }
        try queue.trySubmit("b", priority: .userInitiated) { log.append("b") }
        let c = try queue.trySubmit("c") { log.append("c") }
        c.priority = .userInitiated
        a.priority = .background
        #expect(c.effectivePriority == .userInitiated)
        queue.resume()
        await queue.waitUntilIdle()
        #expect(log.all == ["b", "c", "a"])
    }

    @Test("never more than width running; the rest report waiting for a slot")
    func widthIsRespected() async throws {
        let queue = WorkQueue(name: "width", width: 3)
        let gate = AsyncGate()
        let started = Arrivals()
        let running = SharedCounter()
        let peak = SharedCounter()
        for index in 0..<12 {
            try queue.trySubmit("job \(index)") {
                peak.raise(to: running.add())
                started.arrive()
                await gate.wait()
                running.subtract()
            }
        }
        await started.wait(for: 3)
        let snapshot = queue.snapshot()
        #expect(snapshot.counts.running == 3)
        #expect(snapshot.counts.ready == 9)
        let waiting = snapshot.jobs.filter { $0.state == .ready }
        #expect(waiting.count == 9)
        #expect(
            waiting.allSatisfy {
                $0.waitingReasons == [.slot(priority: .medium, domain: "width", running: 3, width: 3)]
            })
        gate.open()
        await queue.waitUntilIdle()
        #expect(peak.value == 3)
        #expect(queue.counts.succeeded == 12)
    }

    @Test("widening starts waiting jobs at once; narrowing interrupts nothing")
    func widthChanges() async throws {
        let queue = WorkQueue(name: "resizable", width: 1)
        let gate = AsyncGate()
        let started = Arrivals()
        for index in 0..<6 {
            try queue.trySubmit("job \(index)") {
                started.arrive()
                await gate.wait()
            }
        }
        await started.wait(for: 1)
        #expect(queue.counts.running == 1)
        queue.width = 4
        await started.wait(for: 4)
        #expect(queue.counts.running == 4)
        queue.width = 1
        #expect(queue.counts.running == 4)  // none interrupted
        #expect(queue.counts.ready == 2)
        gate.open()
        await queue.waitUntilIdle()
        #expect(queue.counts.succeeded == 6)
    }

    @Test("queues in one limit domain share its width")
    func sharedLimitDomain() async throws {
        let domain = LimitDomain(name: "io", width: 2)
        let first = WorkQueue(name: "first", width: 2, limit: domain)
        let second = WorkQueue(name: "second", width: 2, limit: domain)
        let gate = AsyncGate()
        let started = Arrivals()
        let running = SharedCounter()
        let peak = SharedCounter()
        for index in 0..<8 {
            let queue = index.isMultiple(of: 2) ? first : second
            try queue.trySubmit("job \(index)") {
                peak.raise(to: running.add())
                started.arrive()
                await gate.wait()
                running.subtract()
            }
        }
        await started.wait(for: 2)
        #expect(domain.runningCount == 2)
        let reasons = first.snapshot().jobs.filter { $0.state == .ready }.flatMap(\.waitingReasons)
        #expect(reasons.allSatisfy { $0 == .slot(priority: .medium, domain: "io", running: 2, width: 2) })
        gate.open()
        await first.waitUntilIdle()
        await second.waitUntilIdle()
        #expect(peak.value == 2)
    }

    @Test("siblings offering the same priority take weighted turns")
    func weightedRoundRobin() async throws {
        let domain = LimitDomain(name: "shared", width: 1)
        let heavy = WorkQueue(name: "heavy", width: 4, limit: domain, weight: 2)
        let light = WorkQueue(name: "light", width: 4, limit: domain, weight: 1)
        let gate = AsyncGate()
        let started = Arrivals()
        let blocker = WorkQueue(name: "blocker", width: 1, limit: domain)
        try blocker.trySubmit("hold the slot") {
            started.arrive()
            await gate.wait()
        }
        await started.wait(for: 1)
        let log = Log<String>()
        for index in 0..<6 {
            try heavy.trySubmit("h\(index)") { log.append("h") }
            try light.trySubmit("l\(index)") { log.append("l") }
        }
        gate.open()
        await heavy.waitUntilIdle()
        await light.waitUntilIdle()
        #expect(log.all.joined() == "hhlhhlhhllll")
    }

    @Test("nested domains: a job needs a slot at every level")
    func nestedDomains() async throws {
        let root = LimitDomain(name: "root", width: 3)
        let inner = LimitDomain(name: "inner", width: 1, parent: root)
        let a = WorkQueue(name: "a", width: 4, limit: inner)
        let b = WorkQueue(name: "b", width: 4, limit: root)
        let gate = AsyncGate()
        let started = Arrivals()
        for index in 0..<4 {
            try a.trySubmit("a\(index)") {
                started.arrive()
                await gate.wait()
            }
        }
        for index in 0..<4 {
            try b.trySubmit("b\(index)") {
                started.arrive()
                await gate.wait()
            }
        }
        await started.wait(for: 3)
        #expect(root.runningCount == 3)
        #expect(inner.runningCount == 1)
        #expect(a.counts.running == 1)
        #expect(b.counts.running == 2)
        gate.open()
        await a.waitUntilIdle()
        await b.waitUntilIdle()
    }

    @Test("a suspended queue starts nothing and says so")
    func suspension() async throws {
        let queue = WorkQueue(name: "paused", width: 2)
        queue.suspend()
        let job = try queue.trySubmit("waits") { 42 }
        #expect(queue.snapshot().jobs.first?.waitingReasons == [.queueSuspended("paused")])
        #expect(job.state == .ready)
        queue.resume()
        #expect(try await job.value == 42)
    }

    @Test("blocking jobs run on the blocking executor's threads")
    func blockingJobs() async throws {
        let queue = WorkQueue(name: "blocking", width: 2)
        let job = try queue.trySubmitBlocking("read") { () -> String in currentThreadName() }
        #expect(try await job.value.hasPrefix("sy-blocking-"))
    }
}
