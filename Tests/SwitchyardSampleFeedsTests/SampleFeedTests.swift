import Switchyard
import Testing

@testable import SwitchyardSampleFeeds
@_spi(ImportDestinations) @testable import SwitchyardTransit

@Suite("Sample feed generator")
struct SampleFeedTests {
    /// A profile between tiny and small (about 25 k stop_times): big enough for late-night trips and quoting
    /// cases, small enough to generate and parse quickly under Thread Sanitizer.
    static let midsize: SampleFeedProfile = {
        var profile = SampleFeedProfile.stopTimes(25_000)
        profile.agencies = 8  // every hand-written agency name, quoted ones included
        return profile
    }()

    // MARK: Determinism

    @Test("the same profile gives the same bytes; another seed gives other bytes")
    func determinism() throws {
        let first = try Generated(.tiny)
        let second = try Generated(.tiny)
        #expect(first.sink.files == second.sink.files)
        #expect(first.hash == second.hash)

        var reseeded = SampleFeedProfile.tiny
        reseeded.seed = 2
        let other = try Generated(reseeded)
        #expect(other.hash != first.hash)
        #expect(other.sink["stop_times.txt"] != first.sink["stop_times.txt"])

        let midsize = try Generated(Self.midsize)
        #expect(try Generated(Self.midsize).hash == midsize.hash)
    }

