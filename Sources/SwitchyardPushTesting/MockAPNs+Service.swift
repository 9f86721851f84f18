#if Push
    import NIOCore
    import ServiceLifecycle

    /// The mock as a swift-service-lifecycle `Service`, for a test or a tool that runs it in a `ServiceGroup` beside
    /// the clients it serves.
    extension MockAPNs: Service {
        /// Serves until the group's graceful shutdown, or the task's cancellation, then stops listening
        /// (``shutdown()``) and returns. The mock answers whether or not `run()` runs (it listens from
        /// ``start(certificates:rules:maximumStreams:connectionWindow:port:now:clock:eventLoopGroup:)`` on); `run()`
        /// adds only the stop. Connections open then stay open until their clients close them: list the mock before
        /// its clients in the group, which shuts its services down in reverse order, so that the clients close
        /// theirs first.
        ///
        /// A mock already stopped by ``shutdown()`` makes `run()` return at the group's end without error.
        /// - Throws: SwiftNIO's error if the listening socket cannot be closed.
        public func run() async throws {
            do {
                try await gracefulShutdown()
            } catch {
                // Cancelled: stop all the same.
            }
            do {
                try await shutdown()
            } catch ChannelError.alreadyClosed {
                // Stopped by `shutdown()` already.
            }
        }
    }
#endif
