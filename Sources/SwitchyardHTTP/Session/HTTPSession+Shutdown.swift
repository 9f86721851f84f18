#if HTTP
    import Logging
    import Switchyard
    import Synchronization

    extension HTTPSession {
        /// Ends the session: every request waiting or running is cancelled, the client's connections are closed, and
        /// every later call throws ``HTTPError`` with ``HTTPError/Reason/sessionShutDown`` without sending anything.
        ///
        /// A call it ends throws ``HTTPError/Reason/sessionShutDown`` too, unless its caller had cancelled it first
        /// (``HTTPError/Reason/cancelled``). Returns once every request has ended (a download's partial file written),
        /// so a caller's event loop group can be shut down next; then logs `HTTP session shut down` (info).
        /// - Throws: the client's error if its connections cannot be closed, as on a second call.
        public func shutdown() async throws {
            // The flag, set before any cancellation it causes is seen, and the queues of the calls in flight, taken
            // in one hold of the lanes' lock: a call that holds no lane by then is refused one (see `withLane`).
            let queues = shutDownLanes()
            for queue in queues { queue.cancelAll() }
            defer { idleSweeper.stop() }
            try await client.shutdown()
            for queue in queues { await queue.waitUntilIdle() }
            logger?.info("HTTP session shut down")
        }

        /// Whether ``shutdown()`` was called.
        public var isShutDown: Bool { shutDown.load(ordering: .sequentiallyConsistent) }

        /// Runs one public call's `body`, unless the session is shut down: then it throws
        /// ``HTTPError/Reason/sessionShutDown`` before `body` makes a host's queue or a job. This check is only the
        /// fast way out: a call that passes it as the session shuts down is refused its host's lane
        /// (``withLane(_:_:)``), under the lock ``shutdown()`` takes its queues in. A cancellation that `body` throws
        /// once the session is shut down, while the calling task is not cancelled, is the shutdown's: it is thrown as
        /// ``HTTPError/Reason/sessionShutDown``, with the attempts it carried.
        func unlessShutDown<Value: Sendable>(
            _ prepared: PreparedRequest, _ body: () async throws(HTTPError) -> Value
        ) async throws(HTTPError) -> Value {
            if isShutDown { throw HTTPError(request: prepared.label, reason: .sessionShutDown) }
            do throws(HTTPError) {
                return try await body()
            } catch {
                guard error.reason == .cancelled, !Task.isCancelled, isShutDown else { throw error }
                throw HTTPError(request: error.request, reason: .sessionShutDown, attempts: error.attempts)
            }
        }
    }
#endif
