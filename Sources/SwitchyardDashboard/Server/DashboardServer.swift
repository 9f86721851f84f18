#if Dashboard
    import Hummingbird
    import Logging
    import NIOCore
    import ServiceLifecycle

    /// A standalone HTTP server for one ``Dashboard``, at the root of `http://HOST:PORT/`: a swift-service-lifecycle
    /// `Service` that runs until its task is cancelled or a graceful shutdown is triggered.
    ///
    /// Binds `127.0.0.1` by default: the dashboard shows job names and errors, which are an application's
    /// internals. Bind another address only behind something that authenticates viewers. Port 0 picks a free port;
    /// ``onListening`` hears the resulting URL. Bound to a loopback address, the server answers only requests whose
    /// `Host` is `localhost`, a loopback address or the bound host (403 otherwise), so that a page elsewhere cannot
    /// read it through a DNS name it points at 127.0.0.1.
    public struct DashboardServer: Service {
        public let dashboard: Dashboard
        public let host: String
        public let port: Int
        public let logger: Logger
        /// Called once the server listens, with its URL (`http://127.0.0.1:34567/`).
        public var onListening: (@Sendable (String) async -> Void)?

        public init(
            dashboard: Dashboard, host: String = "127.0.0.1", port: Int = 8600,
            logger: Logger = Logger(label: "switchyard.dashboard"),
            onListening: (@Sendable (String) async -> Void)? = nil
        ) {
            self.dashboard = dashboard
            self.host = host
            self.port = port
            self.logger = logger
            self.onListening = onListening
        }

        /// Serves until cancelled or shut down gracefully. Throws if the address cannot be bound.
        public func run() async throws {
            let router = Router()
            if Self.isLoopback(host) { router.add(middleware: LoopbackHostCheck(boundHost: host)) }
            dashboard.addRoutes(to: router, basePath: "/")
            let onListening = onListening
            let host = host
            let application = Application(
                router: router,
                configuration: .init(address: .hostname(host, port: port), serverName: "Switchyard dashboard"),
                onServerRunning: { channel in
                    let port = channel.localAddress?.port ?? 0
                    let shown = host.contains(":") ? "[\(host)]" : host
                    await onListening?("http://\(shown):\(port)/")
                },
                logger: logger)
            try await application.runService()
        }

        static func isLoopback(_ host: String) -> Bool {
            let host = host.lowercased()
            return host == "localhost" || host == "::1" || host.hasPrefix("127.")
        }
    }

    /// Refuses requests whose `Host` does not name a loopback server (see ``DashboardServer``).
    struct LoopbackHostCheck<Context: RequestContext>: RouterMiddleware {
        let boundHost: String

        func handle(
            _ request: Request, context: Context, next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            guard ActionGuard.isAllowedHost(request.head.authority, boundHost: boundHost) else {
                return Dashboard.error(
                    .forbidden, "refused a request for another host (\(request.head.authority ?? "none"))")
            }
            return try await next(request, context)
        }
    }
#endif
