import Switchyard
import Testing

/// The README's work-engine example, verbatim, so it keeps compiling and doing what the README says.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("a small graph with typed results, a width limit, progress and a snapshot")
    func readmeExample() async throws {
        // --- README begin
        let queue = WorkQueue(name: "report", width: 2)  // at most 2 jobs run at once

        let stops = try await queue.submit("count stops") { () -> Int in
            let context = JobContext.current!
            for batch in 1...4 {  // progress in the job's own units
                try await Task.sleep(for: .milliseconds(20))
                context.reportProgress(completed: Int64(batch), total: 4)
            }
            return 41_950
        }
        let routes = try await queue.submitBlocking("count routes") { 1_234 }  // on BlockingExecutor
        let summary = try await queue.submit("summary", after: stops, routes) { stops, routes in
            "\(stops) stops, \(routes) routes"  // both values, typed
        }

        print(queue)  // a snapshot: what runs, what waits, and why
        print(try await summary.value)
        print(queue.currentProgress)
        // --- README end
        #expect(try await summary.value == "41950 stops, 1234 routes")
        #expect(queue.currentProgress.isFinished)
    }
}
