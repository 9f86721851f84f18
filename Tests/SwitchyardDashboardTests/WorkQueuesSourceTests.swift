#if Dashboard
    import Switchyard
    import SwitchyardTesting
    import Testing

    @testable import SwitchyardDashboard

    @Suite struct WorkQueuesSourceTests {
        @Test func aReadShowsCountsReasonsLimitsAndEscalation() async throws {
            let workload = try await TestWorkload()
            let source = WorkQueuesSource(id: "app", queues: workload.queues)
            let snapshot = try await source.read(limit: 100)
            #expect(snapshot.kind == "inProcess")
            #expect(snapshot.queues.map(\.name) == ["demo", "other"])
            #expect(
                snapshot.limits == [DashboardLimit(name: "shared", width: 2, running: 2, queues: ["demo", "other"])])
            #expect(snapshot.running.map(\.name) == ["first", "second"])
            #expect(snapshot.runningTotal == 2 && snapshot.waitingTotal == 4)
            #expect(snapshot.waiting.map(\.name) == ["blocked", "ready", "low", "urgent"])
            let demo = try #require(snapshot.queues.first)
            #expect(
                demo.width == 2 && demo.limit == "shared" && demo.running == 2 && demo.waiting == 1 && demo.ready == 1)
            let byName = Dictionary(uniqueKeysWithValues: snapshot.waiting.map { ($0.name, $0) })
            let blocked = try #require(byName["blocked"]?.reasons.first)
            #expect(blocked.kind == "dependencies")
            #expect(blocked.jobs.map(\.name) == ["second"])
            #expect(blocked.jobs.first?.id == String(workload.second.identifier))
            let ready = try #require(byName["ready"]?.reasons.first)
            #expect(ready.kind == "slot" && ready.running == 2 && ready.width == 2)
            #expect(ready.text.contains("full"))
            let low = try #require(byName["low"])
            #expect(low.priority == "\(JobPriority.low)" && low.effectivePriority == "\(JobPriority.high)")
            #expect(low.reasons.first?.domain == "shared")
            #expect(snapshot.running.allSatisfy { $0.elapsed != nil && $0.reasons.isEmpty })
            await workload.finish()
        }

        @Test func theLimitCapsTheListsNotTheTotals() async throws {
            let workload = try await TestWorkload()
            let source = WorkQueuesSource(queues: workload.queues)
            let snapshot = try await source.read(limit: 1)
            #expect(snapshot.running.count == 1 && snapshot.waiting.count == 1)
            #expect(snapshot.runningTotal == 2 && snapshot.waitingTotal == 4)
            await workload.finish()
        }

        @Test func pagesFollowTheSnapshotsOrderAcrossQueues() async throws {
            let workload = try await TestWorkload()
            let source = WorkQueuesSource(queues: workload.queues)
            let (page, total) = try await source.jobs(.waiting, queue: nil, offset: 1, limit: 2)
            #expect(total == 4 && page.map(\.name) == ["ready", "low"])
            let (running, runningTotal) = try await source.jobs(.running, queue: "demo", offset: 1, limit: 5)
            #expect(runningTotal == 2 && running.map(\.name) == ["second"])
            await #expect(throws: DashboardActionError.self) {
                _ = try await source.jobs(.waiting, queue: "nope", offset: 0, limit: 1)
            }
            await workload.finish()
        }

        @Test func actionsCancelListedJobsAndControlQueues() async throws {
            let workload = try await TestWorkload()
            let source = WorkQueuesSource(id: "app", queues: workload.queues)
            let id = String(workload.first.identifier)
            await #expect(
                throws: DashboardActionError.notFound(
                    "job \(id) is not among the jobs the dashboard lists (it may have finished)")
            ) { _ = try await source.perform(DashboardAction(action: .cancelJob, source: "app", job: id)) }
            _ = try await source.read(limit: 10)
            let message = try await source.perform(DashboardAction(action: .cancelJob, source: "app", job: id))
            #expect(message.contains("first"))
            guard case .failure(.cancelled) = await workload.first.result else {
                Issue.record("the job was not cancelled")
                return
            }
            _ = try await source.perform(DashboardAction(action: .suspendQueue, source: "app", queue: "other"))
            #expect(workload.other.isSuspended)
            let suspended = try await source.read(limit: 10)
            #expect(suspended.queues[1].suspended)
            _ = try await source.perform(DashboardAction(action: .resumeQueue, source: "app", queue: "other"))
            #expect(!workload.other.isSuspended)
            await #expect(throws: DashboardActionError.unsupported(.retryJob, source: "app")) {
                _ = try await source.perform(DashboardAction(action: .retryJob, source: "app", job: id))
            }
            await #expect(throws: DashboardActionError.self) {
                _ = try await source.perform(DashboardAction(action: .suspendQueue, source: "app"))
            }
            _ = try await source.perform(DashboardAction(action: .cancelQueue, source: "app", queue: "demo"))
            await workload.demo.waitUntilIdle()
            #expect(workload.demo.counts.cancelled >= 3)
            await workload.finish()
        }

        @Test func failuresAreListedNewestFirstWithTheirErrors() async throws {
            struct Broken: Error, CustomStringConvertible { var description: String { "broken pipe" } }
            let queue = WorkQueue(name: "failing", width: 1)
            for index in 0..<3 {
                _ = await (try queue.trySubmit("job \(index)") { () async throws -> Void in throw Broken() }).result
            }
            let snapshot = try await WorkQueuesSource(queues: [queue]).read(limit: 2)
            #expect(snapshot.failures.map(\.name) == ["job 2", "job 1"])
            #expect(snapshot.failures.allSatisfy { $0.error == "failed: broken pipe" && $0.state == "failed" })
            #expect(snapshot.queues.first?.failed == 3)
        }
    }
#endif
