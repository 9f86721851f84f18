import Dispatch
import SwitchyardTesting
import Testing

@testable import Switchyard

private struct Refused: Error {}

/// Completes later on another thread, as an event loop or a callback API would.
private func completeElsewhere(_ body: @escaping @Sendable () -> Void) {
    DispatchQueue.global().async(execute: body)
}

@Suite("Self-completing jobs: the attempt's state machine, without threads")
struct SelfCompletingAttemptStateTests {
    @Test("a handler installed before the cancellation runs once, when it comes")
    func cancelAfterInstall() {
        var state = SelfCompletingAttemptState()
        let runs = SharedCounter()
        let immediate = state.install { runs.add() }
        #expect(immediate == nil)
        state.cancel()?()
        #expect(runs.value == 1)
        let again = state.cancel()
        #expect(again == nil)
        #expect(state.isCancelled)
    }

    @Test("a handler installed after the cancellation is returned to run at once")
    func installAfterCancel() {
        var state = SelfCompletingAttemptState()
        let none = state.cancel()
        #expect(none == nil)
        let runs = SharedCounter()
        state.install { runs.add() }?()
        #expect(runs.value == 1)
    }

    @Test("after the completion nothing is cancelled and a second completion is refused")
    func completion() {
        var state = SelfCompletingAttemptState()
        _ = state.install {}
        let claimed = state.claim()
        let first = state.complete(.success)
        let cancel = state.cancel()
        let installed = state.install {}
        let claimedAgain = state.claim()
        let second = state.complete(.success)
        #expect(claimed && first == .now)
        #expect(cancel == nil && installed == nil)
        #expect(!claimedAgain && second == .ignored)
    }

    @Test("a completion while start runs is deferred to start's caller")
    func deferredWhileStarting() {
        var state = SelfCompletingAttemptState()
        state.beginStart()
        let claimed = state.claim()
        let completion = state.complete(.failure(Refused()))
        #expect(claimed && completion == .deferred)
        guard case .failure(let error) = state.endStart() else {
            Issue.record("no deferred end")
            return
        }
        #expect(error is Refused)
        let again = state.endStart()
        #expect(again == nil)
    }

    @Test("a completion after start returned is carried out at once")
    func completionAfterStart() {
        var state = SelfCompletingAttemptState()
        state.beginStart()
        let deferred = state.endStart()
        let claimed = state.claim()
        let completion = state.complete(.success)
        #expect(deferred == nil && claimed && completion == .now)
    }
}

