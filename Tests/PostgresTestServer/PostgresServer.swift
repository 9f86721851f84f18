#if Postgres
    import Foundation
    import Switchyard

    /// The PostgreSQL server the tests use: `SWITCHYARD_POSTGRES_URL` when set (CI starts one with
    /// `Scripts/postgres-dev.sh` and exports it, with `SWITCHYARD_POSTGRES_DIR`), else a throwaway cluster this process
    /// starts with that script when the server's binaries are installed (stopped when the process exits).
    ///
    /// Without either the PostgreSQL tests are skipped with the reason, except under CI (`CI` set), where they run
    /// and fail: CI must never pass them by skipping.
    public enum PostgresServer {
        /// A server to connect to.
        public struct Server: Sendable {
            /// `postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=verify-full&sslrootcert=FOLDER/ca.crt`.
            public var url: String
            /// The cluster's folder when `Scripts/postgres-dev.sh` manages it (needed to restart it, and where its
            /// certificates are), else nil.
            public var folder: String?

            /// The URL for `schema`.
            public func url(schema: String) -> String { url + (url.contains("?") ? "&" : "?") + "schema=" + schema }

            /// A file the script made in the cluster's folder (`ca.crt`, `other-ca.crt`, `client.crt`,
            /// `client.key`), or nil when the folder is unknown.
            public func file(_ name: String) -> String? { folder.map { $0 + "/" + name } }
        }

        /// Whether the tests can have a server (or must fail without one, under CI).
        public static let isAvailable: Bool = {
            let environment = ProcessInfo.processInfo.environment
            return environment["SWITCHYARD_POSTGRES_URL"] != nil || environment["CI"] != nil || serverInstalled
        }()

        public static let skipReason =
            "no PostgreSQL: set SWITCHYARD_POSTGRES_URL, or install the server (Scripts/postgres-dev.sh start does)"

        /// The server, started on first use.
        public static func server() async throws -> Server {
            try await shared.value
        }

        private static let shared = Task<Server, any Error> {
            let environment = ProcessInfo.processInfo.environment
            if let url = environment["SWITCHYARD_POSTGRES_URL"] {
                return Server(url: patient(url), folder: environment["SWITCHYARD_POSTGRES_DIR"])
            }
            guard serverInstalled else {
                throw PostgresServerError(description: "no PostgreSQL server: \(skipReason)")
            }
            await ClusterLock.stopAbandoned(in: NSTemporaryDirectory(), prefix: "switchyard-postgres-tests-") {
                folder in
                do {
                    _ = try await runScript(["stop"], folder: folder)
                } catch {
                    print("could not stop the abandoned PostgreSQL cluster in \(folder): \(error)")
                }
            }
            let folder = ownFolder
            try await BlockingExecutor.shared.run { try ClusterLock.claim(folder) }
            atexit {
                let folder = PostgresServer.ownFolder
                if FileManager.default.fileExists(atPath: folder) {
                    _ = system("SWITCHYARD_POSTGRES_DIR='\(folder)' '\(PostgresServer.script)' stop >/dev/null 2>&1")
                }
                unlink(folder + ".lock")
            }
            // A cluster under this name now is an earlier process's with the same ID: abandoned, not to be reused.
            if FileManager.default.fileExists(atPath: folder) { _ = try await runScript(["stop"], folder: folder) }
            let output = try await runScript(["start"], folder: folder)
            guard let url = output.split(separator: "\n").last.map(String.init), url.hasPrefix("postgres://") else {
                throw PostgresServerError(description: "Scripts/postgres-dev.sh start printed no URL: \(output)")
            }
            return Server(url: patient(url), folder: folder)
        }

        /// `url` with `connect_timeout=60` unless it names one. The whole test run shares two cores with the
        /// server; the default 10 s is for deployments, and a test that times out connecting tests nothing.
        private static func patient(_ url: String) -> String {
            url.contains("connect_timeout=") ? url : url + (url.contains("?") ? "&" : "?") + "connect_timeout=60"
        }

        /// Where this process starts its own cluster when it has to (stopped and removed at exit; claimed with
        /// ``ClusterLock`` so that a later test process stops it if this one crashes).
        static let ownFolder = NSTemporaryDirectory() + "switchyard-postgres-tests-\(getpid())"

        /// Restarts the server at once (every connection is dropped, as when a server crashes or is restarted).
        public static func restart(_ server: Server) async throws {
            guard let folder = server.folder else {
                throw PostgresServerError(description: "the server's folder is unknown: set SWITCHYARD_POSTGRES_DIR")
            }
            _ = try await runScript(["restart"], folder: folder)
        }

        /// `Scripts/postgres-dev.sh`, from this file's place in the repository.
        static let script: String = {
            var url = URL(fileURLWithPath: #filePath)
            for _ in 0..<3 { url.deleteLastPathComponent() }
            return url.appendingPathComponent("Scripts/postgres-dev.sh").path
        }()

        private static var serverInstalled: Bool {
            let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
            return versions.contains {
                FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb")
            }
        }

        /// Runs the script with `arguments` for the cluster in `folder` and returns its standard output.
        ///
        /// Spawned and waited for directly (`posix_spawn`, `waitpid` on a blocking thread), not through Foundation's
        /// `Process`, whose termination handler was seen never to run for this script once it had started the server.
        /// Its output goes to a file: the server it starts inherits descriptors, and would keep a pipe open.
        static func runScript(_ arguments: [String], folder: String) async throws -> String {
            let outputPath = NSTemporaryDirectory() + "switchyard-postgres-script-\(UUID())"
            defer { try? FileManager.default.removeItem(atPath: outputPath) }
            let command =
                "SWITCHYARD_POSTGRES_DIR='\(folder)' '\(script)' \(arguments.joined(separator: " ")) > '\(outputPath)' 2>/dev/null"
            let status = try await BlockingExecutor.shared.run { () throws -> Int32 in
                var pid: pid_t = 0
                let words = ["/bin/sh", "-c", command]
                let argv: [UnsafeMutablePointer<CChar>?] = words.map { $0.withCString { strdup($0) } } + [nil]
                defer { argv.forEach { free($0) } }
                let spawned = posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ)
                guard spawned == 0 else { throw PostgresServerError(description: "cannot run the script (\(spawned))") }
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return status
            }
            guard status == 0 else {
                throw PostgresServerError(description: "Scripts/postgres-dev.sh \(arguments[0]) failed (\(status))")
            }
            return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        }
    }

    public struct PostgresServerError: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }
#endif

#if Postgres
    import Switchyard

    extension PostgresServer {
        /// The output lines of `sql` run by `psql` on `url` (libpq's parameters only: no `schema=`), values
        /// separated by `|`. Run on `BlockingExecutor.shared`.
        public static func psql(_ url: String, _ sql: String) async throws -> [String] {
            try await BlockingExecutor.shared.run {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
                process.arguments = ["-X", "-q", "-A", "-t", "-F", "|", "-v", "ON_ERROR_STOP=1", url, "-c", sql]
                let output = Pipe()
                let errors = Pipe()
                process.standardOutput = output
                process.standardError = errors
                try process.run()
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                guard process.terminationStatus == 0 else {
                    throw PostgresServerError(description: "psql: \(problem)")
                }
                return text.split(separator: "\n").map(String.init)
            }
        }
    }
#endif
