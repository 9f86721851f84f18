import SwitchyardTransit

/// The sample feed's services (`calendar.txt`, `calendar_dates.txt`): weekday, Saturday, Sunday and mixed
/// services over the year 2025, with Berlin's public holidays as exceptions and some extra removed days.
///
/// Dates are day numbers (days since 1970-01-01) converted with integer civil-calendar arithmetic.
struct SampleCalendar {
    /// One `service_id`.
    struct Service {
        /// Bit 0 = Monday … bit 6 = Sunday.
        var weekdays: UInt8
        var firstDay: Int
        var lastDay: Int
        /// `calendar_dates.txt` rows, ascending by day, one per day at most.
        var exceptions: [(day: Int, type: Int)]
    }

    /// The feed's first and last service day: 2025-01-01 … 2025-12-31.
    static let firstDay = dayNumber(year: 2025, month: 1, day: 1)
    static let lastDay = dayNumber(year: 2025, month: 12, day: 31)

    /// Berlin's public holidays in 2025 (including the one-off 8 May).
    static let holidays: [Int] = [
        (1, 1), (3, 8), (4, 18), (4, 21), (5, 1), (5, 8), (5, 29), (6, 9), (10, 3), (12, 25), (12, 26),
    ].map { dayNumber(year: 2025, month: $0.0, day: $0.1) }

    /// The weekday masks services cycle through: Mo–Fr, Sa, Su, Mo–Th, Fr, Sa–Su, daily, Mo–Sa.
    private static let masks: [UInt8] = [
        0b001_1111, 0b010_0000, 0b100_0000, 0b000_1111, 0b001_0000, 0b110_0000,
        0b111_1111, 0b011_1111,
    ]

    private(set) var services: [Service] = []

    /// The services of a profile: `count` services from the `services` stream of `seed`. O(count).
    init(count: Int, seed: UInt64) {
        var random = SampleRandom(seed: seed, stream: .services)
        services.reserveCapacity(count)
        for index in 0..<count {
            services.append(Self.makeService(index: index, random: &random))
        }
    }

    /// The number of `calendar_dates.txt` rows.
    var exceptionCount: Int {
        services.reduce(0) { $0 + $1.exceptions.count }
    }

    private static func makeService(index: Int, random: inout SampleRandom) -> Service {
        let mask = masks[index % masks.count]
        var first = firstDay
        var last = lastDay
        if index >= masks.count {
            // Seasonal and construction-period services cover part of the year.
            first = firstDay + random.below(300)
            last = min(lastDay, first + 14 + random.below(365))
        }
        var exceptions: [(day: Int, type: Int)] = []
        let runsSunday = mask & 0b100_0000 != 0
        if mask != 0b111_1111 {
            for holiday in holidays where holiday >= first && holiday <= last {
                let bit: UInt8 = 1 << UInt8(weekday(holiday))
                if !runsSunday && mask & bit != 0 {
                    exceptions.append((holiday, 2))  // no working-day service on a holiday
                } else if runsSunday && mask & bit == 0 {
                    exceptions.append((holiday, 1))  // Sunday service runs instead
                }
            }
        }
        if index >= 3 {
            // A few extra days without service (construction, events).
            for _ in 0..<random.below(4) {
                let day = first + random.below(last - first + 1)
                let bit: UInt8 = 1 << UInt8(weekday(day))
                if mask & bit != 0 && !exceptions.contains(where: { $0.day == day }) {
                    exceptions.append((day, 2))
                }
            }
        }
        exceptions.sort { $0.day < $1.day }
        return Service(weekdays: mask, firstDay: first, lastDay: last, exceptions: exceptions)
    }

    /// Monday = 0 … Sunday = 6.
    static func weekday(_ day: Int) -> Int {
        ((day % 7) + 7 + 3) % 7  // 1970-01-01 was a Thursday
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day number as the integer YYYYMMDD (GTFS's date format).
    static func yyyymmdd(_ dayNumber: Int) -> Int {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return year * 10_000 + month * 100 + day
    }
}
