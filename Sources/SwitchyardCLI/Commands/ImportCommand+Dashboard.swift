#if CLI
    import Foundation
    import SwitchyardDashboard
    import SwitchyardTransit

    extension ImportCommand {
        /// With `--dashboard`: serves a dashboard of the import's queue and prints its URL on standard error; nil
        /// without it.
        func startDashboard(_ importer: GTFSImporter) async throws -> String? {
            guard let url = try await dashboard.start([WorkQueuesSource(id: "import", queues: [importer.queue])])
            else { return nil }
            FileHandle.standardError.write(Data("Dashboard: \(url)\n".utf8))
            return url
        }
    }
#endif
