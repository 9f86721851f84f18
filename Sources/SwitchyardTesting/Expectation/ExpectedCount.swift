/// How many times a ``CallbackExpectation`` must be fulfilled: an exact count or a range of counts.
///
/// An expected count is a closed range `lowerBound...upperBound` of acceptable fulfillment counts,
/// where `upperBound` may be unbounded (`nil`). An expectation is *satisfied* once its count lies
/// in the range, and *over-fulfilled* as soon as its count exceeds `upperBound`.
///
/// ```swift
/// let once: ExpectedCount = 1              // integer literal: exactly 1
/// let three = ExpectedCount.exactly(3)
/// let some = ExpectedCount.atLeast(2)      // 2, 3, 4, … (never over-fulfilled)
/// let few = ExpectedCount.range(2...5)     // or ExpectedCount(2...5)
/// let open = ExpectedCount(2...)           // same as .atLeast(2)
/// ```
///
/// For an inverted expectation only ``lowerBound`` matters: the expectation fails when its count
/// reaches `lowerBound`.
///
/// Counts are never negative: every initializer traps on a negative bound or an empty range.
public struct ExpectedCount: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The smallest count that satisfies the expectation.
    public let lowerBound: Int

    /// The largest acceptable count, or `nil` if any count of at least ``lowerBound`` is acceptable.
    public let upperBound: Int?

    /// Creates an expected count accepting any count in `range`.
    ///
    /// - Precondition: `range.lowerBound >= 0`.
    public init(_ range: ClosedRange<Int>) {
        precondition(range.lowerBound >= 0, "An expected count cannot be negative (got \(range))")
        self.lowerBound = range.lowerBound
        self.upperBound = range.upperBound
    }

    /// Creates an expected count accepting any count of at least `range.lowerBound`.
    ///
    /// - Precondition: `range.lowerBound >= 0`.
    public init(_ range: PartialRangeFrom<Int>) {
        precondition(range.lowerBound >= 0, "An expected count cannot be negative (got \(range.lowerBound)...)")
        self.lowerBound = range.lowerBound
        self.upperBound = nil
    }

    /// Creates an expected count of exactly `value`, so that `1` can be written for `.exactly(1)`.
    ///
    /// - Precondition: `value >= 0`.
    public init(integerLiteral value: Int) {
        self.init(value...value)
    }

    /// Exactly `count` fulfillments: satisfied at `count`, over-fulfilled at `count + 1`.
    ///
    /// `.exactly(0)` is satisfied immediately and fails on the first fulfillment.
    ///
    /// - Precondition: `count >= 0`.
    public static func exactly(_ count: Int) -> ExpectedCount {
        ExpectedCount(count...count)
    }

    /// At least `count` fulfillments; such an expectation is never over-fulfilled.
    ///
    /// - Precondition: `count >= 0`.
    public static func atLeast(_ count: Int) -> ExpectedCount {
        ExpectedCount(count...)
    }

    /// At most `count` fulfillments: satisfied immediately, over-fulfilled at `count + 1`.
    ///
    /// - Precondition: `count >= 0`.
    public static func atMost(_ count: Int) -> ExpectedCount {
        ExpectedCount(0...count)
    }

    /// Any count in `range`, for example `.range(2...5)`.
    ///
    /// - Precondition: `range.lowerBound >= 0`.
    public static func range(_ range: ClosedRange<Int>) -> ExpectedCount {
        ExpectedCount(range)
    }

    /// Whether `count` satisfies this expected count (lies within its bounds).
    public func contains(_ count: Int) -> Bool {
        count >= lowerBound && !exceeds(count)
    }

    /// Whether `count` is above ``upperBound`` (always `false` when unbounded).
    public func exceeds(_ count: Int) -> Bool {
        guard let upperBound else { return false }
        return count > upperBound
    }

    /// A phrase such as `"exactly 1 fulfillment"`, `"at least 2 fulfillments"` or
    /// `"between 2 and 5 fulfillments"`.
    public var description: String {
        switch upperBound {
        case nil:
            return "at least \(Self.fulfillments(lowerBound))"
        case let upper? where upper == lowerBound:
            return "exactly \(Self.fulfillments(upper))"
        case let upper? where lowerBound == 0:
            return "at most \(Self.fulfillments(upper))"
        case let upper?:
            return "between \(lowerBound) and \(Self.fulfillments(upper))"
        }
    }

    /// `"1 fulfillment"`, `"2 fulfillments"`, …
    static func fulfillments(_ count: Int) -> String {
        count == 1 ? "1 fulfillment" : "\(count) fulfillments"
    }
}
