import Switchyard
import Testing

private struct Boom: Error, Equatable {}

@Suite("Dependencies: typed results, edge policies, cycles")
struct DependencyTests {
    @Test("values of inputs flow into the dependent, across queues")
    func typedResults() async throws {
        let parse = WorkQueue(name: "parse", width: 2)
        let build = WorkQueue(name: "build", width: 1)
        let stops = try parse.trySubmit("stops") { 3 }
        let names = try parse.trySubmit("names") { ["a", "b"] }
        let index = try build.trySubmit("index", after: stops, names) { count, names in
            "\(count) stops, \(names.joined(separator: "+"))"
        }
        #expect(try await index.value == "3 stops, a+b")
    }

    @Test("a dependent never starts before its dependencies finish")
    func ordering() async throws {
        let queue = WorkQueue(name: "order", width: 4)
        let log = Log<String>()
        let gate = AsyncGate()
        let first = try queue.trySubmit("first") {
            await gate.wait()
            log.append("first")
        }
        let second = try queue.trySubmit("second", options: JobOptions().after(first)) { log.append("second") }
        #expect(second.state == .waiting)
        #expect(
            queue.snapshot().jobs.first { $0.name == "second" }?.waitingReasons
                == [.dependencies([JobReference(identifier: first.identifier, name: "first")])])
        gate.open()
        try await second.value
        #expect(log.all == ["first", "second"])
    }

    @Test("a failed input cancels a result-consuming dependent by default; it never runs")
    func cancelDependentPolicy() async throws {
        let queue = WorkQueue(name: "cancel", width: 2)
        let ran = SharedFlag()
        let failing = try queue.trySubmit("failing") { () throws(Boom) -> Int in throw Boom() }
        let dependent = try queue.trySubmit("dependent", after: failing) { value in
            ran.set(true)
            return value
        }
        let result = await dependent.result
        guard case .failure(.cancelled) = result else {
            Issue.record("expected cancelled, got \(result)")
            return
        }
        #expect(!ran.value)
        guard case .failure(.failed(let error)) = await failing.result else {
            Issue.record("expected failure")
            return
        }
        #expect(error == Boom())
    }

    @Test("propagateFailure fails the dependent with the dependency's name and error, transitively")
    func propagatePolicy() async throws {
        let queue = WorkQueue(name: "propagate", width: 2)
        let failing = try queue.trySubmit("download") { () throws(Boom) in throw Boom() }
        let middle = try queue.trySubmit(
            "decode", options: JobOptions(dependencies: [failing.dependency(policy: .propagateFailure)])
        ) {}
        let last = try queue.trySubmit(
            "store", options: JobOptions(dependencies: [middle.dependency(policy: .propagateFailure)])
        ) {}
        guard case .failure(.dependencyFailed(let name, let error)) = await middle.result else {
            Issue.record("expected dependencyFailed")
            return
        }
        #expect(name == "download")
        guard case .failed(let inner as Boom)? = error as? JobError<any Error> else {
            Issue.record("expected the download's Boom, got \(error)")
            return
        }
        #expect(inner == Boom())
        guard case .failure(.dependencyFailed(let lastName, _)) = await last.result else {
            Issue.record("expected dependencyFailed")
            return
        }
        #expect(lastName == "decode")
        #expect(last.state == .dependencyFailed)
    }

    @Test("runAnyway runs the dependent after a failure or cancellation (Foundation's rule)")
    func runAnywayPolicy() async throws {
        let queue = WorkQueue(name: "anyway", width: 2)
        let failing = try queue.trySubmit("failing") { () throws(Boom) in throw Boom() }
        let held = try queue.trySubmit("held", options: JobOptions(isHeld: true)) {}
        let cleanup = try queue.trySubmit(
            "cleanup",
            options: JobOptions().after(failing, policy: .runAnyway).after(held, policy: .runAnyway)
        ) { 1 }
        held.cancel()
        #expect(try await cleanup.value == 1)
    }

    @Test("an edge that would close a cycle is rejected with the cycle named")
    func cycleRejected() async throws {
        let queue = WorkQueue(name: "cycles", width: 2)
        let held = JobOptions(isHeld: true)
        let a = try queue.trySubmit("a", options: held) {}
        let b = try queue.trySubmit("b", options: held) {}
        let c = try queue.trySubmit("c", options: held) {}
        try b.addDependency(a)
        try c.addDependency(b)
        #expect {
            try a.addDependency(c)
        } throws: { error in
            guard let error = error as? DependencyError else { return false }
            return error.code == .cycle && error.cycle == ["a", "c", "b", "a"]
        }
        #expect(throws: DependencyError.self) { try a.addDependency(a) }
        a.release()
        b.release()
        c.release()
        try await c.value
    }

    @Test("dependencies cannot be added once a job has started")
    func alreadyStarted() async throws {
        let queue = WorkQueue(name: "started", width: 1)
        let done = try queue.trySubmit("done") {}
        try await done.value
        let other = try queue.trySubmit("other", options: JobOptions(isHeld: true)) {}
        #expect {
            try done.addDependency(other)
        } throws: { ($0 as? DependencyError)?.code == .alreadyStarted }
        other.cancel()
    }

    @Test("a dependency added to a ready job takes it back out of its bucket")
    func addDependencyToReadyJob() async throws {
        let queue = WorkQueue(name: "late edge", width: 1)
        queue.suspend()
        let log = Log<String>()
        let first = try queue.trySubmit("first") { log.append("first") }
        let blocker = try queue.trySubmit("blocker", options: JobOptions(isHeld: true)) { log.append("blocker") }
        try first.addDependency(blocker)
        #expect(first.state == .waiting)
        queue.resume()
        blocker.release()
        try await first.value
        #expect(log.all == ["blocker", "first"])
    }
}
