#if Postgres
    import Logging
    import NIOConcurrencyHelpers
    import PostgresNIO
    import SwitchyardTransit

    /// One connection to the server of a ``PostgresURL``, its `search_path` set to the URL's schema, so that every
    /// statement names tables without their schema. Used by one task at a time; closed by ``close()``.
    struct PostgresSession: Sendable {
        let connection: PostgresConnection
        let url: PostgresURL

        /// Statements' log lines are not wanted (errors are reported through ``describe(_:url:)``).
        static let logger = Logger(label: "switchyard.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

        /// Connects to `url`'s server and database as its user (TCP, no TLS: the server is on loopback or a trusted
        /// network) and sets `search_path` to its schema, which may not exist yet.
        /// - Throws: an ``ImportError`` naming the server and saying what failed (connection, authentication, database).
        static func connect(_ url: PostgresURL) async throws -> PostgresSession {
            var configuration = PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
                tls: .disable)
            configuration.options.connectTimeout = .seconds(10)
            // Every text this client sends is UTF-8, whatever the database's or the role's default encoding.
            configuration.options.additionalStartupParameters = [("client_encoding", "UTF8")]
            let connection: PostgresConnection
            do {
                connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            } catch {
                throw describe(error, url: url, connecting: true)
            }
            let session = PostgresSession(connection: connection, url: url)
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
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger)
            } catch {
                throw Self.describe(error, url: url)
            }
        }

        /// Runs `query` and returns its rows, decoded by the caller.
        func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
            try Task.checkCancellation()
            do {
                var rows: [PostgresRow] = []
                for try await row in try await connection.query(query, logger: Self.logger) { rows.append(row) }
                return rows
            } catch {
                throw Self.describe(error, url: url)
            }
        }

        /// Runs `body` in a transaction: committed if it returns, rolled back if it throws (or, once the connection is
        /// gone, by the server).
        func transaction<Result: Sendable>(_ body: () async throws -> Result) async throws -> Result {
            try await run("BEGIN")
            do {
                let result = try await body()
                try await run("COMMIT")
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: Self.logger)
                throw error
            }
        }

        /// Closes the connection, ignoring errors (the server rolls back what was not committed).
        func close() async {
            try? await connection.close()
        }

        /// `error` as an ``ImportError`` (`.database`) naming the server: a server's message with its SQLSTATE, or what
        /// went wrong with the connection. Errors of other kinds pass through.
        static func describe(_ error: any Error, url: PostgresURL, connecting: Bool = false) -> any Error {
            if error is ImportError || error is CancellationError { return error }
            guard let psql = error as? PSQLError else {
                if connecting {
                    return ImportError(.database, "\(url): cannot connect: \(error)")
                }
                return error
            }
            if let info = psql.serverInfo, let message = info[.message] {
                let state = info[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                let detail = info[.detail].map { ": \($0)" } ?? ""
                return ImportError(.database, "\(url): \(message)\(detail)\(state)")
            }
            let reason: String =
                switch psql.code {
                case .connectionError:
                    "cannot connect to the server (\(psql.underlying.map { "\($0)" } ?? "connection refused"))"
                case .serverClosedConnection, .uncleanShutdown: "the server closed the connection"
                case .clientClosedConnection: "the connection was closed"
                case .authMechanismRequiresPassword:
                    "the server asks for a password: give it in the URL (USER:PASSWORD@)"
                case .unsupportedAuthMechanism:
                    "the server asks for an authentication method this client does not speak"
                case .saslError: "authentication failed"
                case .queryCancelled: "the statement was cancelled"
                default: "\(psql.code)\(psql.underlying.map { ": \($0)" } ?? "")"
                }
            return ImportError(.database, "\(url): \(reason)")
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
