#if Postgres
    import Logging
    import NIOConcurrencyHelpers
    import PostgresNIO
    import Synchronization
    import SwitchyardTransit

    /// The IDs of this process's connections, for log lines.
    private let connectionIDs = Atomic<Int>(0)

    /// One connection to the server of a ``PostgresURL``, its `search_path` set to the URL's schema, so that every
    /// statement names tables without their schema. Used by one task at a time; closed by ``close()``.
    struct PostgresSession: Sendable {
        let connection: PostgresConnection
        let url: PostgresURL
        /// Where the connection's and its statements' log lines go (postgres-nio logs at `debug` and `trace`).
        let logger: Logger

        /// The logger of sessions given none: no log lines (errors are thrown, through ``describe(_:url:)``).
        static let silent = Logger(label: "switchyard.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

        /// Connects to `url`'s server and database as its user, with TLS as the URL's `sslmode` says
        /// (``PostgresTLS``), and sets `search_path` to its schema, which may not exist yet.
        /// - Throws: an ``ImportError`` naming the server and saying what failed (connection, TLS, authentication,
        ///   database).
        static func connect(_ url: PostgresURL, logger: Logger = silent) async throws -> PostgresSession {
            let tls: PostgresConnection.Configuration.TLS
            do {
                tls = try await PostgresTLSContexts.configuration(for: url.tls)
            } catch {
                throw describe(error, url: url, connecting: true)
            }
            var configuration = PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
                tls: tls)
            configuration.options.connectTimeout = TimeAmount.nanoseconds(
                Int64(clamping: url.connectTimeout.components.seconds) * 1_000_000_000)
            // Every text this client sends is UTF-8, whatever the database's or the role's default encoding.
            configuration.options.additionalStartupParameters = [
                ("client_encoding", "UTF8"), ("application_name", url.applicationName),
            ]
            let connection: PostgresConnection
            do {
                connection = try await PostgresConnection.connect(
                    configuration: configuration, id: connectionIDs.add(1, ordering: .relaxed).newValue,
                    logger: logger)
            } catch {
                throw describe(error, url: url, connecting: true)
            }
            let session = PostgresSession(connection: connection, url: url, logger: logger)
            logger.debug(
                "connected", metadata: ["postgres": "\(url)", "postgres_connection": "\(connection.id)"])
            do {
                try await session.run("SET search_path TO \(quoted(url.schema))")
            } catch {
                await session.close()
                throw error
            }
            return session
        }

        /// Runs one statement (no parameters) and throws its error as an ``ImportError``.
        func run(_ sql: String) async throws {
            try Task.checkCancellation()  // the driver starts a statement whatever the task's state
            do {
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            } catch {
                throw Self.describe(error, url: url)
            }
        }

        /// Runs `query` and returns its rows, decoded by the caller.
        func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
            try Task.checkCancellation()
            do {
                var rows: [PostgresRow] = []
                for try await row in try await connection.query(query, logger: logger) { rows.append(row) }
                return rows
            } catch {
                throw Self.describe(error, url: url)
            }
        }

        /// Runs `body` in a transaction: committed if it returns, rolled back if it throws (or, once the connection is
        /// gone, by the server).
        func transaction<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
            try Task.checkCancellation()
            do {
                return try await connection.withTransaction(logger: logger) { _ in try await body() }
            } catch let error as PostgresTransactionError {
                // The body's error, or the failure of BEGIN, COMMIT or ROLLBACK.
                if let closure = error.closureError { throw closure }
                throw Self.describe(error.beginError ?? error.commitError ?? error.rollbackError ?? error, url: url)
            }
        }

        /// Closes the connection, ignoring errors (the server rolls back what was not committed).
        func close() async {
            try? await connection.close()
        }
    }

    /// `name` as a PostgreSQL identifier: in double quotes, with its quotes doubled (scalar by scalar: a quote followed
    /// by a combining mark is one `Character`, and must still be doubled).
    func quoted(_ name: String) -> String {
        var result = "\""
        for scalar in name.unicodeScalars {
            if scalar == "\"" { result += "\"\"" } else { result.unicodeScalars.append(scalar) }
        }
        return result + "\""
    }

    /// `name` as PostgreSQL stores an identifier: at most 63 bytes (`NAMEDATALEN - 1`), cut before a character that
    /// would not fit whole.
    func storedIdentifier(_ name: String) -> String {
        guard name.utf8.count > 63 else { return name }
        var result = ""
        var bytes = 0
        for scalar in name.unicodeScalars {
            let size = String(scalar).utf8.count
            if bytes + size > 63 { break }
            result.unicodeScalars.append(scalar)
            bytes += size
        }
        return result
    }

    extension PostgresSession {
        /// Runs `body` with this session, and throws as soon as the connection closes under it (the server went away)
        /// even when `body` waits for an answer the closed connection will never give: the driver does not fail every
        /// wait of a `COPY` when its connection drops. `body` then goes on alone until its own wait ends or never
        /// does; its result is ignored. Cancelling the caller cancels `body`.
        func untilClosed<Result: Sendable>(_ body: @escaping @Sendable (PostgresSession) async throws -> Result)
            async throws -> Result
        {
            let outcome = NIOLockedValueBox<
                (continuation: CheckedContinuation<Result, any Error>?, work: Task<Void, Never>?)
            >(
                (nil, nil))
            let url = url
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
                    outcome.withLockedValue { $0.continuation = continuation }
                    @Sendable func finish(_ result: Swift.Result<Result, any Error>) {
                        let waiting = outcome.withLockedValue { state in
                            defer { state.continuation = nil }
                            return state.continuation
                        }
                        waiting?.resume(with: result)
                    }
                    let work = Task {
                        do { finish(.success(try await body(self))) } catch { finish(.failure(error)) }
                    }
                    outcome.withLockedValue { $0.work = work }
                    if Task.isCancelled { work.cancel() }  // cancelled before `work` was there to cancel
                    connection.closeFuture.whenComplete { _ in
                        finish(.failure(ImportError(.database, "\(url): the server closed the connection")))
                    }
                }
            } onCancel: {
                outcome.withLockedValue { $0.work }?.cancel()
            }
        }
    }
#endif
