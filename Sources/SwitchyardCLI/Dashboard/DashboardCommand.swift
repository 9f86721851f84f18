#if CLI
    import ArgumentParser
    import Foundation
    import SwitchyardDashboard
    import SwitchyardPostgres

    /// `switchyard dashboard --database postgres://…`: a live dashboard of the durable queue (its queues, workers,
    /// running jobs with their progress, waiting jobs with why each waits, the latest failures), served until Ctrl-C.
    ///
    /// Exit status: 0 after Ctrl-C (or SIGTERM, SIGHUP); 1 when `--database` is malformed or unreachable, or the
    /// address cannot be bound (`error: …` on standard error); 64 for wrong arguments.
    struct DashboardCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "dashboard",
            abstract: "Serve a live dashboard of the durable queue in a browser.",
            discussion: """
                Listens on --listen (default 127.0.0.1:8600; port 0 picks a free one) and prints the URL as \
                `Dashboard: URL`. The page updates every --interval milliseconds while someone watches, from one \
                snapshot shared by every viewer; nothing reads the database while nobody does. \
                The dashboard is read-only unless --actions-token or --actions is given: then the page can cancel \
                jobs, for requests that carry the token (the printed URL carries it after #).

                --database postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?schema=QUEUE_SCHEMA] (default schema \
                switchyard). Without a password in the URL, PGPASSWORD is used.
                """)

        @Option(
            help:
                "The queue's database: postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?schema=QUEUE_SCHEMA] (default schema switchyard)."
        )
        var database: String

        @Option(
            help: ArgumentHelp(
                "Where to listen: ADDR:PORT, [IPv6]:PORT, or PORT on 127.0.0.1 (port 0 picks a free port).",
                valueName: "ADDR:PORT"))
        var listen = DashboardOptions.defaultAddress

        @Option(
            help: ArgumentHelp("Milliseconds between updates while someone watches (at least 250).", valueName: "MS"))
        var interval = 1000

        @Option(
            help: ArgumentHelp(
                "Let the page cancel jobs, for requests that carry TOKEN (the printed URL carries it after #token=).",
                valueName: "TOKEN"))
        var actionsToken: String?

        @Flag(help: "Like --actions-token, with a random token (in the printed URL).")
        var actions = false

        func validate() throws {
            _ = try ListenAddress(listen)
            guard interval >= 250 else {
                throw ValidationError("--interval must be at least 250 (milliseconds), got \(interval)")
            }
        }

        func run() async throws {
            let database = try DurableDatabase(parsing: self.database)
            try await database.probe()
            let token = actionsToken ?? (actions ? DashboardActions.randomToken() : nil)
            let configuration = DashboardConfiguration(
                interval: .milliseconds(interval), actions: token.map { .enabled(token: $0) } ?? .disabled)
            let target = CancellationTarget()
            let notice = InterruptNotice()
            let interrupts = InterruptHandler(notice: notice, stopping: "stopping the dashboard") { target.cancel() }
            try await DurableDatabase.reporting {
                try await database.withQueue(maximumConnections: 2) { (queue: DurableQueue) async throws -> Void in
                    let dashboard = Dashboard(sources: [DurableQueueSource(queue: queue)], configuration: configuration)
                    let url = try await DashboardLauncher.start(dashboard, at: try ListenAddress(listen))
                    FileHandle.standardOutput.write(Data("Dashboard: \(url)\n".utf8))
                    let (stop, continuation) = AsyncStream.makeStream(of: Void.self)
                    target.set { continuation.finish() }
                    for await _ in stop {}
                }
            }
            withExtendedLifetime(interrupts) {}
        }
    }
#endif
