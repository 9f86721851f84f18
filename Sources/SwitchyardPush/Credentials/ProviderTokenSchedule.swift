#if Push
    /// When a connection's provider token is replaced, and who signs the new one: the rules APNs sets, as a value that
    /// decides and does nothing else (no clock, no signing, no waiting), so every rule is tested without time passing
    /// or threads.
    ///
    /// - A token is used until it is ``refreshAge`` old (50 minutes: APNs refuses tokens older than an hour with
    ///   `ExpiredProviderToken`).
    /// - It is never replaced sooner than ``minimumAge`` after it was issued (20 minutes: APNs answers more frequent
    ///   updates with `TooManyProviderTokenUpdates`).
    /// - An `ExpiredProviderToken` answer for the token in use replaces it if it is at least ``minimumAge`` old;
    ///   otherwise the server's clock and ours disagree, and the notification is retried after the token can be
    ///   replaced. An answer about an older token changes nothing: it was replaced already.
    /// - **One signer at a time.** ``decide(at:)`` answers ``Decision/sign`` to one caller and marks the signing
    ///   begun; the caller signs wherever it likes (outside any lock: an ES256 signature is slow beside a lock's hold)
    ///   and reports the outcome with ``issued(_:at:)`` or ``signingFailed()``. Meanwhile other callers use the
    ///   token in force while it is younger than ``lifetime`` (``Decision/use(_:)``), or, when there is none, are
    ///   told to ``Decision/wait`` for the signer and decide again. So a connection never sees two new tokens at once.
    ///
    /// Ages are `Duration`s measured by the caller's clock from each token's issue. A value: a caller shared by
    /// several tasks keeps it behind a lock (``PushClient`` does), and signs outside that lock.
    public struct ProviderTokenSchedule: Sendable {
        /// How old a token gets before it is replaced.
        public static let refreshAge = Duration.seconds(50 * 60)
        /// The youngest a token may be when it is replaced.
        public static let minimumAge = Duration.seconds(20 * 60)
        /// The oldest a token may be and still be sent (APNs's limit, an hour): while a new one is being signed, the
        /// old one is used until this age.
        public static let lifetime = Duration.seconds(60 * 60)

        /// The token in use, and its age's origin.
        private var current: (token: ProviderToken, issued: Duration)?
        /// Whether a caller was told to sign and has not reported yet.
        public private(set) var isSigning = false

        public init() {}

        /// What to do before a request at time `now` (the caller's clock, as a duration since its own origin).
        public enum Decision: Sendable, Equatable {
            /// Send with this token.
            case use(ProviderToken)
            /// Sign a new token (issued now) and report it with ``issued(_:at:)`` (or ``signingFailed()``) before
            /// sending: this caller is the signer until then.
            case sign
            /// Another caller is signing and no token may be sent meanwhile: wait until it reports (``isSigning``
            /// turns false), then decide again.
            case wait
        }

        /// The token for a request at `now`. Answers ``Decision/sign`` to one caller at a time, and marks the signing
        /// begun.
        public mutating func decide(at now: Duration) -> Decision {
            if let current {
                let age = now - current.issued
                if age < Self.refreshAge { return .use(current.token) }
                if isSigning { return age < Self.lifetime ? .use(current.token) : .wait }
            } else if isSigning {
                return .wait
            }
            isSigning = true
            return .sign
        }

        /// `token` was signed at `now` and is the one to use from now on. Ends the signing.
        public mutating func issued(_ token: ProviderToken, at now: Duration) {
            current = (token, now)
            isSigning = false
        }

        /// The signer could not sign: the signing ends, and the next ``decide(at:)`` makes another caller the signer.
        public mutating func signingFailed() {
            isSigning = false
        }

        /// What an `ExpiredProviderToken` answer means.
        public enum ExpiryDecision: Sendable, Equatable {
            /// The token was dropped: the next ``decide(at:)`` signs a new one; retry now.
            case replaced
            /// The answer was about a token already replaced: retry now with the current one.
            case alreadyReplaced
            /// The token is too young to replace: retry once it is ``minimumAge`` old, `after` from now.
            case wait(after: Duration)
        }

        /// APNs answered `ExpiredProviderToken` at `now` to a request sent with `token`.
        public mutating func expired(_ token: ProviderToken, at now: Duration) -> ExpiryDecision {
            guard let current, current.token == token else { return .alreadyReplaced }
            let age = now - current.issued
            guard age >= Self.minimumAge else { return .wait(after: Self.minimumAge - age) }
            self.current = nil
            return .replaced
        }
    }
#endif
