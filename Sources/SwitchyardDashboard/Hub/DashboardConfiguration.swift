#if Dashboard
    /// How a ``Dashboard`` reads its sources and what it lets viewers do.
    public struct DashboardConfiguration: Sendable {
        /// The shortest interval between updates: 250 ms.
        public static let intervalFloor: Duration = .milliseconds(250)
        /// The longest list the dashboard reads per source and serves per page: 500.
        public static let listLimitCeiling = 500

        /// Time between two snapshots while someone watches; raised to ``intervalFloor`` if shorter.
        public var interval: Duration {
            get { _interval }
            set { _interval = max(newValue, Self.intervalFloor) }
        }
        private var _interval: Duration = .seconds(1)

        /// How many running jobs, waiting jobs and failures a snapshot lists per source (1 ... ``listLimitCeiling``);
        /// the rest are counted and reachable page by page.
        public var listLimit: Int {
            get { _listLimit }
            set { _listLimit = min(max(newValue, 1), Self.listLimitCeiling) }
        }
        private var _listLimit = 100

        /// Whether viewers may cancel, retry, suspend and resume (off by default: the dashboard is read-only).
        public var actions: DashboardActions

        /// The most nodes a dependency graph shows (1 ... 500); larger graphs are cut and marked truncated.
        public var graphNodeLimit: Int {
            get { _graphNodeLimit }
            set { _graphNodeLimit = min(max(newValue, 1), 500) }
        }
        private var _graphNodeLimit = 50

        public init(
            interval: Duration = .seconds(1), listLimit: Int = 100, actions: DashboardActions = .disabled,
            graphNodeLimit: Int = 50
        ) {
            self.actions = actions
            self.interval = interval
            self.listLimit = listLimit
            self.graphNodeLimit = graphNodeLimit
        }
    }

    /// Whether a dashboard performs actions, and the token they need.
    public enum DashboardActions: Sendable, Hashable {
        /// Read-only: every action is refused.
        case disabled
        /// Actions are performed for requests that carry `Authorization: Bearer <token>` and come from the
        /// dashboard's own origin (`Sec-Fetch-Site` and `Origin` checks). Use a long random token
        /// (``DashboardActions/randomToken()``).
        case enabled(token: String)

        /// 32 random bytes as 64 hexadecimal digits, from the system's secure generator.
        public static func randomToken() -> String {
            var generator = SystemRandomNumberGenerator()
            return (0..<4).map { _ in
                let value = generator.next() as UInt64
                let digits = String(value, radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }.joined()
        }

        var token: String? {
            if case .enabled(let token) = self { token } else { nil }
        }
    }
#endif
