#if Push
    import Logging
    import NIOCore
    import NIOSSL
    import Switchyard

    /// The pool's decisions (``PushPoolState``) carried out: streams handed to senders, connections opened (after a
    /// backoff when opening failed) and closed.
    extension PushClient {
        /// Waits for a stream on some connection (in order with the other senders); ``release(_:)`` it when done.
        ///
        /// Cancellation: a sender cancelled while it waits leaves the line at once; one cancelled before it joined
        /// never joins; one cancelled after it was granted a stream (or failed) keeps that outcome. Nothing of the
        /// call is kept once it returns, whenever the cancellation comes.
        /// - Throws: `CancellationError`; a ``PushFailure`` when no connection can open (``PushReason/unreachable``,
        ///   or ``PushReason/untrustedCertificate``) or the client was shut down (``PushReason/unreachable``).
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
                        // Checked under the lock the cancellation handler takes: a task cancelled before this point
                        // is seen as cancelled here (the flag is set before the handler runs), and the handler of one
                        // cancelled after it finds the sender in `waiting`. So the handler records nothing when it
                        // finds no sender: it came first, or the sender was granted, failed or resumed already.
                        guard !Task.isCancelled else {
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
                    guard let continuation = state.waiting.removeValue(forKey: sender) else { return nil }
                    state.pool.cancel(sender)
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
        /// absent: its sender is told to retry); after it, senders are resumed, connections opened or closed, and a
        /// backoff begun. Once the client is shut down, no connection opens and no backoff begins, whatever the
        /// actions say.
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
                    if !state.isShutDown {
                        outcome.open = actions.open
                        outcome.backOff = actions.backOff
                    }
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
                    continuation.resume(throwing: PushConnection.StreamError.unanswered(sent: false))
                }
            }
            for connection in outcome.closing { connection.close() }
            if !outcome.failures.isEmpty {
                // Described here, outside the lock, and only when a sender fails.
                let failure = PushFailure(
                    openError: outcome.openError, isShutDown: outcome.isShutDown, host: configuration.endpoint.host,
                    port: configuration.endpoint.port)
                for continuation in outcome.failures { continuation.resume(throwing: failure) }
            }
            for number in outcome.open { open(number) }
            if let failures = outcome.backOff { reopen(after: failures) }
        }

        /// What one decision resumes, closes and opens.
        struct Outcome {
            var grants: [(CheckedContinuation<PushConnection, any Error>, PushConnection?)] = []
            var closing: [PushConnection] = []
            var failures: [CheckedContinuation<PushConnection, any Error>] = []
            var open: [Int] = []
            /// Openings that failed in a row, when a backoff begins.
            var backOff: Int?
            /// Why the failing senders fail: the last error opening a connection, or the client's shutdown.
            var openError: (any Error)?
            var isShutDown = false
        }

        /// Ends the pool's backoff after `failures` failed openings in a row: after ``backoff(after:)``'s delay
        /// (``Configuration/backoff`` doubled per failure, capped at ``Configuration/maximumBackoff``, ±50%) on
        /// ``Configuration/clock``.
        private func reopen(after failures: Int) {
            let delay = backoff(after: failures)
            logger?.debug("connection opening backs off", metadata: ["failures": "\(failures)", "delay": "\(delay)"])
            let clock = configuration.clock
            Task { [weak self] in
                try? await clock.sleep(for: delay)
                self?.decide { state in state.isShutDown ? nil : state.pool.backOffEnded() }
            }
        }

        /// The TLS context of every connection of this client (its ``Configuration/tls`` with ALPN `h2`): made once,
        /// at the first opening, on `BlockingExecutor.shared` (loading the trust roots reads files), then reused. The
        /// pool opens one connection at a time, so it is made once; were two openings to race, the first made is
        /// kept. A failure is not kept: the next opening tries again.
        /// - Throws: NIOSSL's error for a configuration it cannot load (a missing trust-roots file, say).
        func tlsContext() async throws -> NIOSSLContext {
            if let context = state.withLockedValue({ $0.tlsContext }) { return context }
            var tls = configuration.tls
            tls.applicationProtocols = ["h2"]
            let made = try await BlockingExecutor.shared.run { [tls] in try NIOSSLContext(configuration: tls) }
            return state.withLockedValue { state in
                state.tlsContextsMade += 1
                if let context = state.tlsContext { return context }
                state.tlsContext = made
                return made
            }
        }

        /// How many TLS contexts this client has made (one, once a connection was opened).
        @_spi(PushInternals) public var tlsContextsMade: Int { state.withLockedValue { $0.tlsContextsMade } }

        /// Opens connection `number` in a task of its own and reports the outcome to the pool. A connection the pool
        /// no longer knows once open (it closed before its opening was reported, or the client shut down meanwhile)
        /// is closed at once and not kept. The connections metric follows the connection's own events
        /// (``PushConnection/Event/opened`` and ``PushConnection/Event/closed``, exactly once each), whatever becomes
        /// of the client.
        private func open(_ number: Int) {
            let (configuration, metrics) = (configuration, metrics)
            Task {
                do {
                    let context = try await tlsContext()
                    let connection = try await PushConnection.open(
                        number: number, host: configuration.endpoint.host, port: configuration.endpoint.port,
                        context: context, timeout: configuration.connectTimeout,
                        group: configuration.eventLoopGroup
                    ) { [weak self] event in
                        switch event {
                        case .opened: metrics.connectionOpened()
                        case .closed: metrics.connectionClosed()
                        case .limit, .goAway: break
                        }
                        self?.connection(number, reported: event)
                    }
                    // Kept, then told to the pool: if the pool no longer knows it (its `closed` event came first, or
                    // the client shut down), the actions close it, which takes it out of `connections` again.
                    decide { state in
                        state.connections[number] = connection
                        return state.pool.opened(number, limit: state.earlyLimits.removeValue(forKey: number) ?? 1)
                    }
                } catch {
                    log(connection: number, failedToOpen: error)
                    decide { state in
                        state.lastOpenError = error
                        state.earlyLimits[number] = nil
                        return state.pool.closed(number, failedToOpen: true)
                    }
                }
            }
        }

        /// An event of connection `number`.
        private func connection(_ number: Int, reported event: PushConnection.Event) {
            log(connection: number, event)
            decide { state in
                switch event {
                case .opened:
                    return nil  // the pool learns it from the opening's task, with the connection
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
