import SwitchyardTransit

/// What a generated feed contains.
public struct SampleFeedStatistics: Sendable, Hashable {
    /// Data records (rows after the header) per file name, e.g. `["stop_times.txt": 6_012_345, …]`.
    public var records: [String: Int]
    /// Bytes per file name, header included.
    public var fileBytes: [String: Int]
    /// Bytes of all files.
    public var bytes: Int

    /// Statistics with the given counts (empty by default).
    public init(records: [String: Int] = [:], fileBytes: [String: Int] = [:], bytes: Int = 0) {
        self.records = records
        self.fileBytes = fileBytes
        self.bytes = bytes
    }
}

/// Generates synthetic GTFS feeds: deterministic, realistic in shape, fast, in fixed memory.
///
/// - Determinism: the output is a pure function of the ``SampleFeedProfile`` (seed included): the same profile gives
///   byte-identical files on every platform and run. Only integer arithmetic and seeded SplitMix64 streams are used.
/// - Memory: the network (stations, routes, stop patterns; O(stops + routes × stopsPerTrip), a few MB for
///   ``SampleFeedProfile/vbb``) plus one 128 KiB output buffer; nothing grows with trips or stop times.
/// - Time: O(bytes generated); each file is streamed to the sink in chunks of about 64 KiB.
/// - Integrity: every referenced ID exists (routes → agencies, trips → routes/services/shapes, stop times → trips and
///   stops, stops → parent stations, frequencies → trips, transfers → stops); stop times are grouped by trip with
///   increasing `stop_sequence` and non-decreasing times; trips are in departure order within each route.
public enum SampleFeedGenerator {
    /// The generator's output version: bumped whenever a change alters the bytes a profile produces (the pinned
    /// hash of `tiny` in the tests changes with it), so feeds cached on disk can tell they are stale.
    public static let outputVersion = 1

    /// The files of a feed, in the order they are generated.
    public static let fileNames = [
        "agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt", "calendar_dates.txt",
        "shapes.txt", "frequencies.txt", "transfers.txt", "feed_info.txt",
    ]

    /// Writes the whole feed of `profile` to `sink`, file by file in ``fileNames`` order, then calls `finish`.
    ///
    /// Same profile (and seed) → byte-identical output on every platform and run. Throws whatever the sink throws,
    /// stopping at once. Traps if `profile` is invalid (``SampleFeedProfile/validationFailure``).
    /// - Returns: records and bytes per file, equal to what the sink received (and to ``expectedRecords(for:)``).
    public static func generate<Sink: SampleFeedSink>(
        _ profile: SampleFeedProfile, into sink: inout Sink
    ) throws -> SampleFeedStatistics {
        validate(profile)
        let network = SampleNetwork(profile)
        var out = SampleFeedOutput()
        try writeAgencies(network, to: &out, sink: &sink)
        try writeStops(network, to: &out, sink: &sink)
        try writeRoutes(network, to: &out, sink: &sink)
        try writeTrips(network, to: &out, sink: &sink)
        try writeStopTimes(network, to: &out, sink: &sink)
        try writeCalendar(network, to: &out, sink: &sink)
        try writeCalendarDates(network, to: &out, sink: &sink)
        try writeShapes(network, to: &out, sink: &sink)
        try writeFrequencies(network, to: &out, sink: &sink)
        try writeTransfers(network, to: &out, sink: &sink)
        try writeFeedInfo(network, to: &out, sink: &sink)
        try sink.finish()
        return out.statistics
    }

    /// The exact number of records (rows after the header) each file of `profile`'s feed has, keyed by file name,
    /// computed without generating any output: it builds the network and replays the timetables, which takes
    /// milliseconds (about 50 ms for ``SampleFeedProfile/vbb``) and the network's memory. Traps if `profile` is
    /// invalid.
    public static func expectedRecords(for profile: SampleFeedProfile) -> [String: Int] {
        validate(profile)
        let network = SampleNetwork(profile)
        var stopTimes = 0
        for route in network.routes.indices {
            var timetable = SampleTimetable(network: network, route: route)
            while let trip = timetable.next() {
                stopTimes += network.patterns[trip.pattern].stops.count
            }
        }
        return [
            "agency.txt": profile.agencies,
            "stops.txt": network.stops.count,
            "routes.txt": network.routes.count,
            "trips.txt": network.tripCount,
            "stop_times.txt": stopTimes,
            "calendar.txt": network.calendar.services.count,
            "calendar_dates.txt": network.calendar.exceptionCount,
            "shapes.txt": network.patterns.reduce(0) { $0 + $1.shapePoints },
            "frequencies.txt": network.routes.reduce(0) {
                $0 + ($1.hasFrequencies ? min(2, $1.tripCount) * frequencyWindows.count : 0)
            },
            "transfers.txt": network.stations.reduce(0) {
                let platforms = min($1.platforms, 3)
                return $0 + ($1.hasTransfers ? platforms * (platforms - 1) : 0)
            },
            "feed_info.txt": 1,
        ]
    }

    private static func validate(_ profile: SampleFeedProfile) {
        if let failure = profile.validationFailure {
            preconditionFailure("SampleFeedGenerator: profile \(profile.name) is invalid: \(failure)")
        }
    }

    /// The windows of frequency-based trips: (start, end, headway) in seconds.
    static let frequencyWindows: [(start: Int, end: Int, headway: Int)] = [
        (6 * 3600, 9 * 3600, 300), (9 * 3600, 15 * 3600, 600), (15 * 3600, 19 * 3600, 300),
    ]
}

/// The generator's output state: the CSV buffer and the statistics of the files written so far.
struct SampleFeedOutput: ~Copyable {
    var writer = CSVTextWriter(drainThreshold: 64 * 1024)
    private(set) var statistics = SampleFeedStatistics()
    private var fileName = ""
    private var rows = 0
    private var fileBytes = 0

    /// Starts file `name` with its header line.
    mutating func begin<Sink: SampleFeedSink>(_ name: String, header: StaticString, sink: inout Sink) throws {
        try sink.beginFile(name)
        fileName = name
        rows = 0
        fileBytes = 0
        writer.append(ascii: header)
        writer.appendNewline()
    }

    /// Counts `count` finished rows and hands the buffer to the sink if it is full enough.
    mutating func endRows<Sink: SampleFeedSink>(_ count: Int = 1, sink: inout Sink) throws {
        rows += count
        if writer.shouldDrain { try drain(&sink) }
    }

    /// Hands the buffered bytes to the sink, then ends the file and records its statistics.
    mutating func end<Sink: SampleFeedSink>(sink: inout Sink) throws {
        try drain(&sink)
        try sink.endFile()
        statistics.records[fileName] = rows
        statistics.fileBytes[fileName] = fileBytes
        statistics.bytes += fileBytes
    }

    private mutating func drain<Sink: SampleFeedSink>(_ sink: inout Sink) throws {
        guard writer.count > 0 else { return }
        fileBytes += writer.count
        try writer.drain { try sink.write($0) }
    }
}
