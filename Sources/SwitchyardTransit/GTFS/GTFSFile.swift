/// The seventeen files of a GTFS Schedule feed that Switchyard imports, each into a table of the same name.
///
/// Cases are declared in import order: files that others refer to come first. Fields follow the GTFS Schedule
/// reference (https://gtfs.org/schedule/reference/); every field the reference defines is a column, whether or
/// not a feed has it.
public enum GTFSFile: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    case agency, levels, stops, routes, calendar
    case calendarDates = "calendar_dates"
    case shapes, trips
    case stopTimes = "stop_times"
    case frequencies, transfers, pathways
    case fareAttributes = "fare_attributes"
    case fareRules = "fare_rules"
    case feedInfo = "feed_info"
    case attributions, translations

    /// The file's name in a feed, e.g. `stop_times.txt`.
    public var fileName: String { rawValue + ".txt" }
    /// The SQLite table it is imported into, e.g. `stop_times`.
    public var tableName: String { rawValue }
    public var description: String { fileName }

    /// The file named `fileName` (`stops.txt`), if GTFS defines it and Switchyard imports it.
    public init?(fileName: String) {
        guard fileName.hasSuffix(".txt") else { return nil }
        self.init(rawValue: String(fileName.dropLast(4)))
    }

    /// Whether a feed must contain the file. `calendar.txt` and `calendar_dates.txt` are each optional, but a feed
    /// needs at least one of them (checked separately).
    public var isRequired: Bool {
        switch self {
        case .agency, .stops, .routes, .trips, .stopTimes: true
        default: false
        }
    }

    public static func < (lhs: GTFSFile, rhs: GTFSFile) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The file's fields, in reference order.
    public var fields: [GTFSField] { GTFSFile.fieldTable[self]! }
}