@Suite("Self-completing jobs: Coalescer.value(for:start:)", .timeLimit(.minutes(1)))
struct JobCompletionTests {
    @Test("callers of one key share one start; the value comes from the thread that completes it")
    func sharedStart() async throws {
        let queue = WorkQueue(name: "self-completing", width: 2)
        let coalescer = Coalescer<String, Int>(queue: queue)
        let starts = SharedCounter()
        let pending = Log<JobCompletion<Int, any Error>>()
        let callers = (0..<5).map { _ in
            Task {
                try await coalescer.value(for: "a") { _, completion in
                    starts.add()
                    pending.append(completion)
                }
            }
        }
        while coalescer.waiterCount(for: "a") < 5 || pending.all.isEmpty { await Task.yield() }
        #expect(queue.counts.running == 1)
        let completion = pending.all[0]
        completeElsewhere { completion.succeed(42) }
        for caller in callers { #expect(try await caller.value == 42) }
        #expect(starts.value == 1)
        await queue.waitUntilIdle()
        #expect(queue.counts.running == 0)
    }

    @Test("the job holds its slot until completed: the next one starts only then")
    func holdsSlot() async throws {
        let queue = WorkQueue(name: "one slot", width: 1)
        let coalescer = Coalescer<Int, Int>(queue: queue)
        let pending = Log<(Int, JobCompletion<Int, any Error>)>()
        let first = Task { try await coalescer.value(for: 1) { key, completion in pending.append((key, completion)) } }
        while pending.all.isEmpty { await Task.yield() }
        let second = Task { try await coalescer.value(for: 2) { key, completion in pending.append((key, completion)) } }
        while queue.counts.pending == 0 { await Task.yield() }
        #expect(pending.all.count == 1)
        pending.all[0].1.succeed(10)
        #expect(try await first.value == 10)
        while pending.all.count < 2 { await Task.yield() }
        #expect(pending.all[1].0 == 2)
        pending.all[1].1.fail(Refused())
        await #expect(throws: JobError<any Error>.self) { try await second.value }
    }

    @Test("one caller leaving does not cancel; the last one runs the cancel handler once")
    func referenceCounting() async throws {
        let queue = WorkQueue(name: "refcount", width: 1)
        let coalescer = Coalescer<Int, Int>(queue: queue)
        let cancels = SharedCounter()
        let pending = Log<JobCompletion<Int, any Error>>()
        let start: @Sendable (Int, JobCompletion<Int, any Error>) -> Void = { _, completion in
            completion.onCancel { cancels.add() }
            pending.append(completion)
        }
        let first = Task { try await coalescer.value(for: 1, start: start) }
        let second = Task { try await coalescer.value(for: 1, start: start) }
        while coalescer.waiterCount(for: 1) < 2 || pending.all.isEmpty { await Task.yield() }
        first.cancel()
        await #expect(throws: JobError<any Error>.self) { try await first.value }
        #expect(cancels.value == 0)
        second.cancel()
        await #expect(throws: JobError<any Error>.self) { try await second.value }
        while cancels.value == 0 { await Task.yield() }
        #expect(pending.all[0].isCancelled)
        #expect(queue.counts.running == 1)  // cancelled, still running until completed
        pending.all[0].fail(CancellationError())
        await queue.waitUntilIdle()
        #expect(cancels.value == 1)
        #expect(coalescer.inFlightCount == 0)
    }

    @Test("a completion made inside start, and a second completion, are handled")
    func synchronousCompletion() async throws {
        let queue = WorkQueue(name: "synchronous", width: 1)
        let coalescer = Coalescer<Int, Int>(queue: queue)
        let value = try await coalescer.value(for: 7) { key, completion in
            completion.succeed(key * 3)
            completion.succeed(-1)  // ignored
            completion.fail(Refused())  // ignored
        }
        #expect(value == 21)
        await #expect(throws: JobError<any Error>.self) {
            try await coalescer.value(for: 8) { _, completion in completion.fail(Refused()) }
        }
        await queue.waitUntilIdle()
        #expect(queue.counts.running == 0)
    }

    @Test("start runs after the coalescer's lock, on a bounded queue too: it may use the coalescer")
    func startOutsideTheLock() async throws {
        for maximumPending in [nil, 4] as [Int?] {
            let queue = WorkQueue(name: "bounded", width: 1, maximumPending: maximumPending)
            let coalescer = Coalescer<Int, Int>(queue: queue)
            let value = try await coalescer.value(for: 3) { key, completion in
                // The coalescer's lock is not re-entrant: this deadlocked while start ran under it.
                completion.succeed(coalescer.waiterCount(for: key) * 10 + coalescer.inFlightCount)
            }
            #expect(value == 11)
        }
    }

