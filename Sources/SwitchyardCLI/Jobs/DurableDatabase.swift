#if CLI
    import ArgumentParser
    import Foundation
    import Logging
    import PostgresNIO
    import SwitchyardPostgres
    import SwitchyardTransit

    /// The durable queue that `--database` names, for `switchyard enqueue`, `worker` and `jobs`: the URL parsed (a
    /// malformed one refused as `error: --database: REASON`, status 1), the server probed with one connection (an
    /// unreachable one refused as `error: cannot reach URL: REASON`, status 1, within the URL's `connect_timeout`), and
    /// a running pool for the queue's statements.
    ///
    /// The URL's `schema` parameter names the schema of the queue's tables; without one (or with `public`) the queue is
    /// in `switchyard`. Each import job goes to a schema of its own, named by the job (`switchyard enqueue import`).
    struct DurableDatabase: Sendable {
        /// The queue's schema when the URL names none.
        static let defaultSchema = "switchyard"

        /// The server and database, with `PGPASSWORD` as the password when the URL names none. Its schema is the URL's
        /// (`public` when it names none): the `search_path` of the pool's connections.
        let url: PostgresURL
        /// The schema of the queue's tables.
        let queueSchema: String

        /// Parses `text`, the `--database` option; a malformed URL is reported and exits with status 1.
        init(parsing text: String) throws {
            var url: PostgresURL
            do {
                url = try PostgresURL(text)
            } catch {
                throw Self.failure("--database: \(error)")
            }
            if url.password == nil { url.password = ProcessInfo.processInfo.environment["PGPASSWORD"] }
            self.url = url
            // PostgresURL says `public` both when the URL names it and when it names no schema: either way the
            // queue's tables stay out of the schema everyone's tables go to by default.
            queueSchema = url.schema == "public" ? Self.defaultSchema : url.schema
        }

        /// Connects once and disconnects, so that an unreachable server, a refused login or a missing database is
        /// reported at once and in words (status 1). postgres-nio's pool would retry for a minute before failing
        /// with no reason.
        func probe() async throws {
            do {
                try await url.checkConnection()
            } catch let error as ImportError {
                // The reason names the URL first (`postgres://…: cannot connect: connection refused`).
                var reason = error.reason
                if reason.hasPrefix("\(url): ") { reason.removeFirst("\(url): ".count) }
                throw Self.failure("cannot reach \(url): \(reason)")
            } catch {
                throw Self.failure("cannot reach \(url): \(Self.describe(error))")
            }
        }

        /// Runs `body` with the queue, on a pool of up to `maximumConnections` that runs until `body` returns.
        func withQueue<Result: Sendable>(
            maximumConnections: Int, logger: Logger? = nil, _ body: (DurableQueue) async throws -> Result
        ) async throws -> Result {
            let client: PostgresClient
            do {
                client = try await PostgresClient(url: url, maximumConnections: maximumConnections, logger: nil)
            } catch {
                throw Self.failure(Self.describe(error))  // an unreadable sslrootcert, sslcert or sslkey
            }
            let queue = DurableQueue(client: client, schema: queueSchema, logger: logger)
            return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
                group.addTask { await client.run() }
                defer { group.cancelAll() }
                return try await body(queue)
            }
        }

        /// Whether the queue's schema was ever migrated (`enqueue` and `worker` do it; `jobs` only reads).
        func queueExists(_ queue: DurableQueue) async throws -> Bool {
            let rows = try await queue.client.query(
                "SELECT to_regclass(format('%I.%I', \(queue.schema)::text, 'migrations')) IS NOT NULL")
            for try await exists in rows.decode(Bool.self) { return exists }
            return false
        }

        /// The import record of `url`'s schema, or nil when the schema holds none (or does not exist).
        /// - Throws: `ImportError` when the server cannot be reached or the record cannot be read.
        static func importStatus(at url: PostgresURL) async throws -> ImportStatus? {
            do {
                return try await ImportStatus.read(url)
            } catch let error as ImportError
                where error.kind == .database
                && error.reason.hasSuffix(" holds no Switchyard import in schema \(url.schema)")
            {
                return nil
            }
        }

        /// Runs `body`, reporting any error but an `ExitCode` as `error: REASON` and exiting with status 1.
        static func reporting<Result>(_ body: () async throws -> Result) async throws -> Result {
            do {
                return try await body()
            } catch let error as ExitCode {
                throw error
            } catch {
                throw failure(describe(error))
            }
        }

        /// Writes `error: MESSAGE` on standard error and returns the exit status 1 to throw.
        static func failure(_ message: String) -> ExitCode {
            FileHandle.standardError.write(Data("error: \(TerminalText.visible(message))\n".utf8))
            return ExitCode(1)
        }

        /// `error` in words: a server's message with its SQLSTATE (postgres-nio's errors describe themselves only as
        /// "PSQLError – Generic description…"), or the error's own description.
        static func describe(_ error: any Error) -> String {
            switch error {
            case let error as PSQLError:
                if let message = error.serverInfo?[.message] {
                    return message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
                }
                return "\(error.code)" + (error.underlying.map { ": \($0)" } ?? "")
            case let error as ImportError:
                return error.message
            default:
                return "\(error)"
            }
        }
    }
#endif
