#if Dashboard
    import Testing

    @testable import SwitchyardDashboard

    @Suite struct DependencyGraphTests {
        /// A job waiting on `dependencies` (identifiers).
        func job(_ id: Int, _ dependencies: [Int] = [], state: String = "waiting") -> DashboardJob {
            let reasons =
                dependencies.isEmpty
                ? []
                : [
                    DashboardReason(
                        kind: "dependencies", text: "",
                        jobs: dependencies.map { DashboardJobReference(id: String($0), name: "job \($0)") })
                ]
            return DashboardJob(
                id: String(id), queue: "q", name: "job \(id)", state: state, priority: "medium",
                effectivePriority: "medium", attempts: 0, age: 0, reasons: reasons)
        }

        @Test func upstreamAndDownstreamTransitively() throws {
            // 1 ← 2 ← 3 ← 4, and 5 unrelated.
            let source = DashboardSourceSnapshot(
                id: "s", kind: "inProcess", running: [job(1, state: "running")],
                waiting: [job(2, [1]), job(3, [2]), job(4, [3]), job(5)])
            let graph = try #require(DependencyGraph(around: "3", in: source, cap: 50))
            #expect(Set(graph.nodes.map(\.id)) == ["1", "2", "3", "4"])
            #expect(Set(graph.edges.map { "\($0.from)→\($0.to)" }) == ["1→2", "2→3", "3→4"])
            #expect(!graph.truncated)
            #expect(graph.nodes.first?.id == "3")
        }

        @Test func theCapCutsAndSaysSo() throws {
            let fan = (2...100).map { job($0, [1]) }
            let source = DashboardSourceSnapshot(id: "s", kind: "inProcess", waiting: [job(1)] + fan)
            let graph = try #require(DependencyGraph(around: "1", in: source, cap: 10))
            #expect(graph.nodes.count == 10)
            #expect(graph.truncated)
            #expect(graph.edges.allSatisfy { edge in graph.nodes.contains { $0.id == edge.to } })
        }

        @Test func unlistedDependenciesAreShownAndMarkTruncation() throws {
            let source = DashboardSourceSnapshot(id: "s", kind: "inProcess", waiting: [job(2, [1])])
            let graph = try #require(DependencyGraph(around: "2", in: source, cap: 50))
            #expect(graph.nodes.map(\.state) == ["waiting", "unlisted"])
            #expect(graph.nodes[1].name == "job 1")
            #expect(graph.truncated)
        }

        @Test func anUnlistedRootHasNoGraph() {
            #expect(
                DependencyGraph(around: "9", in: DashboardSourceSnapshot(id: "s", kind: "inProcess"), cap: 5) == nil)
        }
    }
#endif
