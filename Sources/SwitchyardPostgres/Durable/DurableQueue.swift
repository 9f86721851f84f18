#if Postgres
    #if canImport(FoundationEssentials)
        import FoundationEssentials
    #else
        import Foundation
    #endif
    import Logging
    import PostgresNIO

    /// A durable work queue in a PostgreSQL schema: jobs enqueued by any process, run by ``DurableWorker``s on any
    /// number of machines, and their results awaited from anywhere.
    ///
    /// **Delivery contract.** Execution is *at least once*: a job runs again when its worker stops renewing its lease
    /// (crash, `kill -9`, lost network) or when an attempt fails with attempts left. Completion is *exactly once*:
    /// every transition of a running job names the attempt it belongs to, and the database applies it only while that
    /// attempt is the job's current one. A stale attempt (its lease expired and another worker took the job) can
    /// neither complete nor fail the job; writes made in ``DurableJobContext/withCompletingTransaction(_:)`` commit
    /// if and only if the job completes with them. Make handlers idempotent, or write their effects in the completing
    /// transaction.
    ///
    /// **Costs.** Enqueue: one round trip (and one for thousands, with ``enqueue(_:many:options:)``). A claim: one
    /// round trip for up to a worker's free slots, walking an index of available jobs only, so finished rows never slow
    /// it down. Completions: one round trip per batch. Lease renewal: one round trip per worker every third of the
    /// lease, whatever the number of running jobs.
    ///
    /// The value is cheap to copy and safe to share: it holds the client and the schema's name. The client must be
    /// running (`PostgresClient.run()`) while the queue is used.
    public struct DurableQueue: Sendable {
        /// The pool every statement goes through.
        public let client: PostgresClient
        /// The schema that holds the queue's tables (by default `switchyard`).
        public let schema: String
        let logger: Logger

        /// A queue in `schema` of `client`'s database. Call ``migrate()`` once before use (workers do it on start).
        public init(client: PostgresClient, schema: String = "switchyard", logger: Logger? = nil) {
            self.client = client
            self.schema = schema
            self.logger = logger ?? Logger(label: "switchyard.durable", factory: { _ in SwiftLogNoOpLogHandler() })
        }

        /// `schema` as an SQL identifier.
        var s: String { quoted(schema) }

        /// Creates or upgrades the queue's schema to this library's version, in one transaction. Safe to run from
        /// any number of processes at once: a transaction-level advisory lock keyed by the schema serializes them,
        /// and each version is applied once.
        ///
        /// - Returns: the version the database was at before (0 for none).
        /// - Throws: ``DurableError/Kind/schemaTooNew`` when the database holds a version this library does not know;
        ///   postgres-nio's errors when the server refuses (for instance a role without `CREATE` on the database).
        @discardableResult
        public func migrate() async throws -> Int {
            let (schema, s, logger) = (schema, s, logger)
            return try await transaction { connection in
                let key = "switchyard.durable." + schema
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(hashtextextended(\(key), 0))", logger: logger)
                for statement in DurableSchema.bootstrap(schema) {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                let rows = try await connection.query(
                    PostgresQuery(unsafeSQL: "SELECT coalesce(max(version), 0) FROM \(s).migrations"), logger: logger)
                var current = 0
                for try await version in rows.decode(Int.self) { current = version }
                guard current <= DurableSchema.version else {
                    throw DurableError(
                        .schemaTooNew,
                        """
                        schema \(schema) is at version \(current), newer than this library's \(DurableSchema.version): \
                        upgrade Switchyard before running these workers
                        """)
                }
                let migrations = DurableSchema.migrations(schema)
                for version in (current + 1)..<(DurableSchema.version + 1) {
                    for statement in migrations[version - 1] {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.query(
                        PostgresQuery(unsafeSQL: "INSERT INTO \(s).migrations (version) VALUES (\(version))"),
                        logger: logger)
                    logger.info(
                        "durable queue schema migrated", metadata: ["schema": "\(schema)", "version": "\(version)"])
                }
                return current
            }
        }

        /// The schema's version in the database (0 when the queue was never migrated).
        public func schemaVersion() async throws -> Int {
            let exists = try await fetch(
                "SELECT to_regclass(format('%I.migrations', \(schema)::text)) IS NOT NULL"
            ) { try $0.decode(Bool.self) }
            guard exists.first == true else { return 0 }
            let versions = try await fetch("SELECT coalesce(max(version), 0) FROM \(unescaped: s).migrations") {
                try $0.decode(Int.self)
            }
            return versions.first ?? 0
        }

        /// Sets the global width of `queue` (nil: unlimited): at most `width` of its jobs run at once across every
        /// worker, enforced by the claim statement. Takes effect at the next claim; running jobs are not stopped.
        public func setWidth(_ width: Int?, of queue: String) async throws {
            precondition(width.map { $0 > 0 } ?? true, "DurableQueue.setWidth: width must be positive")
            try await execute(
                """
                INSERT INTO \(unescaped: s).queues (name, width) VALUES (\(queue), \(width))
                ON CONFLICT (name) DO UPDATE SET width = EXCLUDED.width
                """)
        }

        /// A handle to the job `id`, whose output is `Output` (not checked until the result is read).
        public func job<Output>(_ id: Int64, of: Output.Type = Output.self) -> DurableJob<Output> {
            DurableJob(id: id, isNew: false, queue: self)
        }
    }
#endif
