import Testing

@testable import Switchyard

@Suite("Engine: waits for a job")
struct WaitingTests {
    /// The job's list of awaiters, read under its region's lock.
    private func awaiters(of job: Job<Int, Never>) -> (count: Int, capacity: Int) {
        Engine.perform(in: job.node.queue.region) { _ in (job.node.awaiters.count, job.node.awaiters.capacity) }
    }

    @Test("when every one of many cancellable waits leaves a pending job, their buffer is given back at once")
    func emptiedAwaitersReleaseTheirBuffer() async throws {
        let queue = WorkQueue(name: "awaited", width: 1)
        queue.suspend()
        let job = try queue.trySubmit("pending") { 7 }
        // The coalescer's kind of wait: it ends with `.left` when its task is cancelled, and leaves the job alone.
        let waits = (0..<100).map { _ in
            Task { () -> Bool in
                if case .left = await Engine.wait(for: job.node, level: 2, cancellable: true) { return true }
                return false
            }
        }
        while awaiters(of: job).count < waits.count { await Task.yield() }
        #expect(awaiters(of: job).capacity >= 100)
        for wait in waits { wait.cancel() }
        for wait in waits { #expect(await wait.value, "every wait ends by leaving") }
        #expect(awaiters(of: job).count == 0)
        #expect(awaiters(of: job).capacity == 0)
        queue.resume()
        #expect(try await job.value == 7)
    }
}
