/// How a GTFS field is stored in SQLite, and what a value must look like to be accepted.
///
/// An empty field is `NULL` whatever the type (and a record whose required field is empty is skipped; see
/// ``GTFSField/isRequired``).
public enum GTFSColumnType: String, Sendable, Hashable, CaseIterable {
    /// Stored as given (`TEXT`): IDs, names, URLs, colours, currency codes.
    case text
    /// A whole number (`INTEGER`): enumerations, sequences, seconds, counts. Surrounding spaces are ignored; a
    /// decimal whose fraction is zeros (`2.0`, as pandas writes integer columns with empty values) is read as that
    /// integer, with a warning.
    case integer
    /// A decimal number (`REAL`): coordinates, distances, prices.
    case real
    /// A time of the service day, `H:MM:SS` or `HH:MM:SS`, hours past 24 allowed (a trip that runs past midnight),
    /// stored as seconds after the start of the service day, `H × 3600 + MM × 60 + SS` (`INTEGER`):
    /// `8:05:00` → 29100, `25:13:00` → 90780. A time without seconds (`8:05`) is read as `8:05:00`, with a warning.
    case time
    /// A service date `YYYYMMDD`, stored as that number (`INTEGER`, so dates sort and compare): 20240131.
    case date

    /// The SQLite column type.
    var sqlType: String {
        switch self {
        case .text: "TEXT"
        case .integer, .time, .date: "INTEGER"
        case .real: "REAL"
        }
    }
}

/// One field of a GTFS file.
public struct GTFSField: Sendable, Hashable {
    /// The field name, as in the GTFS reference and the file's header; also the column name.
    public let name: String
    /// How it is stored.
    public let type: GTFSColumnType
    /// Whether a record is unusable without a value in it: its key, or a value that gives it its meaning (a stop
    /// time's `stop_sequence`, a calendar's days). Records without one, or with one not of the field's type, are
    /// skipped and reported; a required file whose header lacks the field fails the import, an optional file's
    /// records are all skipped.
    public let isRequired: Bool
    /// Whether the GTFS reference requires the field although a record is usable without it: it describes the
    /// record (`agency_name`, `agency_url`, `agency_timezone`, `route_type`, `level_index`, `feed_info.txt`'s
    /// publisher and language, an attribution's `organization_name`, a rider category's name, a fare medium's or a
    /// booking rule's type) and other records may refer to it. An empty or
    /// invalid value is stored as `NULL` with a warning, and a header without the field imports with one warning:
    /// dropping such a record would also break every reference to it. Never true with ``isRequired``.
    public let isExpected: Bool

    init(name: String, type: GTFSColumnType, isRequired: Bool, isExpected: Bool = false) {
        precondition(!(isRequired && isExpected), "GTFSField: \(name) is either required or expected")
        self.name = name
        self.type = type
        self.isRequired = isRequired
        self.isExpected = isExpected
    }
}
