#if Images
    import ServiceLifecycle

    /// The pipeline as a swift-service-lifecycle `Service`: it serves until its `ServiceGroup` shuts down, then shuts
    /// itself down.
    ///
    /// ```swift
    /// let pipeline = ImagePipeline(configuration: .init(name: "thumbnails"), logger: logger)
    /// let group = ServiceGroup(services: [pipeline, server], gracefulShutdownSignals: [.sigterm], logger: logger)
    /// try await group.run()  // `server` asks `pipeline` for thumbnails
    /// ```
    extension ImagePipeline: Service {
        /// Waits for the end of the service, then shuts the pipeline down (``shutdown()``). The pipeline serves
        /// requests whether or not `run()` runs; `run()` adds only the shutdown.
        ///
        /// - **The end of the service** is the group's graceful shutdown, or the cancellation of the task that runs
        ///   `run()` (the group's forceful end): both shut the pipeline down. Requests still waiting or running are
        ///   not drained: their jobs are cancelled (a running decode stops within a region of pixels) and their
        ///   callers get ``ImageError/Reason/shutDown`` (a caller whose own task was cancelled first gets
        ///   ``ImageError/Reason/cancelled``), as does every later request, at once, without looking at the caches.
        ///   A `ServiceGroup` shuts its services down in the reverse of their order, each after the one behind it has
        ///   returned: list the pipeline before the services that ask it for thumbnails, so that they have stopped
        ///   when it shuts down.
        /// - **Returns** once the pipeline is shut down, however the service ended; it never throws.
        ///
        /// Run it at most once. The session (``Configuration/session``) and the disk cache are left as they are: a
        /// session is a service of its own.
        public func run() async throws {
            do {
                try await gracefulShutdown()
            } catch {
                // Cancelled: shut down all the same.
            }
            await shutdown()
        }
    }
#endif
