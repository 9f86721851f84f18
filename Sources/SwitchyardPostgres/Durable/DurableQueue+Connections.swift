#if Postgres
    import Logging
    import NIOConcurrencyHelpers
    import PostgresNIO

    extension DurableQueue {
        /// Runs `body` with a connection of the pool, and throws as soon as that connection closes under it (the
        /// server restarted or the network dropped), even when `body` waits for an answer the closed connection will
        /// never give: postgres-nio does not fail every wait on a connection that drops mid-statement. `body` then goes
        /// on alone until its wait ends, if it ever does; its result is ignored. Cancelling the caller cancels `body`.
        func guarded<Value: Sendable>(
            _ body: @escaping @Sendable (PostgresConnection) async throws -> Value
        ) async throws -> Value {
            try await client.withConnection { connection in
                try await untilClosed(connection) { try await body(connection) }
            }
        }

        /// Runs one statement on a guarded connection.
        func execute(_ query: PostgresQuery) async throws {
            let logger = logger
            try await guarded { connection in _ = try await connection.query(query, logger: logger) }
        }

        /// Runs one statement on a guarded connection and decodes its rows with `decode`.
        func fetch<Row: Sendable>(
            _ query: PostgresQuery, _ decode: @escaping @Sendable (PostgresRow) throws -> Row
        ) async throws -> [Row] {
            let logger = logger
            return try await guarded { connection in
                var rows: [Row] = []
                for try await row in try await connection.query(query, logger: logger) { rows.append(try decode(row)) }
                return rows
            }
        }

        /// Runs `body` in a transaction on a guarded connection: committed when `body` returns, rolled back when it
        /// throws, and its error rethrown as it is.
        func transaction<Value: Sendable>(
            _ body: @escaping @Sendable (PostgresConnection) async throws -> Value
        ) async throws -> Value {
            let logger = logger
            return try await guarded { connection in
                try await connection.query("BEGIN", logger: logger)
                do {
                    let value = try await body(connection)
                    try await connection.query("COMMIT", logger: logger)
                    return value
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
        }

        /// Runs `body` again (up to 5 times in all) when the server ended it as one side of a deadlock (SQLSTATE
        /// 40P01), which concurrent statements on the same jobs can rarely meet; any other error is thrown.
        func retryingDeadlocks<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
            var attempt = 1
            while true {
                do {
                    return try await body()
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "40P01" && attempt < 5 {
                    attempt += 1
                }
            }
        }
    }

    extension DurableQueue {
        /// Counts of unfinished jobs by queue and state (`queue, state, count`), each state read through its partial
        /// index, so that finished rows, however many, cost nothing.
        var unfinishedCountsSQL: String {
            ["waiting", "available", "running"].map { state in
                "SELECT queue, '\(state)'::text AS state, count(*)::bigint AS n FROM \(s).jobs WHERE state = '\(state)' GROUP BY queue"
            }.joined(separator: " UNION ALL ")
        }
    }

    /// Runs `body` and returns its result, or throws ``DurableError/Kind/connectionLost`` once `connection` closes,
    /// whichever comes first.
    func untilClosed<Value: Sendable>(
        _ connection: PostgresConnection, _ body: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let outcome = NIOLockedValueBox<
            (continuation: CheckedContinuation<Value, any Error>?, work: Task<Void, Never>?)
        >(
            (nil, nil))
        @Sendable func finish(_ result: Result<Value, any Error>) {
            let waiting = outcome.withLockedValue { state in
                defer { state.continuation = nil }
                return state.continuation
            }
            waiting?.resume(with: result)
        }
        var token: UInt64 = 0
        defer { ConnectionWatch.shared.unwatch(connection, token) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                outcome.withLockedValue { $0.continuation = continuation }
                let work = Task {
                    do { finish(.success(try await body())) } catch { finish(.failure(error)) }
                }
                outcome.withLockedValue { $0.work = work }
                if Task.isCancelled { work.cancel() }  // cancelled before `work` was there to cancel
                token = ConnectionWatch.shared.watch(connection) { finish(.failure($0)) }
            }
        } onCancel: {
            outcome.withLockedValue { $0.work }?.cancel()
        }
    }

    /// The statements waiting on each open connection, failed together when it closes: one callback on a
    /// connection's close future for its whole life, where one per statement would pile up on a pooled connection
    /// until it closes.
    final class ConnectionWatch: Sendable {
        static let shared = ConnectionWatch()

        private struct State {
            var waiters: [ObjectIdentifier: [UInt64: @Sendable (any Error) -> Void]] = [:]
            var nextToken: UInt64 = 1
        }

        private let state = NIOLockedValueBox(State())

        /// Calls `fail` when `connection` closes, unless ``unwatch(_:_:)`` comes first. Returns the token to unwatch
        /// with. O(1).
        func watch(_ connection: PostgresConnection, _ fail: @escaping @Sendable (any Error) -> Void) -> UInt64 {
            let key = ObjectIdentifier(connection)
            let (token, isNew) = state.withLockedValue { state -> (UInt64, Bool) in
                let token = state.nextToken
                state.nextToken += 1
                let isNew = state.waiters[key] == nil
                state.waiters[key, default: [:]][token] = fail
                return (token, isNew)
            }
            if isNew {
                connection.closeFuture.whenComplete { [state] _ in
                    let waiting = state.withLockedValue { $0.waiters.removeValue(forKey: key) } ?? [:]
                    let error = DurableError(.connectionLost, "the server closed the connection")
                    for fail in waiting.values { fail(error) }
                }
            }
            return token
        }

        /// Stops watching for the statement of `token`. O(1).
        func unwatch(_ connection: PostgresConnection, _ token: UInt64) {
            let key = ObjectIdentifier(connection)
            state.withLockedValue { state in
                guard state.waiters[key] != nil else { return }
                state.waiters[key]![token] = nil
            }
        }
    }
#endif
