#if Push
    import SwitchyardPush

    /// A fault the mock injects, once, at the point its script reaches it. Faults run in the order given; each
    /// applies to the first request (or connection) that meets it after the ones before it have run.
    public enum MockAPNsFault: Sendable, Equatable {
        /// After the connection's `afterStreams`-th request is answered, send `GOAWAY` naming that stream as the last
        /// one processed: later streams on the connection are refused unanswered and must be sent again elsewhere.
        case goAway(afterStreams: Int)
        /// When a connection receives its request number `afterStreams + 1`, close the connection without answering
        /// it or any other request in flight.
        case dropConnection(afterStreams: Int)
        /// Answer the next `times` requests with `status` and `reason` (a 500 or 503 burst, say), whatever they hold.
        case answer(status: Int, reason: PushReason, times: Int)
        /// Answer the next `times` requests for device `token` with `status` and `reason` (429 `TooManyRequests`).
        case answerDevice(String, status: Int, reason: PushReason, times: Int)
        /// Hold the next `times` answers for `delay` on the mock's clock.
        case delay(Duration, times: Int)
        /// Answer the next `times` requests with `status` and `body` as it is, of any size or content, whatever the
        /// requests hold: an answer APNs never gives (its bodies are small JSON objects), to test a client's limits.
        /// Not available in JSON scripts.
        case answerBody(status: Int, body: [UInt8], times: Int)
    }
#endif
