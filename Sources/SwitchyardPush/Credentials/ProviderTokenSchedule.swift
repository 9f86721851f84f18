#if Push
    /// When a connection's provider token is replaced: the rules APNs sets, as a value that decides and does nothing
    /// else (no clock, no signing), so every rule is tested without time passing.
    ///
    /// - A token is used until it is ``refreshAge`` old (50 minutes: APNs refuses tokens older than an hour with
    ///   `ExpiredProviderToken`).
    /// - It is never replaced sooner than ``minimumAge`` after it was issued (20 minutes: APNs answers more frequent
    ///   updates with `TooManyProviderTokenUpdates`).
    /// - An `ExpiredProviderToken` answer for the token in use replaces it if it is at least ``minimumAge`` old;
    ///   otherwise the server's clock and ours disagree, and the notification is retried after the token can be
    ///   replaced. An answer about an older token changes nothing: it was replaced already.
    ///
    /// Ages are `Duration`s measured by the caller's clock from each token's issue.
    public struct ProviderTokenSchedule: Sendable {
        /// How old a token gets before it is replaced.
        public static let refreshAge = Duration.seconds(50 * 60)
        /// The youngest a token may be when it is replaced.
        public static let minimumAge = Duration.seconds(20 * 60)

        /// The token in use, and its age's origin.
        private var current: (token: ProviderToken, issued: Duration)?

        public init() {}

        /// What to do before a request at time `now` (the caller's clock, as a duration since its own origin).
        public enum Decision: Sendable, Equatable {
            /// Send with this token.
            case use(ProviderToken)
            /// Sign a new token (issued now) and report it with ``issued(_:at:)`` before sending.
            case sign
        }

        /// The token for a request at `now`.
        public func decide(at now: Duration) -> Decision {
            guard let current, now - current.issued < Self.refreshAge else { return .sign }
            return .use(current.token)
        }

        /// `token` was signed at `now` and is the one to use from now on.
        public mutating func issued(_ token: ProviderToken, at now: Duration) {
            current = (token, now)
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
