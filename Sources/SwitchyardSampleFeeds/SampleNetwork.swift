import SwitchyardTransit

/// Everything of a sample feed except the trips: services, stations and their platforms, routes and their stop
/// patterns (with shapes' lengths and run times). Trips are replayed per route by ``SampleTimetable``.
///
/// Built once per generation (and by ``SampleFeedGenerator/expectedRecords(for:)``) in
/// O(stations + routes × stopsPerTrip × shapePointsBetweenStops) time; its memory is O(stops + routes × stopsPerTrip)
/// — a few MB for `vbb` — and does not grow with the number of trips or stop times.
struct SampleNetwork {
    /// A parent station (`location_type` 1); its platforms follow it in `stops`.
    struct Station {
        var lat: Int
        var lon: Int
        var name: String
        /// The station's own row in `stops`; its platforms are the next `platforms` rows.
        var firstStop: Int
        var platforms: Int
        var hasTransfers: Bool
    }

    /// One row of `stops.txt`.
    struct Stop {
        /// Coordinates in 10⁻⁷ degrees (stations: multiples of 10, printed with 6 decimals).
        var lat: Int
        var lon: Int
        var station: Int
        /// 0-based platform number, or -1 for the station itself.
        var platform: Int
        /// `stop_code`, or -1 for none.
        var code: Int
        /// `wheelchair_boarding`: 0, 1 or 2.
        var wheelchair: Int
    }

    /// One row of `routes.txt` and what its timetable needs.
    struct Route {
        /// `route_id` is `"\(number)_\(type)"`, like VBB's `10148_700`.
        var number: Int
        var type: Int
        var agency: Int
        var shortName: String
        var longName: String
        var color: String
        var textColor: String
        var isNight: Bool
        var usesBlocks: Bool
        var hasFrequencies: Bool
        var exactTimes: Bool
        /// Departures lie in `firstHour * 3600 ..< endHour * 3600` (service-day seconds; may pass 24 h).
        var firstHour: Int
        var endHour: Int
        var tripCount: Int
        /// The global index of the route's first trip (`trip_id` is global index + 1).
        var firstTrip: Int
        /// Patterns: outbound, inbound, then (if any) the short-turn variants outbound, inbound.
        var patterns: Range<Int>
    }

    /// A stop pattern of one route and direction, with its own shape (`shape_id` = index + 1).
    struct Pattern {
        var route: Int
        var direction: Int
        /// Indexes into `patternStops`.
        var stops: Range<Int>
        var shapePoints: Int
        /// The station whose name is the `trip_headsign`.
        var headsign: Int
        /// `stop_headsign` of the first `stopHeadsignCount` stops (empty for the others).
        var stopHeadsign: String
        var stopHeadsignCount: Int
        /// Seconds spent at each intermediate stop (departure − arrival).
        var dwell: Int
    }

    /// One stop of a pattern.
    struct PatternStop {
        var stop: Int32
        var sequence: Int32
        /// Seconds from the first stop's departure at the base speed, without dwell times.
        var time: Int32
        /// Decimeters along the pattern's shape.
        var distance: Int32
        var pickup: UInt8
        var dropOff: UInt8
    }

    let profile: SampleFeedProfile
    let calendar: SampleCalendar
    var stations: [Station] = []
    var stops: [Stop] = []
    /// Each stop's `stop_id` (e.g. `de:11000:900100042::2`) as bytes, by stop index.
    var stopIDs = SampleByteArena()
    var routes: [Route] = []
    var patterns: [Pattern] = []
    var patternStops: [PatternStop] = []
    var tripCount = 0

    /// Builds the network of `profile` (which must be valid).
    init(_ profile: SampleFeedProfile) {
        self.profile = profile
        calendar = SampleCalendar(count: profile.services, seed: profile.seed)
        buildStations()
        let grid = SampleStationGrid(stations: stations)
        buildRoutes(grid: grid)
    }

    /// The coordinates of a pattern's stops, in order (the input of its shape).
    func stopCoordinates(of pattern: Pattern) -> [(lat: Int, lon: Int)] {
        patternStops[pattern.stops].map { (stops[Int($0.stop)].lat, stops[Int($0.stop)].lon) }
    }

    /// The shape of a pattern, point by point.
    func shape(of patternIndex: Int) -> SampleShapeIterator {
        SampleShapeIterator(
            stops: stopCoordinates(of: patterns[patternIndex]), pointsBetweenStops: profile.shapePointsBetweenStops,
            random: SampleRandom(seed: profile.seed, stream: .shapes, index: patternIndex))
    }
}

/// Many short byte strings in one array: entry `i` is `bytes[ends[i-1] ..< ends[i]]`. O(1) lookup, no per-entry
/// allocation.
struct SampleByteArena {
    private(set) var bytes: [UInt8] = []
    private var ends: [Int] = []

    /// The number of entries.
    var count: Int { ends.count }

    /// Adds the bytes a writer holds as the next entry and empties the writer.
    mutating func append(from writer: inout CSVTextWriter) {
        writer.drain { bytes.append(contentsOf: $0) }
        ends.append(bytes.count)
    }

    /// Appends entry `index` verbatim to `writer`.
    func write(_ index: Int, to writer: inout CSVTextWriter) {
        let start = index == 0 ? 0 : ends[index - 1]
        let end = ends[index]
        bytes.withUnsafeBytes { writer.append(bytes: UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
    }

    /// Entry `index` as a string (for tests and diagnostics).
    func string(_ index: Int) -> String {
        let start = index == 0 ? 0 : ends[index - 1]
        return String(decoding: bytes[start..<ends[index]], as: UTF8.self)
    }
}
