#if Postgres
    extension PostgresURL {
        /// Opens one connection with the URL's settings (TLS, `connect_timeout`) and closes it: the quick way to
        /// fail with a clear message before starting a pool, whose connections retry quietly.
        ///
        /// - Throws: an `ImportError` naming the server (without the password) and saying what failed: the
        ///   connection (refused, timed out, no such host), TLS, authentication, or the database.
        public func checkConnection() async throws {
            let session = try await PostgresSession.connect(self)
            await session.close()
        }
    }
#endif