    /// Pins the exact output of `tiny` and the midsize profile, so a platform (or a change) that formats or draws differently is caught.
    /// Update the value when the generator changes on purpose.
    @Test("tiny's and the midsize profile's bytes are pinned")
    func pinnedOutput() throws {
        let tiny = try Generated(.tiny)
        #expect(
            String(tiny.hash, radix: 16) == Self.pinnedTinyHash, "tiny feed changed: \(String(tiny.hash, radix: 16))")
        let midsize = try Generated(Self.midsize)  // night lines, every route type, quoted names
        #expect(
            String(midsize.hash, radix: 16) == Self.pinnedMidsizeHash,
            "midsize feed changed: \(String(midsize.hash, radix: 16))")
    }

    static let pinnedTinyHash = "888ec61d5886d2fa"
    static let pinnedMidsizeHash = "96c21c789258fa8a"

    // MARK: Shape of the files

    @Test(
        "every file has its header and every row as many fields",
        arguments: [SampleFeedProfile.tiny, SampleFeedTests.midsize])
    func wellFormed(profile: SampleFeedProfile) throws {
        let feed = try Generated(profile)
        #expect(feed.sink.files.map(\.name) == SampleFeedGenerator.fileNames)
        #expect(feed.sink.isFinished)
        for (name, header) in Self.headers {
            let table = try #require(feed.tables[name], "\(name) missing")
            #expect(table.header == header, "\(name)")
            for (index, row) in table.rows.enumerated() where row.count != header.count {
                Issue.record("\(name) row \(index + 1): \(row.count) fields, expected \(header.count)")
                break
            }
        }
        let bytes = feed.sink.files.flatMap(\.bytes)
        #expect(!bytes.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(!bytes.contains(0x0D))
        #expect(String(validating: bytes, as: UTF8.self) != nil)
    }

    @Test(
        "references resolve, stop times are grouped and ordered, trips follow departure order",
        arguments: [SampleFeedProfile.tiny, SampleFeedTests.midsize])
    func integrity(profile: SampleFeedProfile) throws {
        let feed = try Generated(profile)
        let agencies = feed.column("agency.txt", "agency_id")
        let stops = feed.tables["stops.txt"]!
        let stopIDs = feed.column("stops.txt", "stop_id")
        let routeIDs = feed.column("routes.txt", "route_id")
        let serviceIDs = feed.column("calendar.txt", "service_id")
        let shapeIDs = feed.column("shapes.txt", "shape_id")
        let tripIDs = feed.column("trips.txt", "trip_id")
        #expect(Set(stopIDs).count == stopIDs.count)
        #expect(Set(tripIDs).count == tripIDs.count)
        #expect(Set(routeIDs).count == routeIDs.count)

        // Stops: stations and platforms, coordinates around Berlin, parents that are stations.
        var stations = Set<String>()
        var platforms = Set<String>()
        for row in stops.rows {
            let stop = stops.record(row)
            if stop["location_type"] == "1" {
                stations.insert(stop["stop_id"]!)
            } else {
                platforms.insert(stop["stop_id"]!)
            }
            let lat = try #require(Self.decimal(stop["stop_lat"]!))
            let lon = try #require(Self.decimal(stop["stop_lon"]!))
            #expect(lat >= 52_300_000 && lat <= 52_700_000 && lon >= 13_100_000 && lon <= 13_700_000, "\(row)")
        }
        for row in stops.rows {
            let stop = stops.record(row)
            if stop["location_type"] == "0" { #expect(stations.contains(stop["parent_station"]!), "\(row)") }
        }
        for agency in feed.column("routes.txt", "agency_id") { #expect(agencies.contains(agency)) }
        for route in feed.column("trips.txt", "route_id") { #expect(routeIDs.contains(route)) }
        for service in feed.column("trips.txt", "service_id") { #expect(serviceIDs.contains(service)) }
        for shape in feed.column("trips.txt", "shape_id") { #expect(shapeIDs.contains(shape)) }
        for service in feed.column("calendar_dates.txt", "service_id") { #expect(serviceIDs.contains(service)) }
        for trip in feed.column("frequencies.txt", "trip_id") { #expect(tripIDs.contains(trip)) }
        for stop in feed.column("transfers.txt", "from_stop_id") + feed.column("transfers.txt", "to_stop_id") {
            #expect(platforms.contains(stop))
        }
        let exceptions = feed.tables["calendar_dates.txt"]!.rows.map { $0[0] + "/" + $0[1] }
        #expect(Set(exceptions).count == exceptions.count, "one exception per service and date")

        // Stop times: grouped by trip, sequences increasing, times and distances non-decreasing.
        let stopTimes = feed.tables["stop_times.txt"]!
        var seenTrips = Set<String>()
        var firstDeparture: [String: Int] = [:]
        var previous: (trip: String, sequence: Int, time: Int, distance: Int)?
        var latest = 0
        for row in stopTimes.rows {
            let (trip, stop) = (row[0], row[3])
            let arrival = try #require(Self.seconds(row[1]), "\(row)")
            let departure = try #require(Self.seconds(row[2]), "\(row)")
            let sequence = try #require(Int(row[4]))
            let distance = try #require(Self.decimal(row[8]))
            #expect(platforms.contains(stop), "\(row)")
            #expect(arrival <= departure, "\(row)")
            latest = max(latest, departure)
            if let previous, previous.trip == trip {
                #expect(sequence > previous.sequence, "\(row)")
                #expect(arrival >= previous.time, "\(row)")
                #expect(distance >= previous.distance, "\(row)")
            } else {
                #expect(!seenTrips.contains(trip), "stop times of trip \(trip) are not grouped")
                #expect(sequence == 0 || sequence == 1, "\(row)")
                seenTrips.insert(trip)
                firstDeparture[trip] = departure
            }
            previous = (trip, sequence, departure, distance)
        }
        #expect(seenTrips == Set(tripIDs), "every trip has stop times, and only those")
        if profile == Self.midsize { #expect(latest >= 24 * 3600, "some trips run past midnight") }

        // Trips in departure order within each route.
        var lastDeparture: [String: Int] = [:]
        let trips = feed.tables["trips.txt"]!
        for row in trips.rows {
            let trip = trips.record(row)
            let departure = firstDeparture[trip["trip_id"]!]!
            #expect(departure >= lastDeparture[trip["route_id"]!, default: 0], "\(row)")
            lastDeparture[trip["route_id"]!] = departure
        }

        // Shapes: sequences increasing, distances non-decreasing within each shape.
        var shape: (id: String, sequence: Int, distance: Int)?
        for row in feed.tables["shapes.txt"]!.rows {
            let sequence = try #require(Int(row[3]))
            let distance = try #require(Self.decimal(row[4]))
            if let shape, shape.id == row[0] {
                #expect(sequence > shape.sequence && distance >= shape.distance, "\(row)")
            }
            shape = (row[0], sequence, distance)
        }
    }

    @Test("quoting: names with commas and quotes round-trip")
    func quoting() throws {
        let feed = try Generated(Self.midsize)
        let names = feed.column("stops.txt", "stop_name")
        #expect(names.contains { $0.contains(",") })
        #expect(names.contains { $0.contains("\"") })
        #expect(feed.column("agency.txt", "agency_name").contains("Verkehrsbetrieb Nord, GmbH"))
        #expect(
            feed.column("agency.txt", "agency_name").contains("Regionale Verkehrsgesellschaft \"Dahme-Spreewald\" mbH"))
    }

    // MARK: Counts

    @Test(
        "statistics count the rows written; expectedRecords predicts them",
        arguments: [SampleFeedProfile.tiny, SampleFeedTests.midsize])
    func statistics(profile: SampleFeedProfile) throws {
        let feed = try Generated(profile)
        for file in feed.sink.files {
            let lines = file.bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            #expect(feed.statistics.records[file.name] == lines - 1, "\(file.name)")
            #expect(feed.statistics.fileBytes[file.name] == file.bytes.count, "\(file.name)")
            #expect(file.bytes.last == 0x0A, "\(file.name) ends with a newline")
        }
        #expect(feed.statistics.bytes == feed.sink.byteCount)
        #expect(SampleFeedGenerator.expectedRecords(for: profile) == feed.statistics.records)
        for name in SampleFeedGenerator.fileNames where name != "feed_info.txt" && name != "frequencies.txt" {
            #expect(feed.statistics.records[name, default: 0] > 0, "\(name) has rows")
        }
    }

    @Test("profile sizes")
    func profileSizes() async throws {
        let tiny = SampleFeedGenerator.expectedRecords(for: .tiny)["stop_times.txt"]!
        #expect((1_500...3_000).contains(tiny), "tiny: \(tiny)")
        let small = SampleFeedGenerator.expectedRecords(for: .small)["stop_times.txt"]!
        #expect((85_000...115_000).contains(small), "small: \(small)")
        // Seconds of work in a debug build: off the cooperative pool, which the tests running beside this one need.
        let vbb = try await BlockingExecutor.shared.run { SampleFeedGenerator.expectedRecords(for: .vbb) }
        #expect((5_500_000...6_500_000).contains(vbb["stop_times.txt"]!), "vbb: \(vbb)")
        #expect((35_000...45_000).contains(vbb["stops.txt"]!), "vbb: \(vbb)")
        #expect(vbb["routes.txt"] == 1_300)
        #expect((200_000...300_000).contains(vbb["trips.txt"]!), "vbb: \(vbb)")
        #expect((300_000...1_000_000).contains(vbb["shapes.txt"]!), "vbb: \(vbb)")
        for count in [2_000, 100_000, 1_000_000] {
            let scaled = SampleFeedProfile.stopTimes(count, seed: 7)
            let records = try await BlockingExecutor.shared.run {
                SampleFeedGenerator.expectedRecords(for: scaled)["stop_times.txt"]!
            }
            let tolerance = count >= 100_000 ? count / 20 : count / 4
            #expect(abs(records - count) <= tolerance, "stopTimes(\(count)): \(records)")
            #expect(scaled.seed == 7)
        }
    }

    @Test("named profiles")
    func named() {
        #expect(SampleFeedProfile.all.map(\.name) == ["tiny", "small", "medium", "vbb", "large"])
        #expect(SampleFeedProfile.named("vbb") == .vbb)
        #expect(SampleFeedProfile.named("Small") == .small)
        #expect(SampleFeedProfile.named("huge") == nil)
        for profile in SampleFeedProfile.all { #expect(profile.validationFailure == nil, "\(profile.name)") }
        var broken = SampleFeedProfile.tiny
        broken.stopsPerTrip = 1...3
        #expect(broken.validationFailure != nil)
    }

    // MARK: Streaming

    @Test("output is streamed in bounded chunks; a throwing sink stops generation")
    func streaming() throws {
        var chunks = ChunkSink()
        _ = try SampleFeedGenerator.generate(Self.midsize, into: &chunks)
        #expect(chunks.largest <= 2 * 64 * 1024)
        #expect(chunks.writes > 10)

        var failing = ChunkSink(failAfterWrites: 3)
        #expect(throws: ChunkSink.Stop.self) { _ = try SampleFeedGenerator.generate(Self.midsize, into: &failing) }
        #expect(failing.writes == 3)
        #expect(!failing.finished)
    }

    // MARK: CSVTextWriter

    @Test("CSVTextWriter formats numbers, times and fields")
    func writer() {
        var writer = CSVTextWriter(drainThreshold: 8)
        writer.append(0)
        writer.appendComma()
        writer.append(-42)
        writer.appendComma()
        writer.append(Int.min)
        writer.appendComma()
        writer.append(UInt64.max)
        writer.appendComma()
        writer.append(7, minimumDigits: 6)
        writer.appendComma()
        writer.append(fixedPoint: 525_200_123, fractionDigits: 7)
        writer.appendComma()
        writer.append(fixedPoint: -5, fractionDigits: 1)
        writer.appendComma()
        writer.append(fixedPoint: 12, fractionDigits: 0)
        writer.appendComma()
        writer.append(time: 0)
        writer.appendComma()
        writer.append(time: 25 * 3600 + 13 * 60 + 5)
        writer.appendComma()
        writer.append(time: 123 * 3600 + 59)
        writer.appendComma()
        writer.append(field: "plain")
        writer.appendComma()
        writer.append(field: "a, b")
        writer.appendComma()
        writer.append(field: "Gasthaus \"Zum Anker\"")
        writer.appendComma()
        writer.append(field: "two\nlines")
        writer.appendComma()
        writer.append(field: "Straße")
        writer.appendNewline()
        let full = writer.shouldDrain
        #expect(full)
        var text = ""
        writer.drain { text = String(decoding: $0, as: UTF8.self) }
        #expect(
            text == "0,-42,-9223372036854775808,18446744073709551615,000007,52.5200123,-0.5,12,00:00:00,25:13:05,"
                + "123:00:59,plain,\"a, b\",\"Gasthaus \"\"Zum Anker\"\"\",\"two\nlines\",Straße\n")
        let (count, drained) = (writer.count, !writer.shouldDrain)
        #expect(count == 0 && drained)
    }

    // MARK: Helpers

    static let headers: [String: [String]] = [
        "agency.txt": ["agency_id", "agency_name", "agency_url", "agency_timezone", "agency_lang", "agency_phone"],
        "stops.txt": [
            "stop_id", "stop_code", "stop_name", "stop_lat", "stop_lon", "location_type", "parent_station",
            "wheelchair_boarding", "platform_code",
        ],
        "routes.txt": [
            "route_id", "agency_id", "route_short_name", "route_long_name", "route_type", "route_color",
            "route_text_color",
        ],
        "trips.txt": [
            "route_id", "service_id", "trip_id", "trip_headsign", "direction_id", "block_id", "shape_id",
            "wheelchair_accessible", "bikes_allowed",
        ],
        "stop_times.txt": [
            "trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence", "pickup_type",
            "drop_off_type", "stop_headsign", "shape_dist_traveled",
        ],
        "calendar.txt": [
            "service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
            "start_date", "end_date",
        ],
        "calendar_dates.txt": ["service_id", "date", "exception_type"],
        "shapes.txt": ["shape_id", "shape_pt_lat", "shape_pt_lon", "shape_pt_sequence", "shape_dist_traveled"],
        "frequencies.txt": ["trip_id", "start_time", "end_time", "headway_secs", "exact_times"],
        "transfers.txt": ["from_stop_id", "to_stop_id", "transfer_type", "min_transfer_time"],
        "feed_info.txt": [
            "feed_publisher_name", "feed_publisher_url", "feed_lang", "feed_start_date", "feed_end_date",
            "feed_version",
        ],
    ]

    /// `HH:MM:SS` (two or more hour digits) in seconds, or nil.
    static func seconds(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count >= 2, parts[1].count == 2, parts[2].count == 2,
            let hours = Int(parts[0]), let minutes = Int(parts[1]), let seconds = Int(parts[2]),
            minutes < 60, seconds < 60
        else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// A decimal as an integer of millionths (`52.5200123` → 52_520_012), or nil.
    static func decimal(_ text: String) -> Int? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = Int(parts[0]) else { return nil }
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.allSatisfy(\.isNumber) else { return nil }
        fraction = String((fraction + "000000").prefix(6))
        return whole * 1_000_000 + Int(fraction)!
    }
}

/// A generated feed, parsed.
private struct Generated {
    var sink = SampleFeedMemorySink()
    var statistics: SampleFeedStatistics
    var tables: [String: Table] = [:]
    /// FNV-1a over every file's name and bytes, in order.
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325

    init(_ profile: SampleFeedProfile) throws {
        statistics = try SampleFeedGenerator.generate(profile, into: &sink)
        for file in sink.files {
            for byte in Array(file.name.utf8) + [0] + file.bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
            tables[file.name] = try Table(file.bytes)
        }
    }

    /// All values of one column.
    func column(_ file: String, _ name: String) -> [String] {
        let table = tables[file]!
        let index = table.header.firstIndex(of: name)!
        return table.rows.map { $0[index] }
    }
}

/// A CSV file split into fields (RFC 4180: quoted fields may hold commas, quotes and newlines).
private struct Table {
    var header: [String]
    var rows: [[String]]

    struct Malformed: Error {}

    init(_ bytes: [UInt8]) throws {
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") {
                guard field.isEmpty else { throw Malformed() }
                quoted = true
            } else if byte == UInt8(ascii: ",") {
                record.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            } else if byte == 0x0A {
                record.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
                records.append(record)
                record.removeAll(keepingCapacity: true)
            } else {
                field.append(byte)
            }
            index += 1
        }
        guard !quoted, field.isEmpty, record.isEmpty, !records.isEmpty else { throw Malformed() }
        header = records[0]
        rows = Array(records.dropFirst())
    }

    /// A row's fields by column name.
    func record(_ row: [String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: zip(header, row))
    }
}

/// Records chunk sizes; optionally throws after some writes.
private struct ChunkSink: SampleFeedSink {
    struct Stop: Error {}
    var failAfterWrites = Int.max
    var writes = 0
    var largest = 0
    var finished = false

    mutating func beginFile(_ name: String) throws {}
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        if writes == failAfterWrites { throw Stop() }
        writes += 1
        largest = max(largest, bytes.count)
    }
    mutating func endFile() throws {}
    mutating func finish() throws { finished = true }
}
