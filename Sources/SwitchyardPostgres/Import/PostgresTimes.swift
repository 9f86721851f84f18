#if Postgres
    /// How an import into PostgreSQL stores GTFS times (`25:13:00`: hours, minutes and seconds after the service
    /// day's start, past 24 for trips that run after midnight).
    ///
    /// An import keeps the choice it began with: it is recorded with the import, and a resume follows the record.
    public enum PostgresTimes: String, Sendable, CaseIterable {
        /// `bigint` seconds (`25:13:00` → 90780), as in SQLite: the same numbers in both databases, and integer
        /// arithmetic (`departure_time / 3600` is the hour).
        case seconds
        /// `interval` (`25:13:00` stays `25:13:00`): readable in `psql`, and a service date plus a time is a
        /// `timestamp` (`date '2024-06-01' + departure_time`; the service day's noon minus 12 hours, so a day with a
        /// daylight saving change is off by its hour, as GTFS defines).
        case interval

        /// The column type of a GTFS time.
        var sqlType: String {
            switch self {
            case .seconds: "bigint"
            case .interval: "interval"
            }
        }
    }
#endif
