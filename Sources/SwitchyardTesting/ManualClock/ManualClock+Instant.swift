extension ManualClock {
    /// A point in a ``ManualClock``'s time: a `Duration` offset from the clock's zero.
    ///
    /// Instants only have meaning relative to each other; a clock created with `ManualClock()`
    /// starts at ``zero``.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The offset from the zero instant; may be negative.
        public var offset: Swift.Duration

        /// Creates the instant `offset` after (or before, if negative) the zero instant.
        public init(offset: Swift.Duration) {
            self.offset = offset
        }

        /// The zero instant, where a default ``ManualClock`` starts.
        public static var zero: Instant {
            Instant(offset: .zero)
        }

        /// The instant `duration` after this one.
        public func advanced(by duration: Swift.Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The duration from this instant to `other` (negative if `other` is earlier).
        public func duration(to other: Instant) -> Swift.Duration {
            other.offset - offset
        }

        /// The instant `rhs` after `lhs`.
        public static func + (lhs: Instant, rhs: Swift.Duration) -> Instant {
            lhs.advanced(by: rhs)
        }

        /// The instant `rhs` before `lhs`.
        public static func - (lhs: Instant, rhs: Swift.Duration) -> Instant {
            lhs.advanced(by: .zero - rhs)
        }

        /// The duration from `rhs` to `lhs`.
        public static func - (lhs: Instant, rhs: Instant) -> Swift.Duration {
            rhs.duration(to: lhs)
        }

        /// Whether `lhs` is earlier than `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        /// The offset, such as `"ManualClock.Instant(5.0 seconds)"`.
        public var description: String {
            "ManualClock.Instant(\(offset))"
        }
    }
}
