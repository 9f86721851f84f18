import Switchyard
import Testing

@Suite("Back-pressure: a bound on pending jobs")
struct BackPressureTests {
    @Test("trySubmit throws full at the bound; room returns when a pending job starts or is cancelled")
    func trySubmitAtTheBound() async throws {
        let queue = WorkQueue(name: "bounded", width: 1, maximumPending: 2, whenFull: .reject)
        queue.suspend()
        let first = try queue.trySubmit("1") {}
        try queue.trySubmit("2") {}
        #expect {
            try queue.trySubmit("3") {}
        } throws: { ($0 as? SubmissionError)?.code == .full }
        await #expect(throws: SubmissionError.self) { try await queue.submit("3") {} }
        first.cancel()
        try queue.trySubmit("3") {}
        queue.resume()
        await queue.waitUntilIdle()
    }

    @Test("submit suspends until there is room")
    func submitSuspends() async throws {
        let queue = WorkQueue(name: "suspending", width: 1, maximumPending: 1)
        queue.suspend()
        try queue.trySubmit("first") {}
        let log = Log<Int>()
        let entered = Arrivals()
        let submitters = (0..<3).map { index in
            Task {
                entered.arrive()
                try await queue.submit("waiter \(index)") { log.append(index) }
            }
        }
        await entered.wait(for: 3)
        #expect(queue.counts.pending == 1)
        queue.resume()
        for submitter in submitters { _ = try await submitter.value }
        await queue.waitUntilIdle()
        #expect(queue.counts.succeeded == 4)
    }

    @Test("a submitter cancelled while waiting for room throws cancelled and submits nothing")
    func cancelledSubmitter() async throws {
        let queue = WorkQueue(name: "cancel waiting", width: 1, maximumPending: 1)
        queue.suspend()
        try queue.trySubmit("first") {}
        let submitter = Task { try await queue.submit("never") {} }
        submitter.cancel()
        await #expect {
            try await submitter.value
        } throws: { ($0 as? SubmissionError)?.code == .cancelled }
        #expect(queue.counts.pending == 1)
        queue.resume()
        await queue.waitUntilIdle()
        #expect(queue.counts.succeeded == 1)
    }
}
