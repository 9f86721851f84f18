import Foundation
import Switchyard
import Testing

private enum Trace {
    @TaskLocal static var requestID: String?
}

@Suite("Cancellation, groups, barriers, task-locals")
struct CancellationTests {
    @Test("a cancelled pending job never runs and frees its bookkeeping at once")
    func pendingCancel() async throws {
        let queue = WorkQueue(name: "pending", width: 1)
        queue.suspend()
        let ran = SharedFlag()
        let job = try queue.trySubmit("victim") { ran.set(true) }
        #expect(queue.counts.pending == 1)
        job.cancel()
        #expect(job.state == .cancelled)
        #expect(queue.counts.pending == 0)
        #expect(queue.counts.cancelled == 1)
        #expect(queue.snapshot().jobs.isEmpty)
        queue.resume()
        await queue.waitUntilIdle()
        #expect(!ran.value)
        guard case .failure(.cancelled) = await job.result else {
            Issue.record("expected cancelled")
            return
        }
    }

    @Test("a running job's task is cancelled; a thrown error then reports cancelled")
    func runningCancel() async throws {
        let queue = WorkQueue(name: "running", width: 1)
        let started = Arrivals()
        let job = try queue.trySubmit("sleeper") {
            started.arrive()
            try await Task.sleep(for: .seconds(600))
        }
        await started.wait(for: 1)
        job.cancel()
        guard case .failure(.cancelled) = await job.result else {
            Issue.record("expected cancelled")
            return
        }
    }

    @Test("cancelAll cancels pending and running jobs")
    func cancelAll() async throws {
        let queue = WorkQueue(name: "all", width: 1)
        let started = Arrivals()
        let running = try queue.trySubmit("running") {
            started.arrive()
            try await Task.sleep(for: .seconds(600))
        }
        let pending = (0..<5).map { index in try? queue.trySubmit("pending \(index)") {} }
        await started.wait(for: 1)
        queue.cancelAll()
        await queue.waitUntilIdle()
        #expect(queue.counts.cancelled == 6)
        #expect(running.state == .cancelled)
        #expect(pending.allSatisfy { $0?.state == .cancelled })
    }

    @Test("cancelling a group cancels its jobs and later members")
    func groupCancel() async throws {
        let queue = WorkQueue(name: "group", width: 1)
        queue.suspend()
        let group = JobGroup(name: "batch")
        let members = try (0..<3).map { index in
            try queue.trySubmit("member \(index)", options: JobOptions(group: group)) {}
        }
        let outsider = try queue.trySubmit("outsider") { 5 }
        group.cancel()
        let late = try queue.trySubmit("late", options: JobOptions(group: group)) {}
        queue.resume()
        #expect(try await outsider.value == 5)
        await group.wait()
        #expect(members.allSatisfy { $0.state == .cancelled })
        #expect(late.state == .cancelled)
    }

    @Test("group wait, notify and a blocking wait from a thread")
    func groupWaiting() async throws {
        let queue = WorkQueue(name: "waits", width: 2)
        let group = JobGroup(name: "work")
        let gate = AsyncGate()
        for index in 0..<4 {
            try queue.trySubmit("job \(index)", options: JobOptions(group: group)) { await gate.wait() }
        }
        #expect(group.count == 4)
        let notified = Arrivals()
        group.notify(on: .task()) { notified.arrive() }
        #expect(!group.waitBlocking(timeout: .milliseconds(1)))
        let blockingResult = Log<Bool>()
        let threadDone = Arrivals()
        Thread.detachNewThread {
            blockingResult.append(group.waitBlocking())
            threadDone.arrive()
        }
        gate.open()
        await group.wait()
        await notified.wait(for: 1)
        await threadDone.wait(for: 1)
        #expect(blockingResult.all == [true])
        #expect(group.count == 0)
        #expect(group.waitBlocking(timeout: .zero))
    }

    @Test("a barrier runs after everything before it and before everything after it")
    func barrier() async throws {
        let queue = WorkQueue(name: "barrier", width: 4)
        let log = Log<String>()
        let gate = AsyncGate()
        for index in 0..<3 {
            try queue.trySubmit("before \(index)") {
                await gate.wait()
                log.append("before")
            }
        }
        let barrier = try queue.trySubmit("barrier", options: .init().barrier()) { log.append("barrier") }
        for _ in 0..<3 { try queue.trySubmit("after") { log.append("after") } }
        #expect(queue.snapshot().jobs.first { $0.name == "barrier" }?.waitingReasons == [.earlierJobs(3)])
        gate.open()
        try await barrier.value
        await queue.waitUntilIdle()
        #expect(log.all == ["before", "before", "before", "barrier", "after", "after", "after"])
    }

    @Test("the job sees JobContext and the propagated task-locals, nothing else")
    func taskLocals() async throws {
        let queue = WorkQueue(name: "locals", width: 1, propagating: [.value(Trace.$requestID)])
        let plain = WorkQueue(name: "plain", width: 1)
        let job = try Trace.$requestID.withValue("req-42") {
            try queue.trySubmit("traced") { () -> (String?, String?) in
                (Trace.requestID, JobContext.current?.name)
            }
        }
        let untraced = try Trace.$requestID.withValue("req-43") {
            try plain.trySubmit("untraced") { Trace.requestID }
        }
        let (traced, name) = try await job.value
        #expect(traced == "req-42")
        #expect(name == "traced")
        #expect(try await untraced.value == nil)
        #expect(JobContext.current == nil)
    }

    @Test("completion handlers are delivered where the caller says, exactly once")
    func completionDelivery() async throws {
        let queue = WorkQueue(name: "completion", width: 1)
        let job = try queue.trySubmit("value") { 9 }
        let received = Log<Int>()
        let arrivals = Arrivals()
        job.onCompletion(on: .executor(BlockingExecutor.shared)) { result in
            if case .success(let value) = result { received.append(value) }
            arrivals.arrive()
        }
        await arrivals.wait(for: 1)
        job.onCompletion { result in
            if case .success(let value) = result { received.append(value) }
            arrivals.arrive()
        }
        await arrivals.wait(for: 2)
        #expect(received.all == [9, 9])
    }
}
