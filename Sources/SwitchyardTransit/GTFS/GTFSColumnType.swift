/// How a GTFS field is stored in SQLite, and what a value must look like to be accepted.
///
/// An empty field is `NULL` whatever the type (and a record whose required field is empty is skipped).
public enum GTFSColumnType: String, Sendable, Hashable, CaseIterable {
    /// Stored as given (`TEXT`): IDs, names, URLs, colours, currency codes.
    case text
    /// A whole number (`INTEGER`): enumerations, sequences, seconds, counts. Surrounding spaces are ignored.
    case integer
    /// A decimal number (`REAL`): coordinates, distances, prices.
    case real
    /// A time of the service day, `H:MM:SS` or `HH:MM:SS`, hours past 24 allowed (a trip that runs past midnight),
    /// stored as seconds after the start of the service day, `H × 3600 + MM × 60 + SS` (`INTEGER`):
    /// `8:05:00` → 29100, `25:13:00` → 90780.
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
    /// Whether a record must have a value in it (records without are skipped and reported); a file whose header
    /// lacks a required field cannot be imported.
    public let isRequired: Bool
}
