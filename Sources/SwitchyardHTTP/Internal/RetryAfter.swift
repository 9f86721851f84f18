#if HTTP
    import NIOHTTP1

    /// The `Retry-After` header (RFC 9110 §10.2.3): delay-seconds, or an HTTP date measured from the response's `Date`.
    enum RetryAfter {
        /// The wait the response asks for: its seconds, or its date less the response's `date` header. `nil` when
        /// there is none, or it cannot be read (an HTTP date without a `date` header to measure it from).
        static func parse(_ headers: HTTPHeaders) -> Duration? {
            guard let value = headers.first(name: "retry-after")?.trimmingSpaces else { return nil }
            if let seconds = Int(value) { return seconds >= 0 ? .seconds(seconds) : nil }
            guard let then = HTTPDate.seconds(value), let date = headers.first(name: "date"),
                let now = HTTPDate.seconds(date)
            else { return nil }
            return .seconds(max(0, then - now))
        }
    }

    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the HTTP date format senders must use, as seconds since 1970.
    enum HTTPDate {
        private static let months = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ]

        static func seconds(_ text: String) -> Int? {
            let parts = text.split(separator: " ")
            guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]),
                let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
            else { return nil }
            let time = parts[4].split(separator: ":").compactMap { Int($0) }
            guard time.count == 3 else { return nil }
            return daysSince1970(year: year, month: month + 1, day: day) * 86_400 + time[0] * 3_600 + time[1] * 60
                + time[2]
        }

        /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days-from-civil).
        private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
            let y = month <= 2 ? year - 1 : year
            let era = (y >= 0 ? y : y - 399) / 400
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            return era * 146_097 + dayOfEra - 719_468
        }
    }

    extension String {
        var trimmingSpaces: String {
            var text = Substring(self)
            while text.first == " " { text.removeFirst() }
            while text.last == " " { text.removeLast() }
            return String(text)
        }
    }
#endif
