import SwitchyardTransit

/// The size and shape of a generated sample feed, and its seed.
///
/// Generation is a pure function of the profile: the same profile (all fields, seed included) gives byte-identical
/// files on every platform and run. The presets span tests (``tiny``) to benchmarks (``large``); ``vbb`` is shaped
/// like the Berlin–Brandenburg VBB feed. Exact record counts of any profile come from
/// ``SampleFeedGenerator/expectedRecords(for:)`` without generating.
public struct SampleFeedProfile: Sendable, Hashable {
    /// The profile's name (`feed_version` is `"<name>-<seed>"`).
    public var name: String
    /// The seed of every random choice.
    public var seed: UInt64
    /// Agencies (`agency.txt` rows); at least 1.
    public var agencies: Int
    /// Parent stations (`location_type` 1); at least 1. `stops.txt` also has each one's platforms.
    public var stations: Int
    /// Platforms (`location_type` 0, the stops trips serve) per station; lower bound at least 1.
    public var platformsPerStation: ClosedRange<Int>
    /// Routes; at least 1. About 56 % bus, 33 % regional bus, 4 % tram, 1.5 % subway, 2 % S-Bahn, 3.5 % rail.
    public var routes: Int
    /// Stops of a route's main pattern (rail lines get ⅗, subway and S-Bahn ⅘ of the drawn count; short-turn variants
    /// 50–80 % of it); lower bound at least 2.
    public var stopsPerTrip: ClosedRange<Int>
    /// Trips of a route over all its services and both directions (night lines get a quarter); lower bound at
    /// least 1.
    public var tripsPerRoute: ClosedRange<Int>
    /// Shape points between two consecutive stops (each stop is a shape point too); lower bound at least 0.
    public var shapePointsBetweenStops: ClosedRange<Int>
    /// Services (`calendar.txt` rows); at least 1.
    public var services: Int

    /// A profile from its parts; see each property for its valid values (checked when generating).
    public init(
        name: String, seed: UInt64 = 1, agencies: Int, stations: Int, platformsPerStation: ClosedRange<Int>,
        routes: Int, stopsPerTrip: ClosedRange<Int>, tripsPerRoute: ClosedRange<Int>,
        shapePointsBetweenStops: ClosedRange<Int>, services: Int
    ) {
        self.name = name
        self.seed = seed
        self.agencies = agencies
        self.stations = stations
        self.platformsPerStation = platformsPerStation
        self.routes = routes
        self.stopsPerTrip = stopsPerTrip
        self.tripsPerRoute = tripsPerRoute
        self.shapePointsBetweenStops = shapePointsBetweenStops
        self.services = services
    }

    /// The first rule the profile breaks, or nil if it is valid.
    public var validationFailure: String? {
        if agencies < 1 { return "agencies must be at least 1, got \(agencies)" }
        if stations < 1 { return "stations must be at least 1, got \(stations)" }
        if platformsPerStation.lowerBound < 1 { return "platformsPerStation must start at 1 or more" }
        if routes < 1 { return "routes must be at least 1, got \(routes)" }
        if stopsPerTrip.lowerBound < 2 { return "stopsPerTrip must start at 2 or more" }
        if tripsPerRoute.lowerBound < 1 { return "tripsPerRoute must start at 1 or more" }
        if shapePointsBetweenStops.lowerBound < 0 { return "shapePointsBetweenStops must not be negative" }
        if services < 1 { return "services must be at least 1, got \(services)" }
        return nil
    }

    /// About 2 000 stop times: 4 routes over 40 stations. For unit tests.
    public static let tiny = SampleFeedProfile(
        name: "tiny", agencies: 3, stations: 40, platformsPerStation: 1...3, routes: 4, stopsPerTrip: 8...16,
        tripsPerRoute: 50...80, shapePointsBetweenStops: 0...3, services: 4)

    /// About 100 000 stop times: 60 routes over 600 stations.
    public static let small = SampleFeedProfile(
        name: "small", agencies: 5, stations: 600, platformsPerStation: 1...4, routes: 60, stopsPerTrip: 8...34,
        tripsPerRoute: 50...150, shapePointsBetweenStops: 1...6, services: 20)

    /// About 1 million stop times: 250 routes over 2 500 stations.
    public static let medium = SampleFeedProfile(
        name: "medium", agencies: 8, stations: 2_500, platformsPerStation: 1...4, routes: 250, stopsPerTrip: 8...45,
        tripsPerRoute: 40...300, shapePointsBetweenStops: 1...8, services: 120)

    /// Shaped like Berlin–Brandenburg's VBB feed: about 40 000 stops, 1 300 routes, 250 000 trips, 6 million stop
    /// times and 500 000 shape points.
    public static let vbb = SampleFeedProfile(
        name: "vbb", agencies: 30, stations: 11_500, platformsPerStation: 1...4, routes: 1_300, stopsPerTrip: 8...45,
        tripsPerRoute: 40...344, shapePointsBetweenStops: 1...8, services: 600)

    /// About 10 million stop times: a larger VBB-like network with more trips.
    public static let large = SampleFeedProfile(
        name: "large", agencies: 40, stations: 16_000, platformsPerStation: 1...4, routes: 1_800, stopsPerTrip: 8...45,
        tripsPerRoute: 40...420, shapePointsBetweenStops: 1...8, services: 800)

    /// The presets, smallest first: ``tiny``, ``small``, ``medium``, ``vbb``, ``large``.
    public static var all: [SampleFeedProfile] { [tiny, small, medium, vbb, large] }

    /// The preset called `name` (`"tiny"`, `"small"`, `"medium"`, `"vbb"`, `"large"`; case-insensitive), or nil.
    public static func named(_ name: String) -> SampleFeedProfile? {
        let key = name.lowercased()
        return all.first { $0.name == key }
    }

    /// A VBB-like profile scaled to about `count` stop times (within a few percent for counts of 100 000 and more;
    /// small counts are approximate), named `"stop-times-<count>"`. Costs one
    /// ``SampleFeedGenerator/expectedRecords(for:)`` (milliseconds), used to correct the first estimate.
    public static func stopTimes(_ count: Int, seed: UInt64 = 1) -> SampleFeedProfile {
        precondition(count > 0, "SampleFeedProfile.stopTimes: the count must be positive, got \(count)")
        // VBB's proportions: ~4 600 stop times and ~9 stations per route.
        let routes = max(2, min(count / 4_600, 100_000))
        let perRoute = count / routes
        // Trips per route ≈ perRoute / 24 stops; keep the range's spread proportional.
        let meanTrips = max(2, perRoute / 24)
        var profile = SampleFeedProfile(
            name: "stop-times-\(count)", seed: seed, agencies: max(1, min(40, routes / 40)),
            stations: max(20, routes * 9), platformsPerStation: 1...4, routes: routes, stopsPerTrip: 8...45,
            tripsPerRoute: max(1, meanTrips / 5)...max(2, meanTrips * 9 / 5), shapePointsBetweenStops: 1...8,
            services: max(3, min(800, routes / 2)))
        let measured = SampleFeedGenerator.expectedRecords(for: profile)["stop_times.txt"] ?? count
        if measured > 0 {
            let scale = { (value: Int) in
                max(1, Int((Int64(value) * Int64(count) + Int64(measured / 2)) / Int64(measured)))
            }
            let lower = scale(profile.tripsPerRoute.lowerBound)
            profile.tripsPerRoute = lower...max(lower, scale(profile.tripsPerRoute.upperBound))
        }
        return profile
    }
}
