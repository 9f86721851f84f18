/// What happens after the last row is committed: indexes for the usual lookups (built after loading, which is
/// many times faster than maintaining them during it), then referential and duplicate-key checks, reported as
/// counts with examples and never enforced (real feeds break them; the data is still useful).
///
/// The work is split so that checks run while the big `stop_times` index is built (WAL readers do not wait for
/// the writer): see `GTFSImporter`'s finishing jobs. Every step is idempotent (`IF NOT EXISTS`; checks replace
/// their rows), so an import killed while indexing or checking finishes them on `--resume`.
///
/// References are counted as **distinct values** that are not found (`stop_times.trip_id → trips.trip_id: 3
/// values, e.g. T9`), duplicates as rows beyond the first of each key.
@_spi(ImportDestinations)
public enum FeedChecks {
    /// Indexes on every table but `stop_times`: small, built first (the checks need the parents' keys).
    public static let smallIndexes: [(GTFSFile, [String])] = [
        (.agency, ["agency_id"]), (.stops, ["stop_id"]), (.routes, ["route_id"]), (.trips, ["trip_id"]),
        (.trips, ["route_id"]), (.calendar, ["service_id"]), (.calendarDates, ["service_id", "date"]),
        (.shapes, ["shape_id", "shape_pt_sequence"]), (.frequencies, ["trip_id"]),
        // The parents of the fare and GTFS-Flex files' references, and their keys.
        (.areas, ["area_id"]), (.networks, ["network_id"]), (.timeframes, ["timeframe_group_id"]),
        (.riderCategories, ["rider_category_id"]), (.fareMedia, ["fare_media_id"]),
        (.fareProducts, ["fare_product_id"]), (.fareLegRules, ["leg_group_id"]),
        (.locationGroups, ["location_group_id"]), (.bookingRules, ["booking_rule_id"]),
        (.stopAreas, ["area_id", "stop_id"]), (.routeNetworks, ["route_id"]),
        (.locationGroupStops, ["location_group_id", "stop_id"]),
    ]

    /// The `stop_times` index: a trip's stops in order. (An index on `stop_times(stop_id)` for departures by stop
    /// costs as much again on a VBB-sized feed; create it yourself if you need it.)
    public static let largeIndexes: [(GTFSFile, [String])] = [(.stopTimes, ["trip_id", "stop_sequence"])]

    /// A reference from a child column to a parent column; `parents` may list several (trips.service_id).
    public struct Reference: Sendable {
        public let child: GTFSFile
        public let column: String
        public let parents: [(GTFSFile, String)]
        /// `child.column → parent.column or …`, as the check is named in the summary.
        public var name: String {
            "\(child.tableName).\(column) → " + parents.map { "\($0.0.tableName).\($0.1)" }.joined(separator: " or ")
        }
    }

    /// Every reference checked, in the order the summary lists them (those of a file the feed lacks are not run).
    public static let references: [Reference] = classicReferences + fareReferences + flexReferences

    private static let classicReferences: [Reference] = [
        Reference(child: .stopTimes, column: "trip_id", parents: [(.trips, "trip_id")]),
        Reference(child: .stopTimes, column: "stop_id", parents: [(.stops, "stop_id")]),
        Reference(child: .trips, column: "route_id", parents: [(.routes, "route_id")]),
        Reference(
            child: .trips, column: "service_id",
            parents: [(.calendar, "service_id"), (.calendarDates, "service_id")]),
        Reference(child: .trips, column: "shape_id", parents: [(.shapes, "shape_id")]),
        Reference(child: .routes, column: "agency_id", parents: [(.agency, "agency_id")]),
        Reference(child: .stops, column: "parent_station", parents: [(.stops, "stop_id")]),
        Reference(child: .frequencies, column: "trip_id", parents: [(.trips, "trip_id")]),
        Reference(child: .transfers, column: "from_stop_id", parents: [(.stops, "stop_id")]),
        Reference(child: .transfers, column: "to_stop_id", parents: [(.stops, "stop_id")]),
    ]

