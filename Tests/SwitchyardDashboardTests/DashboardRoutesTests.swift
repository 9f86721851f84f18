#if Dashboard
    import Foundation
    import HTTPTypes
    import Hummingbird
    import HummingbirdTesting
    import NIOCore
    import Switchyard
    import Testing

    @testable import SwitchyardDashboard

    /// The routes through Hummingbird's router test framework: JSON, the page's headers, paging, graphs, actions.
    @Suite struct DashboardRoutesTests {
        /// Runs `body` against a dashboard of a fresh ``TestWorkload``, mounted at `/dash/`.
        func withApp(
            actions: DashboardActions = .disabled,
            _ body: @Sendable (any TestClientProtocol, TestWorkload) async throws -> Void
        ) async throws {
            let workload = try await TestWorkload()
            let dashboard = Dashboard(
                sources: [WorkQueuesSource(id: "app", queues: workload.queues)],
                configuration: DashboardConfiguration(actions: actions))
            let router = Router()
            dashboard.addRoutes(to: router.group("dash"), basePath: "/dash/")
            try await Application(router: router).test(.router) { client in try await body(client, workload) }
            await workload.finish()
        }

        func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
            try DashboardJSON.decoder.decode(type, from: Data(buffer: response.body))
        }

        @Test func snapshotJSONFollowsTheSchema() async throws {
            try await withApp { client, _ in
                let response = try await client.execute(uri: "/dash/snapshot.json", method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json")
                #expect(response.headers[.cacheControl] == "no-store")
                let snapshot = try decode(DashboardSnapshot.self, response)
                #expect(snapshot.schema == 1 && snapshot.sequence >= 1 && !snapshot.actionsEnabled)
                #expect(snapshot.interval == 1)
                let source = try #require(snapshot.sources.first)
                #expect(source.id == "app" && source.running.map(\.name) == ["first", "second"])
                #expect(source.waiting.map(\.name) == ["blocked", "ready", "low", "urgent"])
                // Keys as documented (a client written from the docs reads these names).
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(Set(object.keys) == ["schema", "sequence", "takenAt", "interval", "actionsEnabled", "sources"])
                #expect((object["takenAt"] as? String)?.hasSuffix("Z") == true)
            }
        }

        @Test func thePageCarriesANonceCSPAndSecurityHeaders() async throws {
            try await withApp { client, _ in
                let first = try await client.execute(uri: "/dash", method: .get)
                let second = try await client.execute(uri: "/dash", method: .get)
                #expect(first.status == .ok)
                let csp = try #require(first.headers[.contentSecurityPolicy])
                #expect(csp.contains("default-src 'none'") && csp.contains("frame-ancestors 'none'"))
                let nonce = try #require(csp.split(separator: "'nonce-").last?.split(separator: "'").first)
                let html = String(buffer: first.body)
                #expect(html.contains("nonce=\"\(nonce)\""))
                // No third-party assets: nothing is loaded from elsewhere.
                #expect(!html.contains(" src=") && !html.contains("@import"))
                #expect(!html.contains("<link") || html.contains("<link rel=\"icon\" href=\"data:,\">"))
                #expect(html.contains("/dash/"))
                #expect(second.headers[.contentSecurityPolicy] != csp)
                #expect(first.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                #expect(first.headers[.cacheControl] == "no-store")
            }
        }

        @Test func jobsPagesAndGraphs() async throws {
            try await withApp { client, workload in
                let page = try decode(
                    JobsPage.self,
                    try await client.execute(
                        uri: "/dash/jobs.json?source=app&list=waiting&offset=2&limit=5", method: .get))
                #expect(page.total == 4 && page.jobs.map(\.name) == ["low", "urgent"])
                let missing = try await client.execute(uri: "/dash/jobs.json?source=nope&list=waiting", method: .get)
                #expect(missing.status == .notFound)
                let bad = try await client.execute(uri: "/dash/jobs.json?source=app&list=finished", method: .get)
                #expect(bad.status == .badRequest)
                let snapshot = try decode(
                    DashboardSnapshot.self, try await client.execute(uri: "/dash/snapshot.json", method: .get))
                let blocked = try #require(snapshot.sources[0].waiting.first { $0.name == "blocked" })
                let graph = try decode(
                    DependencyGraph.self,
                    try await client.execute(uri: "/dash/graph.json?source=app&job=\(blocked.id)", method: .get))
                #expect(graph.nodes.map(\.name) == ["blocked", "second"])
                #expect(graph.edges == [.init(from: String(workload.second.identifier), to: blocked.id)])
                let unknown = try await client.execute(uri: "/dash/graph.json?source=app&job=999999", method: .get)
                #expect(unknown.status == .notFound)
            }
        }

        func post(
            _ client: any TestClientProtocol, _ action: DashboardAction, token: String? = "secret",
            site: String? = nil, origin: String? = nil
        ) async throws -> TestResponse {
            var headers: HTTPFields = [.contentType: "application/json"]
            if let token { headers[.authorization] = "Bearer \(token)" }
            if let site { headers[HTTPField.Name("Sec-Fetch-Site")!] = site }
            if let origin { headers[.origin] = origin }
            let body = ByteBuffer(bytes: try DashboardJSON.encoder.encode(action))
            return try await client.execute(uri: "/dash/actions", method: .post, headers: headers, body: body)
        }

        @Test func actionsAreRefusedWhenReadOnly() async throws {
            try await withApp { client, workload in
                let action = DashboardAction(
                    action: .cancelJob, source: "app", job: String(workload.first.identifier))
                let response = try await post(client, action)
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body).contains("read-only"))
                #expect(workload.demo.counts.cancelled == 0)
            }
        }

        @Test func actionsNeedTheTokenAndTheSameOrigin() async throws {
            try await withApp(actions: .enabled(token: "secret")) { client, workload in
                _ = try await client.execute(uri: "/dash/snapshot.json", method: .get)  // lists the jobs
                let action = DashboardAction(
                    action: .cancelJob, source: "app", job: String(workload.first.identifier))
                #expect(try await post(client, action, token: nil).status == .forbidden)
                #expect(try await post(client, action, token: "wrong").status == .forbidden)
                #expect(try await post(client, action, site: "cross-site").status == .forbidden)
                #expect(try await post(client, action, origin: "http://evil.example").status == .forbidden)
                #expect(workload.demo.counts.cancelled == 0)
                let accepted = try await post(client, action, site: "same-origin")
                #expect(accepted.status == .ok)
                #expect(String(buffer: accepted.body).contains("to cancel"))
                guard case .failure(.cancelled) = await workload.first.result else {
                    Issue.record("the job was not cancelled")
                    return
                }
                let retry = DashboardAction(action: .retryJob, source: "app", job: "1")
                #expect(try await post(client, retry).status == .conflict)
                let unknown = DashboardAction(action: .cancelJob, source: "nope", job: "1")
                #expect(try await post(client, unknown).status == .notFound)
                var headers: HTTPFields = [.authorization: "Bearer secret"]
                headers[.contentType] = "application/json"
                let garbage = try await client.execute(
                    uri: "/dash/actions", method: .post, headers: headers, body: ByteBuffer(string: "{"))
                #expect(garbage.status == .badRequest)
            }
        }
    }
#endif
