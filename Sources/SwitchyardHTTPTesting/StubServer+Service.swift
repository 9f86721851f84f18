#if HTTP || Push
    import NIOCore
    import ServiceLifecycle

    /// The stub server as a swift-service-lifecycle `Service`, for a test that runs it in a `ServiceGroup` beside the
    /// clients it serves.
    extension StubServer: Service {
        /// Serves until the group's graceful shutdown, or the task's cancellation, then stops listening
        /// (``shutdown()``) and returns. The server answers whether or not `run()` runs (it listens from
        /// ``start(tls:http2:eventLoopGroup:)`` on); `run()` adds only the stop. Connections open then stay open
        /// until their clients close them: list the server before its clients in the group, which shuts its services
        /// down in reverse order, so that the clients close theirs first.
        ///
        /// A server already stopped by ``shutdown()`` makes `run()` return at the group's end without error.
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
