#if CLI && SWITCHYARD_TEST_HOOKS
    import Foundation
    import PostgresTestServer
    import Testing

    /// A queue schema of one test on the shared server, with the `switchyard` commands that use it.
    struct QueueUnderTest {
        let server: PostgresServer.Server
        let schema: String

        init(_ server: PostgresServer.Server, _ label: String) {
            self.server = server
            schema = "q_\(label)_\(UUID().uuidString.prefix(8).lowercased())"
        }

        /// `--database`'s URL: the queue in `schema` (the record kind's table resolves there too).
        var url: String { server.url(schema: schema) }

        /// Runs SQL with `psql` (the URL without `schema=`), unqualified names resolving in the schema.
        func sql(_ statement: String) async throws -> [String] {
            try await PostgresServer.psql(server.url, "SET search_path TO \(schema); " + statement)
        }

        /// The single value of `query`, as an integer.
        func count(_ query: String) async throws -> Int {
            Int(try await sql(query).last ?? "") ?? -1
        }

        /// A `switchyard worker` child process (killed at the end of the test if still running).
        func startWorker(name: String, concurrency: Int = 4, lease: Double = 2, extra: [String] = []) throws
            -> (pid: Int32, exit: Task<Int32, Never>)
        {
            try SwitchyardProcess.start(
                [
                    "worker", "--database", url, "--name", name, "--concurrency", "\(concurrency)", "--lease",
                    "\(lease)",
                    "--maintenance-ms", "200", "--poll-ms", "200", "--grace", "5",
                ] + extra)
        }

        /// Waits until `condition` (an SQL query returning one boolean) holds, reading every 20 ms; fails the test
        /// after `limit`.
        func waitUntil(_ what: String, limit: Duration = .seconds(60), _ condition: String) async throws {
            let deadline = ContinuousClock.now + limit
            // A read that fails (the server restarting under a test that restarts it) counts as not yet.
            while (try? await sql(condition).last) != "t" {
                if ContinuousClock.now > deadline {
                    Issue.record("timed out waiting until \(what)")
                    return
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        func drop() async {
            _ = try? await PostgresServer.psql(server.url, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
        }
    }

    /// Stops a child process: `SIGTERM`, then its exit status.
    func terminate(_ worker: (pid: Int32, exit: Task<Int32, Never>)) async -> Int32 {
        kill(worker.pid, SIGTERM)
        return await worker.exit.value
    }
#endif