    /// The fare files' references. A network is named by `networks.txt` or, where a feed has none, by
    /// `routes.network_id`.
    private static let fareReferences: [Reference] = [
        Reference(child: .stopAreas, column: "area_id", parents: [(.areas, "area_id")]),
        Reference(child: .stopAreas, column: "stop_id", parents: [(.stops, "stop_id")]),
        Reference(child: .routeNetworks, column: "network_id", parents: [(.networks, "network_id")]),
        Reference(child: .routeNetworks, column: "route_id", parents: [(.routes, "route_id")]),
        Reference(
            child: .timeframes, column: "service_id",
            parents: [(.calendar, "service_id"), (.calendarDates, "service_id")]),
        Reference(
            child: .fareProducts, column: "rider_category_id", parents: [(.riderCategories, "rider_category_id")]),
        Reference(child: .fareProducts, column: "fare_media_id", parents: [(.fareMedia, "fare_media_id")]),
        Reference(
            child: .fareLegRules, column: "network_id", parents: [(.networks, "network_id"), (.routes, "network_id")]),
        Reference(child: .fareLegRules, column: "from_area_id", parents: [(.areas, "area_id")]),
        Reference(child: .fareLegRules, column: "to_area_id", parents: [(.areas, "area_id")]),
        Reference(
            child: .fareLegRules, column: "from_timeframe_group_id", parents: [(.timeframes, "timeframe_group_id")]),
        Reference(
            child: .fareLegRules, column: "to_timeframe_group_id", parents: [(.timeframes, "timeframe_group_id")]),
        Reference(child: .fareLegRules, column: "fare_product_id", parents: [(.fareProducts, "fare_product_id")]),
        Reference(
            child: .fareLegJoinRules, column: "from_network_id",
            parents: [(.networks, "network_id"), (.routes, "network_id")]),
        Reference(
            child: .fareLegJoinRules, column: "to_network_id",
            parents: [(.networks, "network_id"), (.routes, "network_id")]),
        Reference(child: .fareLegJoinRules, column: "from_stop_id", parents: [(.stops, "stop_id")]),
        Reference(child: .fareLegJoinRules, column: "to_stop_id", parents: [(.stops, "stop_id")]),
        Reference(child: .fareTransferRules, column: "from_leg_group_id", parents: [(.fareLegRules, "leg_group_id")]),
        Reference(child: .fareTransferRules, column: "to_leg_group_id", parents: [(.fareLegRules, "leg_group_id")]),
        Reference(child: .fareTransferRules, column: "fare_product_id", parents: [(.fareProducts, "fare_product_id")]),
    ]

    /// GTFS-Flex's references, but those of `stop_times.txt` (its location group and booking rule columns are
    /// empty in most feeds, and a check would read the whole table).
    private static let flexReferences: [Reference] = [
        Reference(
            child: .locationGroupStops, column: "location_group_id", parents: [(.locationGroups, "location_group_id")]),
        Reference(child: .locationGroupStops, column: "stop_id", parents: [(.stops, "stop_id")]),
        Reference(
            child: .bookingRules, column: "prior_notice_service_id",
            parents: [(.calendar, "service_id"), (.calendarDates, "service_id")]),
    ]

    /// Keys that should be unique per table.
    public static let keys: [(GTFSFile, [String])] = [
        (.agency, ["agency_id"]), (.stops, ["stop_id"]), (.routes, ["route_id"]), (.trips, ["trip_id"]),
        (.stopTimes, ["trip_id", "stop_sequence"]), (.calendar, ["service_id"]),
        (.calendarDates, ["service_id", "date"]), (.shapes, ["shape_id", "shape_pt_sequence"]),
        (.areas, ["area_id"]), (.networks, ["network_id"]), (.riderCategories, ["rider_category_id"]),
        (.fareMedia, ["fare_media_id"]), (.locationGroups, ["location_group_id"]), (.bookingRules, ["booking_rule_id"]),
        (.stopAreas, ["area_id", "stop_id"]), (.routeNetworks, ["route_id"]),
        (.locationGroupStops, ["location_group_id", "stop_id"]),
    ]

    /// One check to run.
    public enum Check: Sendable {
        /// Distinct values of the reference's child column found in none of its parents present.
        case reference(Reference, parents: [(GTFSFile, String)])
        /// Rows beyond the first of each key of the file (rows with a NULL in the key not counted).
        case duplicates(GTFSFile, [String])

        /// The name the summary gives the check's result.
        public var name: String {
            switch self {
            case .reference(let reference, _): reference.name
            case .duplicates(let file, let columns): "duplicate \(file.tableName).\(columns.joined(separator: "+"))"
            }
        }
    }

    /// The checks of `stage` whose tables are in `present`, in the order the summary lists them: the trip
    /// reference and the `stop_times` key read the `stop_times` index, every other check runs before it exists.
    public static func plan(_ stage: ImportCheckStage, present: Set<GTFSFile>) -> [Check] {
        func needsLargeIndex(_ file: GTFSFile, _ column: String) -> Bool { file == .stopTimes && column != "stop_id" }
        var checks: [Check] = []
        for reference in references where present.contains(reference.child) {
            guard needsLargeIndex(reference.child, reference.column) == (stage == .afterLargeIndexes) else { continue }
            checks.append(.reference(reference, parents: reference.parents.filter { present.contains($0.0) }))
        }
        for (file, columns) in keys where present.contains(file) {
            guard needsLargeIndex(file, columns[0]) == (stage == .afterLargeIndexes) else { continue }
            checks.append(.duplicates(file, columns))
        }
        return checks
    }

    /// The index on `columns` of `file`'s table: `stop_times_trip_id_stop_sequence`.
    public static func indexName(_ file: GTFSFile, _ columns: [String]) -> String {
        "\(file.tableName)_\(columns.joined(separator: "_"))"
    }

    /// Whether an index on `columns` of `file` is one of ``keys`` (built `UNIQUE` when the key is unique).
    public static func isKey(_ file: GTFSFile, _ columns: [String]) -> Bool {
        keys.contains { $0.0 == file && $0.1 == columns }
    }
}

/// Which checks run while the `stop_times` index is built, and which need it.
@_spi(ImportDestinations)
public enum ImportCheckStage: Sendable, Hashable {
    case beforeLargeIndexes, afterLargeIndexes
}
