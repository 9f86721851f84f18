#if Postgres
    import Logging
    import PostgresNIO
    import Switchyard

    extension PostgresClient {
        /// A pool of connections to `url`'s server and database, with TLS as its `sslmode` says (``PostgresTLS``),
        /// its `connect_timeout` and `application_name`, and `search_path` set to its schema on every connection.
        ///
        /// postgres-nio's `PostgresClient`: run it (`run()`, or as a `Service` of a swift-service-lifecycle
        /// `ServiceGroup`) for as long as it is used, and lease its connections with `withConnection`, run
        /// transactions with `withTransaction` (committed when the closure returns, rolled back when it throws) and
        /// stream a query's rows with `query`, one row at a time without collecting them.
        ///
        /// ```swift
        /// let client = try await PostgresClient(url: PostgresURL(text), maximumConnections: 8, logger: logger)
        /// try await withThrowingDiscardingTaskGroup { group in
        ///     group.addTask { await client.run() }
        ///     let rows = try await client.query("SELECT stop_id, stop_name FROM stops")
        ///     for try await (id, name) in rows.decode((String, String).self) { print(id, name) }
        ///     group.cancelAll()
        /// }
        /// ```
        ///
        /// The certificate and key files are read here, on `BlockingExecutor.shared`, and so is the system's bundle of
        /// authorities on Linux when no `sslrootcert` is given and `sslmode` checks the server: the connections read
        /// no file. (Elsewhere, postgres-nio has NIOSSL read the system's store when it opens its first connection.)
        ///
        /// - Parameters:
        ///   - maximumConnections: the most connections open at once (leases beyond wait for one).
        ///   - logger: the pool's background logger (connections opened and closed, errors), or nil for none.
        /// - Throws: an `ImportError` naming a certificate or key file that cannot be read.
        public convenience init(url: PostgresURL, maximumConnections: Int = 20, logger: Logger? = nil) async throws {
            let tls: Configuration.TLS
            switch url.tls.mode {
            case .disable:
                tls = .disable
            default:
                let settings = url.tls
                let configuration: TLSConfiguration
                do {
                    configuration = try await BlockingExecutor.shared.run {
                        try PostgresTLSContexts.tlsConfiguration(settings)
                    }
                } catch {
                    throw PostgresSession.describe(error, url: url, connecting: true)
                }
                tls = settings.isRequired ? .require(configuration) : .prefer(configuration)
            }
            var configuration = Configuration(
                host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
                tls: tls)
            configuration.options.connectTimeout = url.connectTimeout
            configuration.options.maximumConnections = maximumConnections
            configuration.options.additionalStartupParameters = [
                ("client_encoding", "UTF8"), ("application_name", url.applicationName),
                // The schema, for every statement's unqualified names (a startup parameter: no round trip).
                ("options", "-c search_path=" + quoted(url.schema).replacingSpaces()),
            ]
            self.init(configuration: configuration, backgroundLogger: logger ?? PostgresSession.silent)
        }
    }

    extension String {
        /// The text with spaces and backslashes escaped as the `options` startup parameter needs them.
        fileprivate func replacingSpaces() -> String {
            var result = ""
            for character in self {
                if character == " " || character == "\\" { result.append("\\") }
                result.append(character)
            }
            return result
        }
    }
#endif
