/// The files of a GTFS Schedule feed that Switchyard imports, each into a table of the same name: every `.txt` file
/// of the reference, the fare files of both models and GTFS-Flex's included. (`locations.geojson`, Flex's zones, is
/// GeoJSON, not a table: a feed's copy is listed as not imported.)
///
/// Cases are declared in import order: files that others refer to come first. Fields follow the GTFS Schedule
/// reference (https://gtfs.org/schedule/reference/) as revised in April 2026; every field the reference defines is
/// a column, whether or not a feed has it.
public enum GTFSFile: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    case agency, levels, stops
    case locationGroups = "location_groups"
    case locationGroupStops = "location_group_stops"
    case areas
    case stopAreas = "stop_areas"
    case routes, networks
    case routeNetworks = "route_networks"
    case calendar
    case calendarDates = "calendar_dates"
    case timeframes
    case bookingRules = "booking_rules"
    case shapes, trips
    case stopTimes = "stop_times"
    case frequencies, transfers, pathways
    case fareAttributes = "fare_attributes"
    case fareRules = "fare_rules"
    case riderCategories = "rider_categories"
    case fareMedia = "fare_media"
    case fareProducts = "fare_products"
    case fareLegRules = "fare_leg_rules"
    case fareLegJoinRules = "fare_leg_join_rules"
    case fareTransferRules = "fare_transfer_rules"
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
