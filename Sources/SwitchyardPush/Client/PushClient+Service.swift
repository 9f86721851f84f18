#if Push
    import Logging
    import ServiceLifecycle
    import Switchyard

    /// The client as a swift-service-lifecycle `Service`: it serves until its `ServiceGroup` shuts down, then shuts
    /// itself down.
    ///
    /// ```swift
    /// let client = PushClient(key: key, bundleID: "org.example.app", logger: logger)
    /// let group = ServiceGroup(services: [client, notifier], gracefulShutdownSignals: [.sigterm], logger: logger)
    /// try await group.run()  // `notifier` sends with `client`
    /// ```
    extension PushClient: Service {
        /// Waits for the end of the service, then shuts the client down (``shutdown()``). The client sends whether or
        /// not `run()` runs; `run()` adds only the shutdown.
        ///
        /// - **Graceful shutdown** (the group's signal): the batches submitted so far, and any submitted meanwhile,
        ///   run to their end (``queue`` and ``resultsQueue`` become idle), their results delivered; then the
        ///   connections close and `run()` returns. Stop submitting first: a `ServiceGroup` shuts its services down
        ///   in the reverse of their order, so list the services that send after the client. A batch whose
        ///   ``results(of:total:buffering:)`` nobody reads holds the drain up until the group's graceful-shutdown
        ///   timeout cancels it.
        /// - **Cancellation** (the running task cancelled, before or during the drain: the group's forceful end):
        ///   every unfinished batch of both queues is cancelled (`WorkQueue.cancelAll()`; their
        ///   notifications end as ``PushResult/Outcome/notSent`` or ``PushResult/Outcome/unconfirmed``, as
        ///   ``send(_:total:onResult:)`` says), `run()` waits for them to end, closes the connections, and returns.
        /// - Not waited for: single ``send(_:)`` calls, which are not jobs. Those still running when the connections
        ///   close end as ``shutdown()`` says.
        ///
        /// `run()` returns (it throws nothing) after the shutdown; sends after it fail with
        /// ``PushReason/unreachable``. Run it at most once, and while it runs, prefer the group's shutdown to calling
        /// ``shutdown()``, which does not drain.
        public func run() async throws {
            let graceful: Bool
            do {
                try await gracefulShutdown()
                graceful = true
            } catch {
                graceful = false  // cancelled
            }
            let queues = [queue, resultsQueue]
            if let logger {
                let unfinished = queues.map(\.counts)
                logger.notice(
                    graceful ? "push client draining" : "push client cancelling its batches",
                    metadata: [
                        "queue": "\(queues.map(\.name).joined(separator: ", "))",
                        "pending": "\(unfinished.map(\.pending).reduce(0, +))",
                        "running": "\(unfinished.map(\.running).reduce(0, +))",
                    ])
            }
            await withTaskCancellationHandler {
                // Until both are idle at once: a batch of one may be submitted while the other is awaited.
                var idle = false
                while !idle {
                    for queue in queues { await queue.waitUntilIdle() }
                    idle = queues.allSatisfy { $0.counts.pending == 0 && $0.counts.running == 0 }
                }
            } onCancel: {
                for queue in queues { queue.cancelAll() }
            }
            await shutdown()
            logger?.notice("push client stopped")
        }
    }
#endif
