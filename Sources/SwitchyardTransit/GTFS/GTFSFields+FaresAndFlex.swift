// The fields of the reference's newer files (https://gtfs.org/schedule/reference/): the fare model of fare products,
// leg and transfer rules (with its areas, networks, timeframes and rider categories), and GTFS-Flex's location
// groups and booking rules. The same rule as the older files': `isRequired` only for keys and the values that give a
// record its meaning, `isExpected` for required values that only describe a record others refer to.

extension GTFSFile {
    static let fareFields: [GTFSFile: [GTFSField]] = [
        .areas: [
            GTFSField(name: "area_id", type: .text, isRequired: true),
            GTFSField(name: "area_name", type: .text, isRequired: false),
        ],
        .stopAreas: [
            GTFSField(name: "area_id", type: .text, isRequired: true),
            GTFSField(name: "stop_id", type: .text, isRequired: true),
        ],
        .networks: [
            GTFSField(name: "network_id", type: .text, isRequired: true),
            GTFSField(name: "network_name", type: .text, isRequired: false),
        ],
        .routeNetworks: [
            GTFSField(name: "network_id", type: .text, isRequired: true),
            GTFSField(name: "route_id", type: .text, isRequired: true),
        ],
        .timeframes: [
            GTFSField(name: "timeframe_group_id", type: .text, isRequired: true),
            GTFSField(name: "start_time", type: .time, isRequired: false),
            GTFSField(name: "end_time", type: .time, isRequired: false),
            GTFSField(name: "service_id", type: .text, isRequired: true),
        ],
        .riderCategories: [
            GTFSField(name: "rider_category_id", type: .text, isRequired: true),
            GTFSField(name: "rider_category_name", type: .text, isRequired: false, isExpected: true),
            // Required by the reference, which also reads an empty value as 0 (not the default category).
            GTFSField(name: "is_default_fare_category", type: .integer, isRequired: false),
            GTFSField(name: "eligibility_url", type: .text, isRequired: false),
        ],
        .fareMedia: [
            GTFSField(name: "fare_media_id", type: .text, isRequired: true),
            GTFSField(name: "fare_media_name", type: .text, isRequired: false),
            GTFSField(name: "fare_media_type", type: .integer, isRequired: false, isExpected: true),
        ],
        .fareProducts: [
            GTFSField(name: "fare_product_id", type: .text, isRequired: true),
            GTFSField(name: "fare_product_name", type: .text, isRequired: false),
            GTFSField(name: "rider_category_id", type: .text, isRequired: false),
            GTFSField(name: "fare_media_id", type: .text, isRequired: false),
            GTFSField(name: "amount", type: .real, isRequired: true),
            GTFSField(name: "currency", type: .text, isRequired: true),
        ],
        .fareLegRules: [
            GTFSField(name: "leg_group_id", type: .text, isRequired: false),
            GTFSField(name: "network_id", type: .text, isRequired: false),
            GTFSField(name: "from_area_id", type: .text, isRequired: false),
            GTFSField(name: "to_area_id", type: .text, isRequired: false),
            GTFSField(name: "from_timeframe_group_id", type: .text, isRequired: false),
            GTFSField(name: "to_timeframe_group_id", type: .text, isRequired: false),
            GTFSField(name: "fare_product_id", type: .text, isRequired: true),
            GTFSField(name: "rule_priority", type: .integer, isRequired: false),
        ],
        .fareLegJoinRules: [
            GTFSField(name: "from_network_id", type: .text, isRequired: true),
            GTFSField(name: "to_network_id", type: .text, isRequired: true),
            GTFSField(name: "from_stop_id", type: .text, isRequired: false),
            GTFSField(name: "to_stop_id", type: .text, isRequired: false),
        ],
        .fareTransferRules: [
            GTFSField(name: "from_leg_group_id", type: .text, isRequired: false),
            GTFSField(name: "to_leg_group_id", type: .text, isRequired: false),
            GTFSField(name: "transfer_count", type: .integer, isRequired: false),
            GTFSField(name: "duration_limit", type: .integer, isRequired: false),
            GTFSField(name: "duration_limit_type", type: .integer, isRequired: false),
            GTFSField(name: "fare_transfer_type", type: .integer, isRequired: true),
            GTFSField(name: "fare_product_id", type: .text, isRequired: false),
        ],
    ]

    static let flexFields: [GTFSFile: [GTFSField]] = [
        .locationGroups: [
            GTFSField(name: "location_group_id", type: .text, isRequired: true),
            GTFSField(name: "location_group_name", type: .text, isRequired: false),
        ],
        .locationGroupStops: [
            GTFSField(name: "location_group_id", type: .text, isRequired: true),
            GTFSField(name: "stop_id", type: .text, isRequired: true),
        ],
        .bookingRules: [
            GTFSField(name: "booking_rule_id", type: .text, isRequired: true),
            GTFSField(name: "booking_type", type: .integer, isRequired: false, isExpected: true),
            GTFSField(name: "prior_notice_duration_min", type: .integer, isRequired: false),
            GTFSField(name: "prior_notice_duration_max", type: .integer, isRequired: false),
            GTFSField(name: "prior_notice_last_day", type: .integer, isRequired: false),
            GTFSField(name: "prior_notice_last_time", type: .time, isRequired: false),
            GTFSField(name: "prior_notice_start_day", type: .integer, isRequired: false),
            GTFSField(name: "prior_notice_start_time", type: .time, isRequired: false),
            GTFSField(name: "prior_notice_service_id", type: .text, isRequired: false),
            GTFSField(name: "message", type: .text, isRequired: false),
            GTFSField(name: "pickup_message", type: .text, isRequired: false),
            GTFSField(name: "drop_off_message", type: .text, isRequired: false),
            GTFSField(name: "phone_number", type: .text, isRequired: false),
            GTFSField(name: "info_url", type: .text, isRequired: false),
            GTFSField(name: "booking_url", type: .text, isRequired: false),
        ],
    ]
}
