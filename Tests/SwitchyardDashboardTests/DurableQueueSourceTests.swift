#if Dashboard && Postgres
    import PostgresNIO
    import PostgresTestServer
    import Switchyard
    import SwitchyardPostgres
    import Testing

    @testable import SwitchyardDashboard

    /// The durable queue as a dashboard source, against the test server, in a schema of its own.
    @Suite(
        .enabled(if: PostgresServer.isAvailable, Comment(rawValue: PostgresServer.skipReason)),
        .timeLimit(.minutes(3)))
    struct DurableQueueSourceTests {
        static let kind = DurableJobKind<Int, Int>("dashboard.test")

        /// Runs `body` with a migrated queue in a fresh schema, dropped afterwards.
        func withQueue(_ body: (DurableQueue) async throws -> Void) async throws {
            let server = try await PostgresServer.server()
            let schema = "dash_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            let client = try await PostgresClient(url: PostgresURL(server.url), maximumConnections: 4)
            let running = Task { await client.run() }
            defer { running.cancel() }
            let queue = DurableQueue(client: client, schema: schema)
            do {
                try await queue.migrate()
                try await body(queue)
            } catch {
                _ = try? await PostgresServer.psql(server.url, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
                throw error
            }
            _ = try await PostgresServer.psql(server.url, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
        }

        @Test func waitingJobsSayWhyAndActionsCancelAndRetry() async throws {
            try await withQueue { queue in
                let parent = try await queue.enqueue(Self.kind, 1, options: DurableJobOptions(queue: "mail"))
                let child = try await queue.enqueue(
                    Self.kind, 2,
                    options: DurableJobOptions(
                        queue: "mail", priority: .high, dependencies: [DurableDependency(parent.id)]))
                let source = DurableQueueSource(id: "jobs", queue: queue)
                let snapshot = try await source.read(limit: 10)
                #expect(snapshot.kind == "durable" && snapshot.actions == ["cancelJob", "retryJob"])
                #expect(snapshot.queues.map(\.name) == ["mail"])
                #expect(snapshot.queues.first?.waiting == 1 && snapshot.queues.first?.ready == 1)
                #expect(snapshot.waitingTotal == 2 && snapshot.runningTotal == 0)
                let byID = Dictionary(uniqueKeysWithValues: snapshot.waiting.map { ($0.id, $0) })
                let parentReason = try #require(byID[String(parent.id)]?.reasons.first)
                #expect(parentReason.kind == "noWorker" && parentReason.text.contains("dashboard.test"))
                let childJob = try #require(byID[String(child.id)])
                #expect(childJob.reasons.first?.kind == "dependencies")
                #expect(childJob.reasons.first?.jobs.map(\.id) == [String(parent.id)])
                #expect(childJob.priority == "\(JobPriority.high)")
                let graph = try #require(DependencyGraph(around: String(child.id), in: snapshot, cap: 10))
                #expect(graph.edges == [.init(from: String(parent.id), to: String(child.id))])

                let (page, total) = try await source.jobs(.waiting, queue: "mail", offset: 1, limit: 5)
                #expect(total == 2 && page.count == 1)
                await #expect(throws: DashboardActionError.self) {
                    _ = try await source.jobs(.waiting, queue: "nope", offset: 0, limit: 5)
                }

                _ = try await source.perform(
                    DashboardAction(action: .cancelJob, source: "jobs", job: String(parent.id)))
                #expect(try await queue.status(of: parent.id).state == .cancelled)
                let failures = try await source.read(limit: 10).failures
                #expect(Set(failures.map(\.id)) == [String(parent.id), String(child.id)])
                let retried = try await source.perform(
                    DashboardAction(action: .retryJob, source: "jobs", job: String(parent.id)))
                #expect(retried.contains("run again"))
                #expect(try await queue.status(of: parent.id).state == .available)
                await #expect(throws: DashboardActionError.self) {
                    _ = try await source.perform(
                        DashboardAction(action: .retryJob, source: "jobs", job: String(parent.id)))
                }
                await #expect(throws: DashboardActionError.notFound("no job 999999999")) {
                    _ = try await source.perform(DashboardAction(action: .cancelJob, source: "jobs", job: "999999999"))
                }
                await #expect(throws: DashboardActionError.unsupported(.suspendQueue, source: "jobs")) {
                    _ = try await source.perform(DashboardAction(action: .suspendQueue, source: "jobs", queue: "mail"))
                }
            }
        }
    }
#endif
