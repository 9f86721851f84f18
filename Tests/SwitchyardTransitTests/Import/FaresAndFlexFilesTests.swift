import Foundation
import Testing

@_spi(ImportDestinations) @testable import SwitchyardTransit

/// The reference's newer files: the fare model of fare products and leg and transfer rules, and GTFS-Flex's location
/// groups and booking rules. A feed that has them loses none of them, and their references are checked.
@Suite("Importing fare products and GTFS-Flex files")
struct FaresAndFlexFilesTests {
    /// A demand-responsive zone beside the sample feed's fixed route (the shape of a German Flex feed): its stop
    /// time names a location group instead of a stop, with a pickup window and booking rules.
    static let flexFiles: [String: String] = [
        "location_groups.txt": "location_group_id,location_group_name\nzone-476,Rufbus 476 Angermünde\n",
        "location_group_stops.txt":
            "location_group_id,stop_id\nzone-476,AMV\nzone-476,BEATTY_AIRPORT\nzone-476,NOWHERE\n",
        "booking_rules.txt": """
        booking_rule_id,booking_type,prior_notice_duration_min,prior_notice_last_day,prior_notice_last_time,message,phone_number
        same-day,1,60,,,"Anmeldung mind. 60 min vorher, per Anruf",+49 3332 442 755
        day-before,2,,1,17:00:00,Am Vortag bis 17 Uhr,
        unknown,,,,,,

        """,
        "trips.txt":
            "route_id,service_id,trip_id,direction_id,cars_allowed,safe_duration_factor,safe_duration_offset\n"
            + "AAMV,WE,AAMV1,0,,,\nAAMV,WE,AAMV2,1,,,\nAAMV,WE,FLEX1,0,2,1.5,600\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,location_group_id,stop_sequence,start_pickup_drop_off_window,end_pickup_drop_off_window,pickup_type,drop_off_type,pickup_booking_rule_id,drop_off_booking_rule_id
        AAMV1,8:00:00,8:00:00,BEATTY_AIRPORT,,1,,,,,,
        AAMV1,9:00:00,9:00:00,AMV,,2,,,,,,
        AAMV2,10:00:00,10:00:00,AMV,,1,,,,,,
        AAMV2,11:00:00,11:00:00,BEATTY_AIRPORT,,2,,,,,,
        FLEX1,,,,zone-476,1,17:30:00,22:00:00,2,2,same-day,day-before
        FLEX1,,,,zone-476,2,17:30:00,22:00:00,2,2,same-day,day-before

        """,
    ]

    /// Fare products by rider category and medium, priced by leg between areas at peak and off-peak, with a free
    /// transfer within 90 minutes.
    static let fareFiles: [String: String] = [
        "areas.txt": "area_id,area_name\ncentre,Centre\noutskirts,Outskirts\n",
        "stop_areas.txt": "area_id,stop_id\ncentre,AMV\noutskirts,BEATTY_AIRPORT\noutskirts,FUR_CREEK_RES\n",
        "networks.txt": "network_id,network_name\nbus,Buses\n",
        "route_networks.txt": "network_id,route_id\nbus,AAMV\n",
        "timeframes.txt":
            "timeframe_group_id,start_time,end_time,service_id\npeak,07:00:00,09:00:00,WE\noff-peak,,,WE\n",
        "rider_categories.txt": """
        rider_category_id,rider_category_name,is_default_fare_category,eligibility_url
        adult,Adult,1,
        senior,,0,https://example.org/seniors

        """,
        "fare_media.txt": "fare_media_id,fare_media_name,fare_media_type\ncard,TransitCard,2\ncash,,0\n",
        "fare_products.txt": """
        fare_product_id,fare_product_name,rider_category_id,fare_media_id,amount,currency
        single,Single ride,adult,card,2.50,USD
        single,Single ride,senior,card,1.25,USD
        single,Single ride,adult,cash,3.00,USD
        free-transfer,Transfer,,card,0,USD
        day,Day pass,child,card,7.00,USD
        broken,No price,adult,card,,USD

        """,
        "fare_leg_rules.txt": """
        leg_group_id,network_id,from_area_id,to_area_id,from_timeframe_group_id,to_timeframe_group_id,fare_product_id,rule_priority
        in-town,bus,centre,centre,peak,,single,1
        in-town,bus,centre,centre,off-peak,,single,0
        out,bus,centre,outskirts,,,day,
        out,tram,outskirts,centre,,,single,

        """,
        "fare_leg_join_rules.txt": "from_network_id,to_network_id,from_stop_id,to_stop_id\nbus,bus,AMV,AMV\n",
        "fare_transfer_rules.txt": """
        from_leg_group_id,to_leg_group_id,transfer_count,duration_limit,duration_limit_type,fare_transfer_type,fare_product_id
        in-town,in-town,1,5400,1,0,free-transfer
        in-town,out,,5400,1,1,

        """,
    ]

    @Test("every fare and GTFS-Flex file is imported into its table; a Flex stop time keeps its zone and window")
    func filesImport() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        var files = RealFeedShapesTests.sampleFeed.merging(Self.flexFiles) { _, new in new }
        files.merge(Self.fareFiles) { _, new in new }
        files["locations.geojson"] = #"{"type":"FeatureCollection","features":[]}"#
        try FileManager.default.createDirectory(atPath: scratch.file("feed"), withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: scratch.file("feed/" + name))) }
        let summary = try await GTFSImporter(
            feed: try GTFSFeed.open(scratch.file("feed")), database: scratch.file("db.sqlite")
        ).run()

        #expect(summary.state == .complete)
        #expect(summary.ignoredFiles == ["locations.geojson"])
        let counts = Dictionary(uniqueKeysWithValues: summary.files.map { ($0.name, ($0.imported, $0.skipped)) })
        let expected: [String: (Int, Int)] = [
            "location_groups.txt": (1, 0), "location_group_stops.txt": (3, 0), "booking_rules.txt": (3, 0),
            "areas.txt": (2, 0), "stop_areas.txt": (3, 0), "networks.txt": (1, 0), "route_networks.txt": (1, 0),
            "timeframes.txt": (2, 0), "rider_categories.txt": (2, 0), "fare_media.txt": (2, 0),
            "fare_products.txt": (5, 1), "fare_leg_rules.txt": (4, 0), "fare_leg_join_rules.txt": (1, 0),
            "fare_transfer_rules.txt": (2, 0), "stop_times.txt": (6, 0), "trips.txt": (3, 0),
        ]
        for (name, (imported, skipped)) in expected {
            #expect(
                counts[name]?.0 == imported && counts[name]?.1 == skipped,
                "\(name): \(String(describing: counts[name]))")
        }
        // Required only to describe a record: kept, NULL, with a warning.
        let bookingRules = try #require(summary.files.first { $0.name == "booking_rules.txt" })
        #expect(bookingRules.counts.first { $0.kind == .expectedValue }?.count == 1)
        let riders = try #require(summary.files.first { $0.name == "rider_categories.txt" })
        #expect(riders.counts.first { $0.kind == .expectedValue }?.example?.field == "rider_category_name")
        let products = try #require(summary.files.first { $0.name == "fare_products.txt" })
        #expect(products.problems.first?.field == "amount" && products.problems.first?.line == 7)

        let database = try SQLiteConnection(path: scratch.file("db.sqlite"), readOnly: true)
        #expect(
            try database.rows(
                """
                SELECT stop_id, location_group_id, start_pickup_drop_off_window, end_pickup_drop_off_window,
                    pickup_booking_rule_id FROM stop_times WHERE trip_id = 'FLEX1' ORDER BY stop_sequence LIMIT 1
                """) == [[.null, .text("zone-476"), .integer(63000), .integer(79200), .text("same-day")]])
        #expect(
            try database.rows(
                "SELECT cars_allowed, safe_duration_factor, safe_duration_offset FROM trips WHERE trip_id = 'FLEX1'")
                == [[.integer(2), .real(1.5), .real(600)]])
        #expect(
            try database.rows("SELECT prior_notice_last_time FROM booking_rules WHERE booking_rule_id = 'day-before'")
                == [[.integer(61200)]])
        #expect(
            try database.rows("SELECT amount, currency FROM fare_products WHERE rider_category_id = 'senior'")
                == [[.real(1.25), .text("USD")]])

        let failing = Dictionary(
            uniqueKeysWithValues: summary.checks.filter { $0.count > 0 }.map { ($0.name, $0.examples) })
        #expect(
            failing == [
                "location_group_stops.stop_id → stops.stop_id": ["NOWHERE"],
                "fare_products.rider_category_id → rider_categories.rider_category_id": ["child"],
                "fare_leg_rules.network_id → networks.network_id or routes.network_id": ["tram"],
            ], "\(failing)")
        let names = Set(summary.checks.map(\.name))
        for name in [
            "fare_leg_rules.fare_product_id → fare_products.fare_product_id",
            "fare_transfer_rules.from_leg_group_id → fare_leg_rules.leg_group_id",
            "timeframes.service_id → calendar.service_id or calendar_dates.service_id",
            "stop_areas.area_id → areas.area_id", "duplicate booking_rules.booking_rule_id",
        ] {
            #expect(names.contains(name), "\(name) is checked")
        }
    }

    @Test("without networks.txt a network is one routes.txt names; a required time written 8:05 keeps its record")
    func networksFromRoutes() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        var files = RealFeedShapesTests.sampleFeed
        files["routes.txt"] = "route_id,agency_id,route_short_name,route_type,network_id\nAAMV,DTA,50,3,bus\n"
        files["fare_products.txt"] = "fare_product_id,amount,currency\nsingle,2.50,USD\n"
        files["fare_leg_rules.txt"] = "network_id,fare_product_id\nbus,single\ntram,single\n"
        files["frequencies.txt"] = "trip_id,start_time,end_time,headway_secs\nAAMV1,6:00,22:00:00,1800\n"
        try FileManager.default.createDirectory(atPath: scratch.file("feed"), withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: scratch.file("feed/" + name))) }
        let summary = try await GTFSImporter(
            feed: try GTFSFeed.open(scratch.file("feed")), database: scratch.file("db.sqlite")
        ).run()
        let network = try #require(
            summary.checks.first { $0.name == "fare_leg_rules.network_id → networks.network_id or routes.network_id" })
        #expect(network.count == 1 && network.examples == ["tram"])
        let frequencies = try #require(summary.files.first { $0.name == "frequencies.txt" })
        #expect(frequencies.imported == 1 && frequencies.counts.first?.kind == .timeWithoutSeconds)
        let database = try SQLiteConnection(path: scratch.file("db.sqlite"), readOnly: true)
        #expect(
            try database.rows("SELECT start_time, end_time FROM frequencies") == [[.integer(21600), .integer(79200)]])
    }
}
