#if Push
    import NIOCore
    import NIOSSL

    /// The pool's decisions (``PushPoolState``) carried out: streams handed to senders, connections opened and closed.
    extension PushClient {
        /// Waits for a stream on some connection (in order with the other senders); ``release(_:)`` it when done.
        /// - Throws: `CancellationError`; a ``PushFailure`` (``PushReason/unreachable``) when no connection can open
        ///   or the client was shut down.
        func acquireStream() async throws -> PushConnection {
            let sender = state.withLockedValue { state in
                defer { state.nextSender += 1 }
                return state.nextSender
            }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation {
                    (continuation: CheckedContinuation<PushConnection, any Error>) in
                    var cancelled = false
                    decide { state in
                        guard !state.isShutDown else {
                            state.failing.append(continuation)
                            return nil
                        }
                        // The cancellation handler may have run before this: it left the sender's number.
                        guard state.cancelledSenders.remove(sender) == nil else {
                            cancelled = true
                            return nil
                        }
                        state.waiting[sender] = continuation
                        return state.pool.acquire(sender)
                    }
                    if cancelled { continuation.resume(throwing: CancellationError()) }
                }
            } onCancel: {
                let continuation = state.withLockedValue { state -> CheckedContinuation<PushConnection, any Error>? in
                    state.pool.cancel(sender)
                    guard let continuation = state.waiting.removeValue(forKey: sender) else {
                        state.cancelledSenders.insert(sender)
                        return nil
                    }
                    return continuation
                }
                continuation?.resume(throwing: CancellationError())
            }
        }

        /// A stream on `connection` ended.
        func release(_ connection: PushConnection) {
            decide { $0.pool.released(connection.number) }
        }

        /// Changes the state with `change` and carries out the pool's actions it returns: in the same hold of the
        /// lock, the senders granted a stream are matched with their connections (a connection closed since is
        /// absent: its sender is told to retry); after it, senders are resumed and connections opened or closed.
        func decide(_ change: (inout PushClientState) -> PushPoolState.Actions?) {
            let outcome = state.withLockedValue { state in
                var outcome = Outcome()
                if let actions = change(&state) {
                    for grant in actions.grants {
                        guard let continuation = state.waiting.removeValue(forKey: grant.sender) else { continue }
                        outcome.grants.append((continuation, state.connections[grant.connection]))
                    }
                    outcome.closing = actions.close.compactMap { state.connections.removeValue(forKey: $0) }
                    outcome.failures = actions.fail.compactMap { state.waiting.removeValue(forKey: $0) }
                    outcome.open = actions.open
                }
                outcome.failures += state.failing
                state.failing = []
                if !outcome.failures.isEmpty {
                    outcome.openError = state.lastOpenError
                    outcome.isShutDown = state.isShutDown
                }
                return outcome
            }
            for (continuation, connection) in outcome.grants {
                if let connection {
                    continuation.resume(returning: connection)
                } else {
                    continuation.resume(throwing: PushConnection.StreamError.unanswered)
                }
            }
            for connection in outcome.closing { connection.close() }
            if !outcome.failures.isEmpty {
                // Described here, outside the lock, and only when a sender fails.
                let detail =
                    outcome.openError.map { "\($0)" } ?? (outcome.isShutDown ? "the client was shut down" : nil)
                for continuation in outcome.failures {
                    continuation.resume(throwing: PushFailure(reason: .unreachable, status: 0, detail: detail))
                }
            }
            for number in outcome.open { open(number) }
        }

        /// What one decision resumes, closes and opens.
        struct Outcome {
            var grants: [(CheckedContinuation<PushConnection, any Error>, PushConnection?)] = []
            var closing: [PushConnection] = []
            var failures: [CheckedContinuation<PushConnection, any Error>] = []
            var open: [Int] = []
            /// Why the failing senders fail: the last error opening a connection, or the client's shutdown.
            var openError: (any Error)?
            var isShutDown = false
        }

        /// Opens connection `number` in a task of its own and reports the outcome to the pool.
        private func open(_ number: Int) {
            let configuration = configuration
            Task {
                do {
                    let connection = try await PushConnection.open(
                        number: number, host: configuration.endpoint.host, port: configuration.endpoint.port,
                        tls: configuration.tls, timeout: configuration.connectTimeout,
                        group: configuration.eventLoopGroup
                    ) { [weak self] event in
                        self?.connection(number, reported: event)
                    }
                    var closeNow = false
                    decide { state in
                        guard !state.isShutDown else {
                            closeNow = true
                            return state.pool.closed(number)
                        }
                        state.connections[number] = connection
                        return state.pool.opened(number, limit: state.earlyLimits.removeValue(forKey: number) ?? 1)
                    }
                    if closeNow { connection.close() }
                } catch {
                    decide { state in
                        state.lastOpenError = error
                        return state.pool.closed(number, failedToOpen: true)
                    }
                }
            }
        }

        /// An event of connection `number`.
        private func connection(_ number: Int, reported event: PushConnection.Event) {
            decide { state in
                switch event {
                case .limit(let server):
                    let limit = min(server, configuration.streamsPerConnection)
                    guard state.connections[number] != nil else {
                        state.earlyLimits[number] = limit
                        return nil
                    }
                    return state.pool.limitChanged(number, to: limit)
                case .goAway:
                    return state.pool.goingAway(number)
                case .closed:
                    state.connections[number] = nil
                    state.earlyLimits[number] = nil
                    return state.pool.closed(number)
                }
            }
        }
    }
#endif
