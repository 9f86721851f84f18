#if Postgres
    import CoreMetrics
    import Logging
    import PostgresNIO
    import Switchyard
    @_spi(ImportDestinations) import SwitchyardTransit

    /// An import into one schema of a PostgreSQL database: the second ``ImportDestination`` of ``GTFSImporter``, with
    /// the guarantees of the SQLite one.
    ///
    /// - **One import per schema**: a session-level advisory lock, keyed by the schema's name, held on a connection
    ///   of its own for the whole import; the server releases it when that connection ends, however the process ends.
    /// - **Whole batches**: each batch's rows (`COPY … FROM STDIN`), its problems and the file's import record commit
    ///   in one transaction. Readers (`switchyard status`, `psql`) see whole batches only.
    /// - **Indexes after the load**, then the same checks as SQLite's.
    /// - **Cancellation**: the writer's transaction in progress rolls back (committed batches stay); a running
    ///   statement (a `CREATE INDEX`, a check, a `DROP` waiting for a reader's lock) is asked to stop
    ///   (`pg_cancel_backend` from another connection) and rolls back; no statement starts after it.
    /// - **A server that goes away**: the transaction in flight is rolled back by the server; the import fails with a
    ///   clear error, and `--resume` continues after the last committed batch once the server is back.
    ///
    /// Each step opens a connection of its own (statements of one step run one after the other).
    @_spi(ImportDestinations)
    public struct PostgresDestination: ImportDestination {
        /// The server, database and schema.
        public let url: PostgresURL
        /// How a new import stores times (a resumed one follows its record).
        public let times: PostgresTimes
        /// Where the import's connections log (the import's steps at `info`, connections and statements at `debug`
        /// and `trace`), or nil for no log lines.
        public let logger: Logger?

        /// The import's metrics (`ImportMetrics`: rows by file and transactions, as they commit).
        let metrics: ImportMetrics

        /// An import into `url`'s schema (created if missing), times stored as `times` in a new import, logged to
        /// `logger`, measured with `metricsFactory` (rows and transactions committed).
        public init(
            url: PostgresURL, times: PostgresTimes = .seconds, logger: Logger? = nil,
            metricsFactory: any MetricsFactory = MetricsSystem.factory
        ) {
            self.logger = logger
            metrics = ImportMetrics(destination: "postgres", schema: url.schema, factory: metricsFactory)
            self.url = url
            self.times = times
        }

        public var name: String { url.description }

        public func lock() async throws -> any ImportDestinationLock {
            let session = try await PostgresSession.connect(url, logger: sessionLogger)
            // The key: the schema's name, hashed by the server; imports of other schemas never wait for this one.
            let key = "switchyard import \(url.schema)"
            do {
                // One wait in the server, of at most a tenth of a second (an import that is finishing lets go).
                try await session.run("SET lock_timeout = '100ms'")
                _ = try await session.rows("SELECT pg_advisory_lock(hashtextextended(\(key), 0))")
                try await session.run("RESET lock_timeout")
                logger?.info("import lock taken", metadata: ["postgres": "\(url)"])
                return PostgresImportLock(session: session)
            } catch let error as ImportError where error.reason.contains("SQLSTATE 55P03") {  // lock_not_available
                await session.close()
                throw ImportError(
                    .databaseBusy,
                    "\(url): another import is writing to schema \(url.schema); wait for it or stop it first")
            } catch {
                await session.close()
                throw error
            }
        }

        public func prepare(_ feed: GTFSFeed, options: ImportOptions) async throws -> ImportPlan {
            try await withSession { session in
                if options.mode == .replace { try await dropImport(session) }
                let header = try await PostgresRecord.header(session)
                switch options.mode {
                case .new, .replace:
                    if let header {
                        throw ImportError(
                            .databaseNotEmpty,
                            """
                            \(url) already holds an import of \(header.feed) in schema \(url.schema) (state \
                            \(header.state)): use --resume to continue it, --replace to start over, or another schema
                            """)
                    }
                    for file in GTFSFile.allCases where feed.files[file] != nil {
                        guard try await PostgresRecord.tableExists(session, file.tableName) else { continue }
                        // No import recorded it (with a record, the header check above fails first): not ours to drop.
                        throw ImportError(
                            .databaseNotEmpty,
                            """
                            \(url) already has a table \(url.schema).\(file.tableName) that no import recorded: \
                            import into another schema, or drop it yourself
                            """)
                    }
                    try await PostgresRecord.create(session, feed: feed, options: options, times: times)
                    return ImportPlan(files: try await PostgresRecord.files(session), options: options)
                case .resume:
                    guard let header else {
                        throw ImportError(
                            .cannotResume,
                            "\(url) holds no import in schema \(url.schema) to resume: run without --resume")
                    }
                    let resumed = try ImportPlan.resuming(options, header: header, feed: feed, destination: name)
                    if header.state != .complete { try await PostgresRecord.setState(session, .loading) }
                    return ImportPlan(files: try await PostgresRecord.files(session), options: resumed)
                }
            }
        }

        /// Drops the import recorded in the schema: the tables of the GTFS files its record lists, and the record
        /// itself, in one statement. Other tables stay, also those with a GTFS name (`networks`, `areas`) that the
        /// recorded import did not create; a schema without a record loses nothing. A view or foreign key of the
        /// user's on one of the dropped tables makes it fail, naming the dependency, rather than drop it too.
        private func dropImport(_ session: PostgresSession) async throws {
            let schema = try await session.rows("SELECT 1 FROM pg_namespace WHERE nspname = \(url.schema)")
            guard !schema.isEmpty, try await PostgresRecord.tableExists(session, ImportRecord.filesTable) else {
                return
            }
            let recorded = try await PostgresRecord.files(session).compactMap { file in
                file.state == .ignored ? nil : GTFSFile(fileName: file.file)
            }
            let names = recorded.map(\.tableName) + ImportRecord.tables
            try await session.run("DROP TABLE IF EXISTS \(names.map(quoted).joined(separator: ", "))")
        }

        /// Commits the batches of `batches` in groups of consecutive batches of one file, one transaction each (see
        /// ``PostgresBatchWriter/write(_:then:)``): each batch still commits whole, and a resume continues after a
        /// group's last line exactly as after its batches one by one, while the server is not held up by a commit's
        /// round trips after every batch. The writer holds the values of one batch at a time (the one being sent).
        public func write(
            _ batches: BoundedChannel<RowBatch>, committed: @escaping @Sendable (RowBatch) throws -> Void
        ) async throws {
            try await withSession { session in
                var writer = PostgresBatchWriter(session: session, times: try await PostgresRecord.times(session))
                var next = try await batches.receive()
                while let first = next.take() {
                    let group = try await writer.write(first, then: batches)
                    metrics.committed(group.batches)
                    for batch in group.batches { try committed(batch) }
                    if let carried = group.carried {
                        next = carried
                    } else {
                        next = group.channelFinished ? nil : try await batches.receive()
                    }
                }
            }
        }

        public func index(_ step: ImportIndexStep, present: Set<GTFSFile>) async throws {
            try await withSession { session in
                switch step {
                case .smallTables:
                    try await PostgresRecord.setState(session, .indexing)
                    try await PostgresChecks.createIndexes(FeedChecks.smallIndexes, session, present: present)
                case .stopTimes:
                    try await PostgresChecks.createIndexes(FeedChecks.largeIndexes, session, present: present)
                    try await session.run(
                        "ANALYZE " + present.sorted().map { quoted($0.tableName) }.joined(separator: ", "))
                }
            }
        }

        public func check(_ stage: ImportCheckStage, present: Set<GTFSFile>) async throws -> [ImportSummary.Check] {
            try await withSession { session in
                try await PostgresChecks.run(stage, session, present: present)
            }
        }

        public func complete(checks: [ImportSummary.Check]) async throws {
            try await withSession { session in
                try await session.transaction {
                    try await PostgresRecord.record(checks, session)
                    try await PostgresRecord.setState(session, .complete)
                }
            }
        }

        public func end(
            _ state: ImportState, restarting corrupt: GTFSFile?, problemExamples: Int, seconds: Double
        ) async throws -> (summary: ImportSummary, restartFailure: (any Error)?) {
            try await withSession { session in
                if state != .complete { try await PostgresRecord.setState(session, state) }
                var restartFailure: (any Error)?
                if let corrupt {
                    do { try await PostgresRecord.restart(session, file: corrupt) } catch { restartFailure = error }
                }
                let summary = try await PostgresRecord.summary(
                    session, name: name, problemExamples: problemExamples, seconds: seconds)
                return (summary, restartFailure)
            }
        }

        /// The sessions' logger: the destination's, or none.
        private var sessionLogger: Logger { logger ?? PostgresSession.silent }

        public func describe(_ error: any Error) -> any Error {
            PostgresSession.describe(error, url: url)
        }

        /// Runs `body` on a new connection, closed afterwards. Cancelling the task asks the server to stop the
        /// statement running on it (`pg_cancel_backend`, from a second connection), and no statement starts after it;
        /// the connection closing under `body` fails it at once (``PostgresSession/untilClosed(_:)``).
        func withSession<Result: Sendable>(_ body: @escaping @Sendable (PostgresSession) async throws -> Result)
            async throws -> Result
        {
            let session = try await PostgresSession.connect(url, logger: sessionLogger)
            do {
                let backend = try await session.rows("SELECT pg_backend_pid()").first.map {
                    try PostgresRecord.decode($0, Int32.self, session)
                }
                let url = url
                let result = try await withTaskCancellationHandler {
                    try await session.untilClosed(body)
                } onCancel: {
                    guard let backend else { return }
                    Task { await PostgresSession.cancelStatement(of: backend, url: url, logger: sessionLogger) }
                }
                await session.close()
                return result
            } catch {
                await session.close()
                if Task.isCancelled, let error = error as? ImportError, error.reason.contains("SQLSTATE 57014") {
                    throw CancellationError()  // query_canceled: the statement stopped because this task was cancelled
                }
                throw error
            }
        }
    }

    /// The advisory lock of an import, held by its connection.
    final class PostgresImportLock: ImportDestinationLock {
        private let session: PostgresSession

        init(session: PostgresSession) {
            self.session = session
        }

        /// Closes the lock's connection, and returns once it is closed: the server releases the lock with it, so an
        /// import started right after finds it free.
        func release() async {
            await session.close()
        }
    }

    extension PostgresSession {
        /// Asks the server to stop the statement running on backend `pid` (its connection stays).
        static func cancelStatement(of pid: Int32, url: PostgresURL, logger: Logger) async {
            logger.info("cancelling the running statement", metadata: ["postgres": "\(url)", "backend": "\(pid)"])
            guard let session = try? await connect(url, logger: logger) else { return }
            _ = try? await session.rows("SELECT pg_cancel_backend(\(pid))")
            await session.close()
        }
    }

    extension ImportStatus {
        /// Reads the import record of `url`'s schema: what an import has committed so far (safe while it runs: it sees
        /// the last committed batch, never a part of one).
        /// - Throws: `ImportError` (`.database`) if the server cannot be reached or the schema holds no import.
        public static func read(_ url: PostgresURL) async throws -> ImportStatus {
            try await PostgresDestination(url: url).withSession { session in
                guard let header = try await PostgresRecord.header(session) else {
                    throw ImportError(.database, "\(url) holds no Switchyard import in schema \(url.schema)")
                }
                return ImportStatus(
                    header: header, files: try await PostgresRecord.files(session),
                    source: try await PostgresRecord.source(session))
            }
        }
    }
#endif
