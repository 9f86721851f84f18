#if CLI
    import ArgumentParser
    import Foundation
    import Logging
    import Switchyard
    import SwitchyardDashboard

    /// `--dashboard [ADDR:PORT]` and its companions, for the commands that run a job in this process (`import`,
    /// `fetch`, `thumbnails`): a live dashboard of the job's work queues while it runs.
    struct DashboardOptions: ParsableArguments {
        /// Where `--dashboard` without a value listens.
        static let defaultAddress = "127.0.0.1:8600"

        @Option(
            name: .customLong("dashboard"),
            help: ArgumentHelp(
                "Serve a live dashboard of the command's work in a browser at ADDR:PORT, or at PORT on 127.0.0.1 (a bare --dashboard listens on \(DashboardOptions.defaultAddress); port 0 picks a free port), and print its URL on standard error as 'Dashboard: URL'. import keeps serving it after a complete import, until Ctrl-C; fetch and thumbnails serve it while they run.",
                valueName: "ADDR:PORT"))
        var address: String?

        @Option(
            name: .customLong("dashboard-token"),
            help: ArgumentHelp(
                "Let the dashboard's page cancel jobs and queues and suspend and resume queues, for requests that carry TOKEN (the printed URL carries it after #token=); without this option or --dashboard-actions the dashboard is read-only.",
                valueName: "TOKEN"))
        var token: String?

        @Flag(
            name: .customLong("dashboard-actions"),
            help: "Like --dashboard-token, with a random token (in the printed URL).")
        var actions = false

        @Option(
            name: .customLong("dashboard-interval"),
            help: ArgumentHelp(
                "Milliseconds between the dashboard's updates while someone watches (at least 250).", valueName: "MS"))
        var interval: Int?

        func validate() throws {
            if let address { _ = try ListenAddress(address) }
            if let interval, interval < 250 {
                throw ValidationError("--dashboard-interval must be at least 250 (milliseconds), got \(interval)")
            }
            if token != nil || actions || interval != nil, address == nil {
                throw ValidationError(
                    "--dashboard-token, --dashboard-actions and --dashboard-interval need --dashboard")
            }
        }

        var configuration: DashboardConfiguration {
            let token = token ?? (actions ? DashboardActions.randomToken() : nil)
            return DashboardConfiguration(
                interval: .milliseconds(interval ?? 1000), actions: token.map { .enabled(token: $0) } ?? .disabled)
        }

        /// Starts the dashboard over `sources` if `--dashboard` was given, and returns its URL once it listens (nil
        /// without `--dashboard`). The server runs until the process ends. Throws if the address cannot be bound.
        func start(_ sources: [any DashboardSource]) async throws -> String? {
            guard let address else { return nil }
            return try await DashboardLauncher.start(
                Dashboard(sources: sources, configuration: configuration), at: try ListenAddress(address))
        }

        /// Rewrites a bare `--dashboard` (last, or followed by another option or by a value that is not an address)
        /// into `--dashboard=<default>`: the option's value is optional on the command line.
        static func expandingBareFlag(_ arguments: [String]) -> [String] {
            var result: [String] = []
            var operands = false
            for (index, argument) in arguments.enumerated() {
                // After `--`, arguments are operands: left as they are.
                operands = operands || argument == "--"
                guard !operands, argument == "--dashboard" else {
                    result.append(argument)
                    continue
                }
                let next = index + 1 < arguments.count ? arguments[index + 1] : nil
                if let next, (try? ListenAddress(next)) != nil {
                    result.append(argument)
                } else {
                    result.append("--dashboard=\(defaultAddress)")
                }
            }
            return result
        }
    }

    /// `HOST:PORT`, `[IPv6]:PORT` or `PORT` (on 127.0.0.1).
    struct ListenAddress: Hashable {
        var host: String
        var port: Int

        init(_ text: String) throws {
            var host = "127.0.0.1"
            var portText = Substring(text)
            if let colon = text.lastIndex(of: ":") {
                host = String(text[..<colon])
                portText = text[text.index(after: colon)...]
                if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            }
            guard !host.isEmpty, !host.contains("/"), let port = Int(portText), (0...65535).contains(port) else {
                throw ValidationError("an address must be HOST:PORT or PORT (0 picks a free port), got '\(text)'")
            }
            self.host = host
            self.port = port
        }
    }

    /// Starts dashboard servers for the commands.
    enum DashboardLauncher {
        /// Runs `dashboard` at `address` in a task of its own, and returns its URL once it listens (with the
        /// actions' token in the fragment when actions are on). Throws if it cannot listen.
        static func start(_ dashboard: Dashboard, at address: ListenAddress) async throws -> String {
            let (urls, continuation) = AsyncStream.makeStream(of: String.self)
            var logger = Logger(label: "switchyard.dashboard")
            logger.logLevel = .warning
            let server = DashboardServer(
                dashboard: dashboard, host: address.host, port: address.port, logger: logger,
                onListening: { url in
                    continuation.yield(url)
                    continuation.finish()
                })
            let serving = Task {
                do { try await server.run() } catch {
                    continuation.finish()
                    throw error
                }
            }
            var iterator = urls.makeAsyncIterator()
            guard let url = await iterator.next() else {
                do { try await serving.value } catch {
                    throw ValidationError("cannot serve the dashboard at \(address.host):\(address.port): \(error)")
                }
                throw ValidationError("the dashboard at \(address.host):\(address.port) stopped at once")
            }
            if case .enabled(let token) = dashboard.configuration.actions { return url + "#token=" + token }
            return url
        }

        /// Waits for Ctrl-C (or SIGTERM, SIGHUP) through `target`, after telling where the dashboard still is.
        static func linger(at url: String, target: CancellationTarget) async {
            let (stop, continuation) = AsyncStream.makeStream(of: Void.self)
            target.set { continuation.finish() }
            FileHandle.standardError.write(
                Data("The dashboard stays at \(url) — press Ctrl-C to quit.\n".utf8))
            for await _ in stop {}
        }
    }
#endif
