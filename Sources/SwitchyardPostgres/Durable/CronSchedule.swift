#if Postgres
    /// A schedule in cron's five fields (minute hour day-of-month month day-of-week), in UTC.
    ///
    /// The fields and their values:
    ///
    /// | field        | values                                                  |
    /// |--------------|---------------------------------------------------------|
    /// | minute       | 0–59                                                    |
    /// | hour         | 0–23                                                    |
    /// | day-of-month | 1–31                                                    |
    /// | month        | 1–12, or `JAN`–`DEC`                                    |
    /// | day-of-week  | 0–7 (0 and 7 are Sunday), or `SUN`–`SAT`                |
    ///
    /// Names are three letters in any case. A field is a comma-separated list of parts, each one of `*` (every value),
    /// a value `a`, a range `a-b` (`a` ≤ `b`; `SUN` ending a day-of-week range means 7, so `MON-SUN` is the whole
    /// week), or one of those followed by a step `/n`: `*/n` is every n-th value from the field's lowest, `a-b/n` every
    /// n-th from `a` to `b`, and `a/n` every n-th from `a` to the field's highest. A step is at least 1 and less than
    /// the field's span (1–59 for minutes, 1–23 for hours, 1–30 for days of the month, 1–11 for months, 1–7 for days of
    /// the week). Instead of the five fields the expression may be one of the macros `@yearly` and `@annually`
    /// (`0 0 1 1 *`), `@monthly` (`0 0 1 * *`), `@weekly` (`0 0 * * 0`), `@daily` and `@midnight` (`0 0 * * *`), and
    /// `@hourly` (`0 * * * *`). Fields are separated by any whitespace; whitespace around the expression is ignored.
    ///
    /// The day rule is Vixie cron's: when both day-of-month and day-of-week are restricted (neither field starts with
    /// `*`), a day matches if either of them matches (`0 0 13 * FRI` fires on every 13th and on every Friday);
    /// otherwise a day matches if both do (`0 0 */2 * MON` fires on odd-numbered days that are Mondays).
    ///
    /// All times are UTC: there are no time zones and no daylight saving time, and every minute exists exactly once.
    /// Two schedules are equal when their expressions (as trimmed) are.
    public struct CronSchedule: Sendable, Hashable, CustomStringConvertible {
        /// The expression as given, without surrounding whitespace.
        public let description: String
        /// Bit `n` set: minute `n` matches (0–59).
        private let minutes: UInt64
        /// Bit `n` set: hour `n` matches (0–23).
        private let hours: UInt64
        /// Bit `n` set: day of the month `n` matches (1–31).
        private let daysOfMonth: UInt64
        /// Bit `n` set: month `n` matches (1–12).
        private let months: UInt64
        /// Bit `n` set: day of the week `n` matches (0–6, Sunday is 0; a 7 in the expression sets bit 0).
        private let daysOfWeek: UInt64
        /// Whether a day matches when either of its day fields does (both restricted) rather than both.
        private let eitherDayMatches: Bool
        /// Whether some day of some year matches (`0 0 31 2 *` never does).
        private let canFire: Bool

        /// Parses `expression`: five fields or a macro, as described for the type.
        /// - Throws: ``ParseError`` naming the field and the text it cannot read, for a wrong number of fields, an
        ///   unknown macro or name, a value out of its field's range, an empty list item, a range that runs backwards,
        ///   or a step of 0 or beyond the field's span.
        public init(_ expression: String) throws(CronSchedule.ParseError) {
            var trimmed = Substring(expression)
            while let first = trimmed.first, first.isWhitespace { trimmed.removeFirst() }
            while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
            let given = String(trimmed)
            guard !trimmed.isEmpty else { throw ParseError("the cron expression is empty") }
            var text = trimmed
            if trimmed.hasPrefix("@") {
                guard let expansion = CronSchedule.macros[trimmed.lowercased()] else {
                    let known = CronSchedule.macroNames.joined(separator: ", ")
                    throw ParseError("unknown cron macro \"\(trimmed)\" (known: \(known))")
                }
                text = Substring(expansion)
            }
            let texts = text.split(whereSeparator: \.isWhitespace)
            guard texts.count == 5 else {
                throw ParseError(
                    "the cron expression \"\(given)\" has \(texts.count) field\(texts.count == 1 ? "" : "s"), "
                        + "not 5 (minute hour day-of-month month day-of-week)")
            }
            var bits: [UInt64] = []
            for (field, fieldText) in zip(CronSchedule.fields, texts) {
                let parsed = try field.parse(fieldText, in: given)
                bits.append(parsed)
            }
            let monthBits = bits[3]
            let dayOfMonthBits = bits[2]
            let either = !texts[2].hasPrefix("*") && !texts[4].hasPrefix("*")
            // Any month has every day of the week, so a day of the week alone always finds a day. Otherwise some
            // matching month must be long enough for some matching day of the month: each date falls on every day of
            // the week within the 400-year Gregorian cycle.
            let longest: [Int] = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            canFire =
                either
                || (1...12).contains { month in
                    monthBits & 1 << month != 0 && dayOfMonthBits & (1 << (longest[month] + 1) - 1) != 0
                }
            description = given
            minutes = bits[0]
            hours = bits[1]
            daysOfMonth = dayOfMonthBits
            months = monthBits
            // Sunday is both 0 and 7.
            daysOfWeek = (bits[4] | bits[4] >> 7) & 0x7F
            eitherDayMatches = either
        }

        /// The first tick strictly after `secondsSince1970` (UTC), as seconds since 1970 (a whole minute).
        ///
        /// Returns `Int64.max` when there is none: when the schedule never fires (`0 0 31 2 *`, `0 0 31 4,6,9,11 *`),
        /// known when it is parsed and answered at once, or when the next tick is beyond `Int64`'s seconds. Times
        /// before 1970 (negative) are fine.
        ///
        /// Complexity: days whose month does not match are skipped a month at a time, days in a matching month one
        /// at a time; on the matching day, the hour and the minute are found by bit scans. Since the calendar repeats
        /// every 400 years (146,097 days, a whole number of weeks), a schedule that fires is searched for at most that
        /// long; in practice it ends within a few years of days. Among the rarest schedules is a leap day on one day
        /// of the week (`0 0 29 2 */7`, a 29 February that is a Sunday): up to 40 years apart, about 1,200 steps.
        public func nextTick(after secondsSince1970: Int64) -> Int64 {
            guard canFire else { return .max }
            // The next whole minute, in minutes since 1970 (rounding towards minus infinity, then one up).
            let minute = secondsSince1970 / 60 - (secondsSince1970 % 60 < 0 ? 1 : 0) + 1
            var dayNumber = minute / 1440 - (minute % 1440 < 0 ? 1 : 0)
            let minuteOfDay = Int(minute - dayNumber * 1440)
            var hour = minuteOfDay / 60
            var minuteOfHour = minuteOfDay % 60
            var (year, month, day) = CronSchedule.civil(fromDays: dayNumber)
            var weekday = Int((dayNumber % 7 + 11) % 7)  // 1970-01-01 was a Thursday (4).
            let lastDay = dayNumber + CronSchedule.cycleDays
            while dayNumber <= lastDay {
                let length = CronSchedule.daysIn(month: month, year: year)
                if months & 1 << month == 0 {
                    // On to the first of the next month.
                    let skipped = length - day + 1
                    dayNumber += Int64(skipped)
                    weekday = (weekday + skipped) % 7
                    day = length + 1
                } else {
                    if dayMatches(day: day, weekday: weekday),
                        let found = tick(on: dayNumber, fromHour: hour, minute: minuteOfHour)
                    {
                        return found
                    }
                    dayNumber += 1
                    weekday = (weekday + 1) % 7
                    day += 1
                }
                if day > length {
                    day = 1
                    month += 1
                    if month > 12 {
                        month = 1
                        year += 1
                    }
                }
                hour = 0
                minuteOfHour = 0
            }
            return .max
        }

        /// Days in the 400-year Gregorian cycle.
        private static let cycleDays: Int64 = 146_097

        private func dayMatches(day: Int, weekday: Int) -> Bool {
            let dayOfMonth = daysOfMonth & 1 << day != 0
            let dayOfWeek = daysOfWeek & 1 << weekday != 0
            return eitherDayMatches ? dayOfMonth || dayOfWeek : dayOfMonth && dayOfWeek
        }

        /// The first matching time on `dayNumber` at or after `hour`:`minute`, in seconds since 1970; `nil` if there is
        /// none that day; `Int64.max` if it does not fit.
        private func tick(on dayNumber: Int64, fromHour hour: Int, minute: Int) -> Int64? {
            guard let first = CronSchedule.lowest(in: hours, from: hour) else { return nil }
            var found: (hour: Int, minute: Int)?
            if first > hour {
                found = (first, minutes.trailingZeroBitCount)
            } else if let sameHour = CronSchedule.lowest(in: minutes, from: minute) {
                found = (hour, sameHour)
            } else if let later = CronSchedule.lowest(in: hours, from: hour + 1) {
                found = (later, minutes.trailingZeroBitCount)
            }
            guard let found else { return nil }
            let (dayMinutes, overflow) = dayNumber.multipliedReportingOverflow(by: 1440)
            let (tickMinutes, overflow2) = dayMinutes.addingReportingOverflow(Int64(found.hour * 60 + found.minute))
            let (seconds, overflow3) = tickMinutes.multipliedReportingOverflow(by: 60)
            return overflow || overflow2 || overflow3 ? .max : seconds
        }

        /// The lowest set bit of `bits` at `position` or above.
        private static func lowest(in bits: UInt64, from position: Int) -> Int? {
            let above = bits & ~UInt64(0) << position
            return above == 0 ? nil : above.trailingZeroBitCount
        }

        private static func daysIn(month: Int, year: Int64) -> Int {
            switch month {
            case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
            case 4, 6, 9, 11: 30
            default: 31
            }
        }

        /// The proleptic Gregorian date of the day `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
        private static func civil(fromDays days: Int64) -> (year: Int64, month: Int, day: Int) {
            let shifted = days + 719_468  // days since 0000-03-01
            let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
            let dayOfEra = shifted - era * 146_097  // 0...146096
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365  // 0...399
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365, from March 1
            let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0...11, March is 0
            let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
            let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
            return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
        }

        // MARK: Parsing

        /// A field's name, values and names for values.
        private struct Field: Sendable {
            let name: String
            let low: Int
            let high: Int
            /// Three-letter names of the values from `low` on (upper case).
            let names: [String]
            /// What a value that is neither a number nor a name should have been.
            let expected: String

            /// The bit set of `text`.
            func parse(_ text: Substring, in expression: String) throws(ParseError) -> UInt64 {
                var bits: UInt64 = 0
                for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                    guard !part.isEmpty else { throw error("an empty item in the list \"\(text)\"", expression) }
                    let pieces = part.split(separator: "/", omittingEmptySubsequences: false)
                    guard pieces.count <= 2 else { throw error("\"\(part)\" has more than one /", expression) }
                    var step = 1
                    if pieces.count == 2 {
                        let stepText = pieces[1]
                        guard let parsed = CronSchedule.number(stepText) else {
                            throw error("the step \"\(stepText)\" in \"\(part)\" is not a number", expression)
                        }
                        guard parsed > 0 else { throw error("the step in \"\(part)\" is 0", expression) }
                        guard parsed <= high - low else {
                            throw error("the step \(stepText) is out of range 1–\(high - low)", expression)
                        }
                        step = parsed
                    }
                    let base = pieces[0]
                    let first: Int
                    let last: Int
                    if base == "*" {
                        first = low
                        last = high
                    } else if let dash = base.firstIndex(of: "-") {
                        let from = base[..<dash]
                        let to = base[base.index(after: dash)...]
                        guard !from.isEmpty, !to.isEmpty else {
                            throw error("the range \"\(base)\" lacks a bound", expression)
                        }
                        first = try value(from, in: expression)
                        // SUN ending a day-of-week range that starts later in the week is 7: MON-SUN is the whole
                        // week, SUN-SUN just Sunday.
                        let lastValue = try value(to, in: expression)
                        let sundayLast =
                            name == "day-of-week" && lastValue == 0 && first > 0 && to.uppercased() == "SUN"
                        last = sundayLast ? 7 : lastValue
                        guard first <= last else { throw error("the range \"\(base)\" runs backwards", expression) }
                    } else {
                        first = try value(base, in: expression)
                        last = pieces.count == 2 ? high : first
                    }
                    var current = first
                    while current <= last {
                        bits |= 1 << current
                        current += step
                    }
                }
                return bits
            }

            /// The number or name `text`, checked against the field's range.
            private func value(_ text: Substring, in expression: String) throws(ParseError) -> Int {
                if let number = CronSchedule.number(text) {
                    guard (low...high).contains(number) else {
                        throw error("\(text) is out of range \(low)–\(high)", expression)
                    }
                    return number
                }
                if let index = names.firstIndex(of: text.uppercased()) { return low + index }
                throw error("\"\(text)\" is not \(expected)", expression)
            }

            private func error(_ problem: String, _ expression: String) -> ParseError {
                ParseError("cron field \"\(name)\": \(problem) in \"\(expression)\"")
            }
        }

        /// The decimal number `text` (ASCII digits only; `Int.max` if it is too long to be one).
        private static func number(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return nil
            }
            return Int(text) ?? .max
        }

        private static let fields: [Field] = [
            Field(name: "minute", low: 0, high: 59, names: [], expected: "a number"),
            Field(name: "hour", low: 0, high: 23, names: [], expected: "a number"),
            Field(name: "day-of-month", low: 1, high: 31, names: [], expected: "a number"),
            Field(
                name: "month", low: 1, high: 12,
                names: ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"],
                expected: "a number or a month's name (JAN–DEC)"),
            Field(
                name: "day-of-week", low: 0, high: 7, names: ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"],
                expected: "a number or a day's name (SUN–SAT)"),
        ]

        private static let macroNames = [
            "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly",
        ]

        private static let macros: [String: String] = [
            "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *", "@monthly": "0 0 1 * *", "@weekly": "0 0 * * 0",
            "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@hourly": "0 * * * *",
        ]

        /// Why an expression is not a schedule, naming the field and the text.
        public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
            public var description: String

            init(_ description: String) { self.description = description }
        }
    }
#endif
