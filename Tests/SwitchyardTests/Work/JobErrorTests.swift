import Switchyard
import Testing

/// What the work engine's errors print: enough to act on without a debugger.
@Suite("Job errors: descriptions")
struct JobErrorTests {
    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    @Test("a dependency's failure reads after its name, not as 'failed: failed'")
    func nestedDependencyFailures() {
        let failed = JobError<any Error>.dependencyFailed(dependency: "load", error: JobError<Boom>.failed(Boom()))
        #expect("\(failed)" == #"dependency "load" failed: boom"#)
        let cancelled = JobError<Never>.dependencyFailed(dependency: "load", error: JobError<Never>.cancelled)
        #expect("\(cancelled)" == #"dependency "load" cancelled"#)
        let plain = JobError<Never>.dependencyFailed(dependency: "load", error: Boom())
        #expect("\(plain)" == #"dependency "load" failed: boom"#)
        let chain = JobError<Never>.dependencyFailed(
            dependency: "parse",
            error: JobError<Never>.dependencyFailed(dependency: "load", error: JobError<Never>.timedOut))
        #expect("\(chain)" == #"dependency "parse" failed: dependency "load" timed out"#)
    }

    @Test("a rejected dependency names the job and its queue")
    func dependencyErrorNamesQueue() async throws {
        let queue = WorkQueue(name: "imports", width: 1)
        let done = try queue.trySubmit("done") {}
        try await done.value
        let other = try queue.trySubmit("other", options: JobOptions(isHeld: true)) {}
        let error = #expect(throws: DependencyError.self) { try done.addDependency(other) }
        #expect(error?.queue == "imports")
        #expect(error?.description.hasPrefix(#"job "done" of queue "imports" has already started"#) == true)
        other.cancel()
    }
}
