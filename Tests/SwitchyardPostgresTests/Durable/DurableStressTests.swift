#if Postgres
    import Foundation
    import Switchyard
    import SwitchyardPostgres
    import SwitchyardTesting
    import Testing

    extension DurableQueueTests {
        /// Three workers in one process on a few thousand jobs with random priorities, dependencies and a narrow
        /// queue: every job runs once and succeeds, the width holds, and no dependent starts before its dependencies
        /// ended. Replay a failure with `SWITCHYARD_SEED=<printed seed>`; scale with `SWITCHYARD_DURABLE_STRESS_JOBS`.
        @Suite("Durable queue: stress")
        struct Stress {
            static let kind = DurableJobKind<Int, Int>("stress")
            static let width = 3

            /// One job of the run, by its index.
            struct Plan: Sendable {
                var priority: JobPriority
                var isLimited: Bool
                /// Indexes of earlier jobs it waits for.
                var dependencies: [Int]
                var sleep: Duration
            }

            struct Run: Sendable {
                var start: ContinuousClock.Instant
                var end: ContinuousClock.Instant
            }

            struct Observed: Sendable {
                var runs: [Int: [Run]] = [:]
                var limitedRunning = 0
                var limitedPeak = 0
            }

            static func plans(count: Int, using random: inout SeededRandomNumberGenerator) -> [Plan] {
                (0..<count).map { index in
                    let priority = JobPriority.allLevels[Int.random(in: 0..<JobPriority.levelCount, using: &random)]
                    let isLimited = Int.random(in: 0..<10, using: &random) == 0
                    var dependencies: Set<Int> = []
                    if index > 0 && Int.random(in: 0..<5, using: &random) == 0 {
                        for _ in 0..<Int.random(in: 1...2, using: &random) {
                            dependencies.insert(Int.random(in: 0..<index, using: &random))
                        }
                    }
                    let sleeps = Int.random(in: 0..<4, using: &random) == 0
                    let sleep = sleeps ? Duration.milliseconds(Int.random(in: 1...3, using: &random)) : .zero
                    return Plan(
                        priority: priority, isLimited: isLimited, dependencies: dependencies.sorted(), sleep: sleep)
                }
            }

            static func options(_ plan: Plan, ids: [Int: Int64]) -> DurableJobOptions {
                DurableJobOptions(
                    queue: plan.isLimited ? "limited" : "default", priority: plan.priority,
                    dependencies: plan.dependencies.map { DurableDependency(ids[$0]!, policy: .runAnyway) })
            }

            @Test("3 workers, thousands of jobs: each runs once and succeeds, width 3 holds, dependencies come first")
            func stress() async throws {
                var random = SeededRandomNumberGenerator.forTest("durable queue stress")
                let environment = ProcessInfo.processInfo.environment
                let count = environment["SWITCHYARD_DURABLE_STRESS_JOBS"].flatMap { Int($0) } ?? 3_000
                let plans = Self.plans(count: count, using: &random)
                let observed = DurableTestBox(Observed())
                var jobs = DurableJobs()
                jobs.register(Self.kind) { index, _ in
                    let plan = plans[index]
                    let start = ContinuousClock.now
                    if plan.isLimited {
                        observed.withLock { state in
                            state.limitedRunning += 1
                            state.limitedPeak = max(state.limitedPeak, state.limitedRunning)
                        }
                    }
                    defer { if plan.isLimited { observed.withLock { $0.limitedRunning -= 1 } } }
                    if plan.sleep > .zero { try await Task.sleep(for: plan.sleep) }
                    let run = Run(start: start, end: ContinuousClock.now)
                    observed.withLock { $0.runs[index, default: []].append(run) }
                    return index
                }
                try await DurableFixture.with { f in
                    try await f.queue.setWidth(Self.width, of: "limited")
                    let configurations = (1...3).map {
                        DurableWorkerConfiguration.test(
                            name: "stress-\($0)", queues: ["default", "limited"], concurrency: 8)
                    }
                    try await f.withWorkers(jobs, configurations) { _ in
                        var ids: [Int: Int64] = [:]
                        // The jobs without dependencies first, in bulk by queue and priority (while the workers run);
                        // then each dependent on its own, in order, so that its dependencies exist.
                        let independent = plans.indices.filter { plans[$0].dependencies.isEmpty }
                        let groups = Dictionary(grouping: independent) { index in
                            let plan = plans[index]
                            return plan.isLimited ? -1 - plan.priority.level : plan.priority.level
                        }
                        for (_, indexes) in groups.sorted(by: { $0.key < $1.key }) {
                            let options = Self.options(plans[indexes[0]], ids: ids)
                            let handles = try await f.queue.enqueue(Self.kind, many: indexes, options: options)
                            for (index, handle) in zip(indexes, handles) { ids[index] = handle.id }
                        }
                        for index in plans.indices where !plans[index].dependencies.isEmpty {
                            let options = Self.options(plans[index], ids: ids)
                            ids[index] = try await f.queue.enqueue(Self.kind, index, options: options).id
                        }
                        let finished =
                            "SELECT count(*) FROM \(f.schema).jobs WHERE state IN ('succeeded', 'failed', 'cancelled')"
                        try await f.waitUntil("\(count) jobs finish", within: .seconds(55), every: .milliseconds(100)) {
                            try await f.integer(finished) == count
                        }
                    }
                    let succeeded = try await f.integer(
                        "SELECT count(*) FROM \(f.schema).jobs WHERE state = 'succeeded'")
                    #expect(succeeded == count)
                }
                let result = observed.value
                #expect(result.limitedPeak <= Self.width, "\(result.limitedPeak) jobs of queue limited ran at once")
                let notOnce = plans.indices.filter { result.runs[$0]?.count != 1 }.prefix(20).map { index in
                    "\(index): \(result.runs[index]?.count ?? 0) runs"
                }
                #expect(notOnce.isEmpty, "jobs not run exactly once: \(notOnce)")
                var early: [String] = []
                for (index, plan) in plans.enumerated() {
                    guard let start = result.runs[index]?.first?.start else { continue }
                    for dependency in plan.dependencies {
                        guard let end = result.runs[dependency]?.first?.end else { continue }
                        if start < end { early.append("\(index) started before \(dependency) ended") }
                    }
                }
                #expect(early.isEmpty, "\(early.prefix(20))")
            }
        }
    }
#endif
