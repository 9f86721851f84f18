import Foundation
import Switchyard
import SwitchyardTesting
import Testing

/// What the stress test's jobs saw, checked at the end.
private final class Ledger: Sendable {
    struct State {
        var runs: [Int]
        var violations: [String] = []
        var domainRunning = 0
        var domainPeak = 0
        var queueRunning: [Int]
        var queuePeak: [Int]
    }

    let state: TestMutex<State>

    init(jobs: Int, queues: Int) {
        state = TestMutex(
            State(
                runs: Array(repeating: 0, count: jobs), queueRunning: Array(repeating: 0, count: queues),
                queuePeak: Array(repeating: 0, count: queues)))
    }

    func begin(_ index: Int, queue: Int) {
        state.withLock { state in
            state.runs[index] += 1
            if state.runs[index] > 1 { state.violations.append("job \(index) ran \(state.runs[index]) times") }
            state.domainRunning += 1
            state.domainPeak = max(state.domainPeak, state.domainRunning)
            state.queueRunning[queue] += 1
            state.queuePeak[queue] = max(state.queuePeak[queue], state.queueRunning[queue])
        }
    }

    func end(queue: Int) {
        state.withLock { state in
            state.domainRunning -= 1
            state.queueRunning[queue] -= 1
        }
    }

    func violation(_ text: String) { state.withLock { $0.violations.append(text) } }
}

@Suite("WorkQueue stress: random graphs across queues sharing a limit domain", .timeLimit(.minutes(3)))
struct WorkQueueStressTests {
    @Test("random DAGs with cancels, priority and width changes keep every invariant")
    func randomGraphs() async throws {
        var random = SeededRandomNumberGenerator.forTest("WorkQueueStressTests.randomGraphs")
        let jobCount = ProcessInfo.processInfo.environment["SWITCHYARD_STRESS_JOBS"].flatMap(Int.init) ?? 20_000
        let domainWidth = 3
        let maxQueueWidth = 3
        let domain = LimitDomain(name: "stress domain", width: domainWidth)
        let queues = (0..<4).map {
            WorkQueue(name: "stress \($0)", width: Int.random(in: 1...maxQueueWidth, using: &random), limit: domain)
        }
        let ledger = Ledger(jobs: jobCount, queues: queues.count)
        var jobs: [Job<Void, Never>] = []
        jobs.reserveCapacity(jobCount)
        var dependencyPlan: [[(Int, DependencyPolicy)]] = []
        var cancelledWhilePending: [Int] = []
        let policies: [DependencyPolicy] = [.cancelDependent, .propagateFailure, .runAnyway]

        for index in 0..<jobCount {
            let queueIndex = Int.random(in: 0..<queues.count, using: &random)
            var edges: [(Int, DependencyPolicy)] = []
            if index > 0 {
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    let upstream = Int.random(in: max(0, index - 200)..<index, using: &random)
                    if !edges.contains(where: { $0.0 == upstream }) {
                        edges.append((upstream, policies.randomElement(using: &random)!))
                    }
                }
            }
            dependencyPlan.append(edges)
            let upstreamJobs = edges.map { (jobs[$0.0], $0.1) }
            let options = JobOptions(dependencies: upstreamJobs.map { $0.0.dependency(policy: $0.1) })
            let priority = JobPriority.allLevels.randomElement(using: &random)!
            let yields = Bool.random(using: &random)
            let job = try queues[queueIndex].trySubmit("job \(index)", priority: priority, options: options) {
                ledger.begin(index, queue: queueIndex)
                for (upstream, policy) in upstreamJobs {
                    let state = upstream.state
                    if !state.isFinished {
                        ledger.violation("job \(index) started before \(upstream.name) finished")
                    } else if policy != .runAnyway && state != .succeeded {
                        ledger.violation("job \(index) ran although \(upstream.name) is \(state) (\(policy))")
                    }
                }
                if yields { await Task.yield() }
                ledger.end(queue: queueIndex)
            }
            jobs.append(job)

            switch Int.random(in: 0..<100, using: &random) {
            case 0..<3:
                let victim = jobs[Int.random(in: max(0, index - 100)...index, using: &random)]
                victim.cancel()
                if victim.state == .cancelled { cancelledWhilePending.append(Int(victim.name.dropFirst(4))!) }
            case 3..<6:
                jobs[Int.random(in: max(0, index - 100)...index, using: &random)].priority =
                    JobPriority.allLevels.randomElement(using: &random)!
            case 6:
                queues.randomElement(using: &random)!.width = Int.random(in: 1...maxQueueWidth, using: &random)
            case 7 where index.isMultiple(of: 500):
                await Task.yield()
            default:
                break
            }
            // The loop never suspends otherwise: let the pool's other jobs (these queues' workers among them) run.
            if index % 200 == 199 { await Task.yield() }
        }

        let finished = await untilStalled(
            progress: { queues.reduce(0) { $0 + $1.counts.succeeded + $1.counts.failed + $1.counts.cancelled } },
            onStall: {
                Issue.record(
                    "no job finished for 30 s\n\(queues.map(\.description).joined(separator: "\n"))")
            }
        ) {
            for queue in queues { await queue.waitUntilIdle() }
        }
        guard finished else { return }

        let state = ledger.state.withLock { $0 }
        #expect(state.violations.isEmpty, "\(state.violations.prefix(10))")
        #expect(state.domainPeak <= domainWidth)
        #expect(state.queuePeak.allSatisfy { $0 <= maxQueueWidth })
        for index in cancelledWhilePending { #expect(state.runs[index] == 0, "cancelled pending job \(index) ran") }
        var finishedCount = 0
        for (index, job) in jobs.enumerated() {
            let jobState = job.state
            if jobState.isFinished { finishedCount += 1 }
            if jobState == .succeeded && state.runs[index] != 1 {
                Issue.record("job \(index) succeeded without running")
            }
        }
        #expect(finishedCount == jobCount)
        let totals = queues.map(\.counts).reduce(0) { $0 + $1.succeeded + $1.failed + $1.cancelled }
        #expect(totals == jobCount)
        #expect(queues.allSatisfy { $0.counts.pending == 0 && $0.counts.running == 0 })
        #expect(domain.runningCount == 0)
    }
}
