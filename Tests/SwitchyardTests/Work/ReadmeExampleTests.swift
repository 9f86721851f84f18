import Switchyard
import Testing

/// The README's work-engine example, verbatim, so it keeps compiling and doing what the README says.
@Suite("README example")
struct ReadmeExampleTests {
    @Test("a small graph with typed results, a width limit and a snapshot")
    func readmeExample() async throws {
        // --- README begin
        let queue = WorkQueue(name: "report", width: 2)
        let stops = try await queue.submit("count stops") { 41_950 }
        let routes = try await queue.submitBlocking("count routes") { 1_234 }  // on BlockingExecutor
        let summary = try await queue.submit("summary", after: stops, routes) { "\($0) stops, \($1) routes" }
        print(queue)  // what runs, what waits, and why
        print(try await summary.value)
        // --- README end
        _ = try await summary.value
        #expect(try await summary.value == "41950 stops, 1234 routes")
        #expect(queue.currentProgress.isFinished)
    }
}
