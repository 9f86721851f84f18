#if Postgres
    import PostgresNIO
    import PostgresTestServer
    import SwitchyardPostgres
    import Testing

    /// postgres-nio's pool made from a `PostgresURL`, against the TLS-only throwaway cluster.
    @Suite(
        "PostgresClient(url:)", .serialized,
        .enabled(if: PostgresServer.isAvailable, Comment(rawValue: PostgresServer.skipReason)))
    struct PostgresClientTests {
        struct Failure: Error {}

        /// Runs `body` with a running client for `schema` (created empty), then stops the client.
        private func withClient(
            schema: String, _ body: @escaping @Sendable (PostgresClient) async throws -> Void
        ) async throws {
            let server = try await PostgresServer.server()
            _ = try await PostgresServer.psql(
                server.url, "DROP SCHEMA IF EXISTS \(schema) CASCADE; CREATE SCHEMA \(schema)")
            let client = try await PostgresClient(url: PostgresURL(server.url(schema: schema)), maximumConnections: 2)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                defer { group.cancelAll() }
                try await body(client)
            }
        }

        @Test("over verify-full TLS, with the URL's schema as search_path on every connection")
        func schemaAndTLS() async throws {
            try await withClient(schema: "client_schema") { client in
                try await client.query("CREATE TABLE stops (id text)")
                try await client.query("INSERT INTO stops VALUES ('a'), ('b')")
                let rows = try await client.query(
                    "SELECT count(*)::int, (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()) FROM stops")
                for try await (count, encrypted) in rows.decode((Int, Bool).self) {
                    #expect(count == 2 && encrypted)
                }
            }
        }

        @Test("withTransaction commits when the closure returns and rolls back when it throws")
        func transactions() async throws {
            try await withClient(schema: "client_transactions") { client in
                try await client.query("CREATE TABLE t (n int)")
                _ = try await client.withTransaction(logger: Logger(label: "test")) { connection in
                    try await connection.query("INSERT INTO t VALUES (1)", logger: Logger(label: "test"))
                }
                await #expect(throws: (any Error).self) {
                    try await client.withTransaction(logger: Logger(label: "test")) { connection in
                        try await connection.query("INSERT INTO t VALUES (2)", logger: Logger(label: "test"))
                        throw Failure()
                    }
                }
                let rows = try await client.query("SELECT coalesce(sum(n), 0)::int FROM t")
                for try await total in rows.decode(Int.self) { #expect(total == 1) }
            }
        }

        @Test("a query's rows stream one at a time: 200,000 rows counted without collecting them")
        func streamedRows() async throws {
            try await withClient(schema: "client_stream") { client in
                let rows = try await client.query("SELECT n FROM generate_series(1, 200000) AS n")
                var count = 0
                var sum = 0
                for try await n in rows.decode(Int.self) {
                    count += 1
                    sum += n
                }
                #expect(count == 200_000 && sum == 200_000 * 200_001 / 2)
            }
        }

        @Test("an unreadable sslrootcert fails the client's creation, naming the file")
        func unreadableRoot() async throws {
            let url = try PostgresURL("postgres://me@127.0.0.1/db?sslmode=verify-full&sslrootcert=/nonexistent.pem")
            await #expect(throws: (any Error).self) { _ = try await PostgresClient(url: url) }
            do {
                _ = try await PostgresClient(url: url)
            } catch {
                #expect("\(error)".contains("sslrootcert /nonexistent.pem"), "\(error)")
            }
        }
    }
#endif
