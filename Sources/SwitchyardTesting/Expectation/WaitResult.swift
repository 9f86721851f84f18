extension CallbackExpectation {
    /// How a wait on one or more expectations ended.
    ///
    /// Every case except ``satisfied`` and ``cancelled`` has already been reported as a test
    /// failure by the time the wait returns (over-fulfillment at most once per expectation, see
    /// ``CallbackExpectation``), so most tests ignore the result. Branch on it, or on ``isSuccess``, when
    /// the rest of the test makes no sense after a failed wait.
    ///
    /// When several problems are present at once, the first case in declaration order wins
    /// (``overFulfilled`` before ``invertedFulfilled`` before ``outOfOrder`` before ``timedOut``);
    /// each problem is still reported.
    public enum WaitResult: Sendable, Hashable, CustomStringConvertible {
        /// Every expectation was satisfied (and every inverted one stayed unfulfilled for the whole
        /// timeout).
        case satisfied
        /// An expectation's count exceeded its expected count's upper bound.
        case overFulfilled
        /// An inverted expectation was fulfilled during the wait.
        case invertedFulfilled
        /// With `enforceOrder: true`, the expectations were not satisfied in the listed order.
        case outOfOrder
        /// The timeout elapsed before every expectation was satisfied.
        case timedOut
        /// The waiting task was cancelled before the outcome was decided. Not reported as a failure.
        case cancelled

        /// Whether the wait ended with ``satisfied``.
        public var isSuccess: Bool {
            self == .satisfied
        }

        /// The case name, such as `"timedOut"`.
        public var description: String {
            switch self {
            case .satisfied: "satisfied"
            case .overFulfilled: "overFulfilled"
            case .invertedFulfilled: "invertedFulfilled"
            case .outOfOrder: "outOfOrder"
            case .timedOut: "timedOut"
            case .cancelled: "cancelled"
            }
        }
    }
}
