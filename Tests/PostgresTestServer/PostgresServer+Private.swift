#if Postgres
    import Foundation
    import Switchyard

    extension PostgresServer {
        /// A cluster of the calling test's own, for a test that restarts or stops the server and must not disturb
        /// the tests sharing ``server()``: started now (a few seconds), claimed with ``ClusterLock`` like the shared
        /// one (a later test process stops it if this one crashes), and stopped by ``stopPrivate(_:)``.
        public static func startPrivate(_ name: String) async throws -> Server {
            let folder = NSTemporaryDirectory() + "switchyard-postgres-tests-\(getpid())-\(name)"
            try await BlockingExecutor.shared.run { try ClusterLock.claim(folder) }
            if FileManager.default.fileExists(atPath: folder) { _ = try await runScript(["stop"], folder: folder) }
            let output = try await runScript(["start"], folder: folder)
            guard let url = output.split(separator: "\n").last.map(String.init), url.hasPrefix("postgres://") else {
                throw PostgresServerError(description: "Scripts/postgres-dev.sh start printed no URL: \(output)")
            }
            return Server(url: url, folder: folder)
        }

        /// Stops a cluster of ``startPrivate(_:)`` and removes its files.
        public static func stopPrivate(_ server: Server) async {
            guard let folder = server.folder else { return }
            _ = try? await runScript(["stop"], folder: folder)
            unlink(folder + ".lock")
        }
    }
#endif
