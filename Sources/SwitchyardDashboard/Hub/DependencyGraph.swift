#if Dashboard
    /// A job's dependency graph as `GET graph.json` serves it: the job, what it waits on (transitively) and what
    /// waits on it (transitively), among the jobs a source snapshot lists.
    public struct DependencyGraph: Sendable, Codable, Hashable {
        public struct Node: Sendable, Codable, Hashable {
            public var id: String
            public var name: String
            public var queue: String
            /// The job's state, or `unlisted` for a job named as a dependency but not among the listed jobs.
            public var state: String
        }

        /// An edge from a dependency to the job that waits on it.
        public struct Edge: Sendable, Codable, Hashable {
            public var from: String
            public var to: String
        }

        public var root: String
        public var nodes: [Node]
        public var edges: [Edge]
        /// Whether the graph goes on beyond what is shown: the node cap cut it, or it reaches jobs the snapshot does
        /// not list.
        public var truncated: Bool
        public var cap: Int

        /// The graph around `root` in `source`, breadth first, at most `cap` nodes. Nil if `root` is not listed.
        /// - Complexity: O(listed jobs + their dependencies).
        public init?(around root: String, in source: DashboardSourceSnapshot, cap: Int) {
            let jobs = source.running + source.waiting
            var byID: [String: DashboardJob] = [:]
            var dependents: [String: [String]] = [:]
            var names: [String: String] = [:]
            for job in jobs {
                byID[job.id] = job
                for reason in job.reasons where reason.kind == "dependencies" {
                    for dependency in reason.jobs {
                        dependents[dependency.id, default: []].append(job.id)
                        names[dependency.id] = dependency.name
                    }
                }
            }
            guard byID[root] != nil else { return nil }
            self.root = root
            self.cap = cap
            nodes = []
            edges = []
            truncated = false
            var included: Set<String> = [root]
            var queue = [root]
            var head = 0
            var edgeSet: Set<Edge> = []
            while head < queue.count {
                let id = queue[head]
                head += 1
                guard let job = byID[id] else {
                    nodes.append(Node(id: id, name: names[id] ?? id, queue: "", state: "unlisted"))
                    truncated = true
                    continue
                }
                nodes.append(Node(id: id, name: job.name, queue: job.queue, state: job.state))
                let upstream = job.reasons.filter { $0.kind == "dependencies" }.flatMap { $0.jobs.map(\.id) }
                let neighbours =
                    upstream.map { ($0, Edge(from: $0, to: id)) }
                    + (dependents[id] ?? []).map { ($0, Edge(from: id, to: $0)) }
                for (next, edge) in neighbours {
                    if !included.contains(next) {
                        guard included.count < cap else {
                            truncated = true
                            continue
                        }
                        included.insert(next)
                        queue.append(next)
                    }
                    if edgeSet.insert(edge).inserted { edges.append(edge) }
                }
            }
        }
    }
#endif
