#if HTTP
    import ServiceLifecycle

    /// The session as a swift-service-lifecycle `Service`: it serves until its `ServiceGroup` shuts down, then shuts
    /// itself down.
    ///
    /// ```swift
    /// let session = HTTPSession(configuration: .init(name: "feeds"), logger: logger)
    /// let group = ServiceGroup(services: [session, crawler], gracefulShutdownSignals: [.sigterm], logger: logger)
    /// try await group.run()  // `crawler` calls `session`
    /// ```
    extension HTTPSession: Service {
        /// Waits for the end of the service, then shuts the session down (``shutdown()``). The session serves calls
        /// whether or not `run()` runs; `run()` adds only the shutdown.
        ///
        /// - **The end of the service** is the group's graceful shutdown, or the cancellation of the task that runs
        ///   `run()` (the group's forceful end): both end the same way. Requests still waiting or running are not
        ///   drained: they fail with ``HTTPError/Reason/sessionShutDown`` (unless their callers had cancelled them
        ///   first), as does every later call, without sending anything. A `ServiceGroup` shuts its services down in
        ///   the reverse of their order, each after the one behind it has returned: list the session before the
        ///   services that call it, so that they have stopped when it shuts down.
        /// - **Returns** once every request has ended and the client's connections are closed; at once at the end of
        ///   the service if ``shutdown()`` was called already.
        /// - Throws: the client's error if its connections cannot be closed. Never `CancellationError`.
        ///
        /// Run it at most once.
        public func run() async throws {
            do {
                try await gracefulShutdown()
            } catch {
                // Cancelled: shut down all the same.
            }
            guard !isShutDown else { return }
            try await shutdown()
        }
    }
#endif