    @Test("random completions, cancels and cancelAll: every caller ends, nothing is left running")
    func randomTraffic() async throws {
        var random = SeededRandomNumberGenerator.forTest("JobCompletionTests")
        let queue = WorkQueue(name: "self-completing stress", width: 3)
        let coalescer = Coalescer<Int, Int>(queue: queue)
        var values = 0
        for _ in 0..<30 {
            let callers = (0..<20).map { _ in
                let key = Int.random(in: 0..<5, using: &random)
                let inline = Bool.random(using: &random)
                return (
                    key,
                    Task { () throws(JobError<any Error>) -> Int in
                        try await coalescer.value(for: key) { key, completion in
                            if inline { return completion.succeed(key * 2) }
                            completion.onCancel { completeElsewhere { completion.fail(CancellationError()) } }
                            completeElsewhere { completion.succeed(key * 2) }
                        }
                    }
                )
            }
            for (_, caller) in callers where Int.random(in: 0..<4, using: &random) == 0 { caller.cancel() }
            if Int.random(in: 0..<4, using: &random) == 0 { queue.cancelAll() }
            for (key, caller) in callers {
                if case .success(let value) = await caller.result {
                    #expect(value == key * 2)
                    values += 1
                }
            }
            await queue.waitUntilIdle()
            #expect(coalescer.inFlightCount == 0)
            #expect(queue.snapshot().jobs.isEmpty)
        }
        print("JobCompletionTests: \(values) of 600 callers got a value")
    }
}

@Suite("Self-completing jobs: WorkQueue.trySubmitSelfCompleting", .timeLimit(.minutes(1)))
struct SelfCompletingSubmitTests {
    @Test("the job holds its slot until completed elsewhere; its value and error reach the waiter")
    func holdsSlotThenCompletes() async throws {
        let queue = WorkQueue(name: "self-completing submit", width: 1)
        let pending = Log<JobCompletion<Int, Refused>>()
        let first = try queue.trySubmitSelfCompleting("first") { (completion: JobCompletion<Int, Refused>) in
            pending.append(completion)
        }
        let second = try queue.trySubmitSelfCompleting("second") { (completion: JobCompletion<Int, Refused>) in
            pending.append(completion)
        }
        #expect(pending.all.count == 1)  // started on this thread, at once: a slot was free
        #expect(queue.counts.running == 1 && queue.counts.pending == 1)
        let completion = pending.all[0]
        completeElsewhere { completion.succeed(5) }
        #expect(try await first.value == 5)
        while pending.all.count < 2 { await Task.yield() }
        pending.all[1].fail(Refused())
        await #expect(throws: JobError<Refused>.self) { try await second.value }
        await queue.waitUntilIdle()
        #expect(queue.counts.running == 0)
    }

    @Test("cancelling runs the handler once; a job cancelled before it starts never calls start")
    func cancellation() async throws {
        let queue = WorkQueue(name: "self-completing cancel", width: 1)
        let cancels = SharedCounter()
        let starts = SharedCounter()
        let pending = Log<JobCompletion<Int, any Error>>()
        let start: @Sendable (JobCompletion<Int, any Error>) -> Void = { completion in
            starts.add()
            completion.onCancel {
                if completion.isCancelled { cancels.add() }
                completeElsewhere { completion.fail(CancellationError()) }
            }
            pending.append(completion)
        }
        let running = try queue.trySubmitSelfCompleting("running", start: start)
        let waiting = try queue.trySubmitSelfCompleting("waiting", start: start)
        waiting.cancel()
        running.cancel()
        await #expect(throws: JobError<any Error>.self) { try await running.value }
        await #expect(throws: JobError<any Error>.self) { try await waiting.value }
        await queue.waitUntilIdle()
        #expect(starts.value == 1 && cancels.value == 1)
        #expect(pending.all.count == 1)
    }

    @Test("a completion made inside start is carried out; later ones are ignored")
    func completionInsideStart() async throws {
        let queue = WorkQueue(name: "self-completing inline", width: 2)
        let jobs = try (0..<50).map { index in
            try queue.trySubmitSelfCompleting("inline \(index)") { (completion: JobCompletion<Int, Never>) in
                completion.succeed(index)
                completion.succeed(-1)
            }
        }
        for (index, job) in jobs.enumerated() { #expect(try await job.value == index) }
        await queue.waitUntilIdle()
        #expect(queue.counts.running == 0)
    }
}
