#if Push
    import Logging

    /// Provider tokens: the schedule's decisions (``ProviderTokenSchedule``) carried out, with the signing outside
    /// the client's lock.
    extension PushClient {
        /// The token for a request now: the one in force, or a new one.
        ///
        /// The client's lock is taken only to decide and to install: the ES256 signature is made outside it, because
        /// the connections' event-loop callbacks take the same lock. One caller signs at a time; meanwhile the others
        /// send with the token in force while it is under ``ProviderTokenSchedule/lifetime``, or, when there is none
        /// (the first token, one dropped after `ExpiredProviderToken`), suspend until the signer installs the new one
        /// (one signature's time; not cut short by cancellation) and decide again.
        /// - Throws: the signing's error (the key could not sign), to the signer; a waiter then decides again.
        func providerToken() async throws -> ProviderToken {
            while true {
                let seconds = configuration.wallTime()
                let now = Duration.seconds(seconds)
                switch state.withLockedValue({ $0.tokens.decide(at: now) }) {
                case .use(let token):
                    return token
                case .sign:
                    let signed = Result { try ProviderToken(key: key, issuedAt: seconds) }
                    let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
                        switch signed {
                        case .success(let token): state.tokens.issued(token, at: now)
                        case .failure: state.tokens.signingFailed()
                        }
                        let waiters = state.tokenWaiters
                        state.tokenWaiters = []
                        return waiters
                    }
                    for waiter in waiters { waiter.resume() }
                    logSigning(signed)
                    return try signed.get()
                case .wait:
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let ended = state.withLockedValue { state -> Bool in
                            guard state.tokens.isSigning else { return true }
                            state.tokenWaiters.append(continuation)
                            return false
                        }
                        if ended { continuation.resume() }
                    }
                }
            }
        }

        /// APNs said `token` expired.
        func tokenExpired(_ token: ProviderToken) -> ProviderTokenSchedule.ExpiryDecision {
            let seconds = configuration.wallTime()
            let decision = state.withLockedValue { $0.tokens.expired(token, at: .seconds(seconds)) }
            if decision == .replaced {
                // Once per token: later answers about it find it replaced already.
                logger?.notice(
                    "provider token refused as expired; replaced",
                    metadata: ["key_id": "\(token.keyID)", "issued_at": "\(token.issuedAt)"])
            }
            return decision
        }

        /// The signer's outcome, logged: the token's key ID and issue time (never the token), or the error.
        private func logSigning(_ signed: Result<ProviderToken, any Error>) {
            guard let logger else { return }
            switch signed {
            case .success(let token):
                logger.debug(
                    "provider token signed", metadata: ["key_id": "\(token.keyID)", "issued_at": "\(token.issuedAt)"])
            case .failure(let error):
                logger.error(
                    "provider token could not be signed", metadata: ["key_id": "\(key.keyID)", "error": "\(error)"])
            }
        }
    }
#endif
