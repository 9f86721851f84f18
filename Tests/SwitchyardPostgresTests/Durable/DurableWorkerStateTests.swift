#if Postgres
    @testable import SwitchyardPostgres
    import SwitchyardTesting
    import Testing

    /// The worker's bookkeeping as a pure value: no threads, no database.
    @Suite("DurableWorkerState")
    struct DurableWorkerStateTests {
        typealias State = DurableWorkerState
        typealias Completion = DurableWorkerState.Completion

        struct Boom: Error, CustomStringConvertible {
            var description: String { "boom" }
        }

        /// Counts the calls of the cancellers it makes.
        final class Calls: Sendable {
            private let count = LockedState(0)

            var canceller: @Sendable () -> Void {
                { self.count.withLock { $0 += 1 } }
            }

            var value: Int { count.withLock { $0 } }
        }

        /// A state with job 1's attempt 1 running, its task attached, and stopped for `reason` (nil: not stopped).
        static func running(stoppedFor reason: State.StopReason?) -> State {
            var state = State(concurrency: 4)
            state.claimed(1, attempt: 1)
            _ = state.attach({}, to: 1, attempt: 1)
            if let reason { _ = state.stop(1, reason) }
            return state
        }

        /// The completion of job 1's attempt 1 stopped for `reason`, ended with `result`.
        static func completion(
            _ reason: State.StopReason?, _ result: Result<String, any Error>, completedInTransaction: Bool = false
        ) -> Completion? {
            running(stoppedFor: reason).completion(
                1, attempt: 1, result: result, completedInTransaction: completedInTransaction, timeout: .seconds(5))
        }

        @Test("a stop after attach returns the canceller; a later stop returns nothing and keeps the first reason")
        func stopAfterAttach() {
            var state = State(concurrency: 2)
            let calls = Calls()
            state.claimed(1, attempt: 1)
            let attachReturned = state.attach(calls.canceller, to: 1, attempt: 1) != nil
            #expect(!attachReturned, "not stopped yet: nothing to cancel at once")
            let canceller = state.stop(1, .timedOut)
            let returned = canceller != nil
            #expect(returned)
            canceller?()
            #expect(calls.value == 1)
            let again = state.stop(1, .requested) != nil
            #expect(!again)
            #expect(state.stopReason(1) == .timedOut)
        }

        @Test("a stop before the task exists returns nothing; attach then returns the canceller to call at once")
        func stopBeforeAttach() {
            var state = State(concurrency: 2)
            let calls = Calls()
            state.claimed(1, attempt: 1)
            let early = state.stop(1, .requested) != nil
            #expect(!early)
            #expect(state.stopReason(1) == .requested)
            let fromAttach = state.attach(calls.canceller, to: 1, attempt: 1)
            let returned = fromAttach != nil
            #expect(returned)
            fromAttach?()
            #expect(calls.value == 1)
        }

        @Test("stop and attach ignore jobs not running here")
        func unknownJobs() {
            var state = State(concurrency: 2)
            let stopped = state.stop(7, .requested) != nil
            let attached = state.attach({}, to: 7, attempt: 1) != nil
            #expect(!stopped && !attached)
            #expect(state.stopReason(7) == nil)
            #expect(state.running.isEmpty)
        }

        @Test("the first stop reason wins; stopAll cancels only the attempts not stopped yet")
        func firstReasonWins() {
            var state = State(concurrency: 4)
            let first = Calls()
            let second = Calls()
            state.claimed(1, attempt: 1)
            state.claimed(2, attempt: 1)
            _ = state.attach(first.canceller, to: 1, attempt: 1)
            _ = state.attach(second.canceller, to: 2, attempt: 1)
            state.stop(1, .timedOut)?()
            let cancellers = state.stopAll(.shutdown)
            #expect(cancellers.count == 1)
            cancellers.forEach { $0() }
            #expect(first.value == 1 && second.value == 1)
            #expect(state.stopReason(1) == .timedOut)
            #expect(state.stopReason(2) == .shutdown)
        }

        @Test("renewed: an id missing from the answer lost its lease, cancel=true asks for a stop")
        func renewal() {
            var state = State(concurrency: 4)
            let calls: [Int64: Calls] = [1: Calls(), 2: Calls(), 3: Calls()]
            for id: Int64 in 1...3 {
                state.claimed(id, attempt: 1)
                _ = state.attach(calls[id]!.canceller, to: id, attempt: 1)
            }
            let cancellers = state.renewed(
                sent: [key(1), key(2), key(3)],
                answered: [(id: 1, attempt: 1, cancel: false), (id: 2, attempt: 1, cancel: true)])
            #expect(cancellers.count == 2)
            cancellers.forEach { $0() }
            #expect(calls[1]!.value == 0 && calls[2]!.value == 1 && calls[3]!.value == 1)
            #expect(state.stopReason(1) == nil)
            #expect(state.stopReason(2) == .requested)
            #expect(state.stopReason(3) == .leaseLost)
            // An attempt that lost its lease is not renewed any more; the stopped ones are not stopped twice.
            #expect(state.renewals().map(\.id).sorted() == [1, 2])
            let again = state.renewed(
                sent: [key(1), key(2)],
                answered: [(id: 1, attempt: 1, cancel: false), (id: 2, attempt: 1, cancel: true)])
            #expect(again.isEmpty)
        }

        @Test("attempts are told apart: an answer for attempt 1 never stops attempt 2 of the same job")
        func attemptsOfOneJob() {
            var state = State(concurrency: 4)
            let first = Calls()
            let second = Calls()
            state.claimed(1, attempt: 1)
            _ = state.attach(first.canceller, to: 1, attempt: 1)
            // Attempt 1 lost its lease and winds down while this worker claims the job again.
            state.renewed(sent: [key(1)], answered: []).forEach { $0() }
            state.claimed(1, attempt: 2)
            _ = state.attach(second.canceller, to: 1, attempt: 2)
            #expect(first.value == 1 && second.value == 0)
            #expect(state.freeSlots == 2, "both attempts hold a slot until they end")
            state.ended(1, attempt: 1, completion: nil)
            #expect(state.renewals().map(\.attempt) == [2], "attempt 2 is still renewed")
            #expect(state.renewed(sent: [key(1, 2)], answered: [(id: 1, attempt: 2, cancel: false)]).isEmpty)
            #expect(second.value == 0)
        }

        @Test("an attempt that completed the job in its transaction is neither renewed nor stopped as lost")
        func completedInTransaction() {
            var state = State(concurrency: 2)
            let calls = Calls()
            state.claimed(1, attempt: 1)
            _ = state.attach(calls.canceller, to: 1, attempt: 1)
            state.completedInTransaction(1, attempt: 1)
            #expect(state.renewals().isEmpty)
            #expect(state.renewed(sent: [key(1)], answered: []).isEmpty)
            #expect(calls.value == 0)
        }

        @Test("an ended attempt's lease is renewed until its outcome is written")
        func unwrittenOutcomesKeepTheirLease() {
            var state = State(concurrency: 2)
            state.claimed(1, attempt: 1)
            state.progress(1, attempt: 1, completed: 5, total: 5)
            state.ended(1, attempt: 1, completion: Completion(id: 1, attempt: 1, outcome: 0, output: "1", error: ""))
            #expect(state.renewals().map(\.id) == [1] && state.renewals().first?.completed == 5)
            _ = state.takeCompletions(10)
            #expect(state.renewals().isEmpty)
        }

        private func key(_ id: Int64, _ attempt: Int32 = 1) -> State.AttemptKey { .init(id: id, attempt: attempt) }

        @Test("progress is kept for the attempt that reported it and renewed with it")
        func progress() {
            var state = State(concurrency: 2)
            state.claimed(1, attempt: 2)
            state.progress(1, attempt: 1, completed: 9, total: 9)  // an older attempt's report: ignored
            state.progress(1, attempt: 2, completed: 3, total: 10)
            let renewal = state.renewals()
            #expect(renewal.count == 1)
            #expect(renewal.first?.attempt == 2 && renewal.first?.completed == 3 && renewal.first?.total == 10)
        }

        @Test("completion by stop reason: requested 3, timed out 1, shutdown 4, lease lost nothing")
        func completionByReason() {
            #expect(
                Self.completion(.requested, .failure(Boom()))
                    == Completion(id: 1, attempt: 1, outcome: 3, output: "", error: "cancelled while running"))
            let timedOut = Self.completion(.timedOut, .failure(CancellationError()))
            #expect(timedOut?.outcome == 1)
            #expect(timedOut?.error.hasPrefix("timed out") == true, "\(String(describing: timedOut))")
            #expect(
                Self.completion(.shutdown, .failure(CancellationError()))
                    == Completion(id: 1, attempt: 1, outcome: 4, output: "", error: ""))
            #expect(Self.completion(.leaseLost, .failure(CancellationError())) == nil)
            #expect(Self.completion(.leaseLost, .success("\"late\"")) == nil, "the job is another worker's now")
        }

        @Test("completion by result: success 0, error 1, permanent error 2, stale attempt and completed nothing")
        func completionByResult() {
            #expect(
                Self.completion(nil, .success("{\"a\":1}"))
                    == Completion(id: 1, attempt: 1, outcome: 0, output: "{\"a\":1}", error: ""))
            #expect(
                Self.completion(nil, .failure(Boom()))
                    == Completion(id: 1, attempt: 1, outcome: 1, output: "", error: "boom"))
            #expect(
                Self.completion(nil, .failure(PermanentJobError("does not decode")))
                    == Completion(id: 1, attempt: 1, outcome: 2, output: "", error: "does not decode"))
            #expect(Self.completion(nil, .failure(DurableError(.staleAttempt, jobID: 1, "stale"))) == nil)
            #expect(Self.completion(nil, .success("\"done\""), completedInTransaction: true) == nil)
            // A success that raced a cancellation request is still a success.
            #expect(Self.completion(.requested, .success("1"))?.outcome == 0)
        }

        @Test("free slots: concurrency minus running, 0 while draining")
        func freeSlots() {
            var state = State(concurrency: 2)
            #expect(state.freeSlots == 2)
            state.claimed(1, attempt: 1)
            state.claimed(2, attempt: 1)
            #expect(state.freeSlots == 0)
            state.ended(1, attempt: 1, completion: nil)
            #expect(state.freeSlots == 1 && state.running.count == 1)
            state.beginDrain()
            #expect(state.isDraining)
            #expect(state.freeSlots == 0)
        }

        @Test("completions are taken oldest first; put back ahead of newer ones")
        func takeAndPutBack() {
            var state = State(concurrency: 8)
            let made = (1...4).map { Completion(id: Int64($0), attempt: 1, outcome: 0, output: "\($0)", error: "") }
            for completion in made.prefix(3) {
                state.claimed(completion.id, attempt: 1)
                state.ended(completion.id, attempt: 1, completion: completion)
            }
            state.claimed(9, attempt: 1)
            state.ended(9, attempt: 1, completion: nil)  // nothing to report
            let taken = state.takeCompletions(2)
            #expect(taken == Array(made[0..<2]))
            state.claimed(4, attempt: 1)
            state.ended(4, attempt: 1, completion: made[3])
            state.putBack(taken)
            let all = state.takeCompletions(10)
            #expect(all == made)
            let none = state.takeCompletions(10)
            #expect(none.isEmpty)
            #expect(state.running.isEmpty)
        }
    }
#endif
