import Foundation
import Testing

@testable import SwitchyardSampleFeeds
@_spi(ImportDestinations) @testable import SwitchyardTransit

/// The shapes real feeds have that mainstream GTFS consumers read and an importer must not lose: each fixture is a
/// minimal reproduction of a feed seen in the wild.
@Suite("Importing the shapes of real feeds: nothing a mainstream consumer reads is lost")
struct RealFeedShapesTests {
    /// The canonical GTFS sample feed's shape: `stop_times.txt` rows that leave trailing optional fields out.
    static let sampleFeed: [String: String] = [
        "agency.txt":
            "agency_id,agency_name,agency_url,agency_timezone\nDTA,Demo Transit Authority,http://google.com,America/Los_Angeles\n",
        "stops.txt": """
        stop_id,stop_name,stop_desc,stop_lat,stop_lon,zone_id,stop_url
        FUR_CREEK_RES,Furnace Creek Resort (Demo),,36.425288,-117.133162,,
        BEATTY_AIRPORT,Nye County Airport (Demo),,36.868446,-116.784582,,
        AMV,Amargosa Valley (Demo),,36.641496,-116.40094,,

        """,
        "routes.txt":
            "route_id,agency_id,route_short_name,route_long_name,route_desc,route_type,route_url,route_color,route_text_color\nAAMV,DTA,50,Airport - Amargosa Valley,,3,,,\n",
        "trips.txt":
            "route_id,service_id,trip_id,trip_headsign,direction_id,block_id,shape_id\nAAMV,WE,AAMV1,to Amargosa Valley,0,,\nAAMV,WE,AAMV2,to Airport,1,,\n",
        "stop_times.txt": """
        trip_id,arrival_time,departure_time,stop_id,stop_sequence,stop_headsign,pickup_type,drop_off_time,shape_dist_traveled
        AAMV1,8:00:00,8:00:00,BEATTY_AIRPORT,1
        AAMV1,9:00:00,9:00:00,AMV,2
        AAMV2,10:00:00,10:00:00,AMV,1
        AAMV2,11:00:00,11:00:00,BEATTY_AIRPORT,2,to Airport,0,0,1.5

        """,
        "calendar.txt":
            "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nWE,0,0,0,0,0,1,1,20070101,20101231\n",
    ]

    private func write(_ files: [String: [UInt8]], to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, bytes) in files {
            let path = folder + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
    }

    private func sample(replacing replaced: [String: [UInt8]] = [:]) -> [String: [UInt8]] {
        var files = Self.sampleFeed.mapValues { Array($0.utf8) }
        for (name, bytes) in replaced { files[name] = bytes }
        return files
    }

    private func run(_ folder: String, _ database: String, _ options: ImportOptions = ImportOptions()) async throws
        -> ImportSummary
    {
        try await GTFSImporter(feed: try GTFSFeed.open(folder), database: database, options: options).run()
    }

    @Test(
        "the canonical GTFS sample feed imports whole from a zip: 28 of 28 stop_times, 13 warnings, every check passing"
    )
    func canonicalSampleFeed() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let writer = try ZipWriter(path: scratch.file("sample-feed.zip"))
        for (name, text) in CanonicalSampleFeed.files.sorted(by: { $0.key < $1.key }) {
            try writer.beginEntry(name)
            try writer.write(Array(text.utf8))
            try writer.endEntry()
        }
        try writer.finish()
        let summary = try await run(scratch.file("sample-feed.zip"), scratch.file("db.sqlite"))
        #expect(summary.state == .complete && summary.records == 74 && summary.skipped == 0 && summary.warnings == 13)
        let stopTimes = try #require(summary.files.first { $0.name == "stop_times.txt" })
        #expect(stopTimes.imported == 28)
        #expect(stopTimes.counts.map(\.kind) == [.missingFields] && stopTimes.counts.first?.example?.line == 17)
        #expect(summary.checks.allSatisfy { $0.count == 0 })
    }

    @Test("short stop_times rows are imported, with a warning each; the verdict is not 'all pass'")
    func shortRows() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try write(sample(), to: scratch.file("feed"))
        let summary = try await run(scratch.file("feed"), scratch.file("db.sqlite"))
        let stopTimes = try #require(summary.files.first { $0.name == "stop_times.txt" })
        #expect(stopTimes.records == 4 && stopTimes.imported == 4 && stopTimes.skipped == 0 && stopTimes.warnings == 3)
        #expect(stopTimes.counts.map(\.kind) == [.missingFields] && stopTimes.counts.first?.count == 3)
        #expect(summary.skipped == 0 && summary.warnings == 3)
        let rows = try SQLiteConnection(path: scratch.file("db.sqlite"), readOnly: true)
            .rows("SELECT trip_id, stop_sequence, stop_headsign FROM stop_times ORDER BY rowid")
        #expect(rows.count == 4 && rows[0] == [.text("AAMV1"), .integer(1), .null])
    }

    @Test("a feed re-exported by pandas (integers written as 2.0) loses no stop time; 2.5 is still no integer")
    func pandasIntegers() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence,pickup_type
            AAMV1,8:00:00,8:00:00,BEATTY_AIRPORT,1.0,
            AAMV1,9:00:00,9:00:00,AMV,2.0,0.0
            AAMV2,10:00:00,10:00:00,AMV, 1. ,
            AAMV2,11:00:00,11:00:00,BEATTY_AIRPORT,2.5,1.0

            """
        // A decimal in a column before a required value that fails: the record is skipped, the decimal not counted.
        let trips = """
            route_id,service_id,direction_id,trip_id
            AAMV,WE,0.0,AAMV1
            AAMV,WE,1.0,AAMV2
            AAMV,WE,1.0,

            """
        try write(
            sample(replacing: ["stop_times.txt": Array(stopTimes.utf8), "trips.txt": Array(trips.utf8)]),
            to: scratch.file("feed"))
        let summary = try await run(scratch.file("feed"), scratch.file("db.sqlite"))
        let file = try #require(summary.files.first { $0.name == "stop_times.txt" })
        #expect(file.imported == 3 && file.skipped == 1)
        #expect(file.problems.map(\.reason) == ["'2.5' is not an integer"])
        let decimals = try #require(file.counts.first { $0.kind == .decimalInteger })
        #expect(decimals.count == 4 && decimals.example?.reason == "'1.0' read as an integer")
        let rows = try SQLiteConnection(path: scratch.file("db.sqlite"), readOnly: true)
            .rows("SELECT stop_sequence, pickup_type FROM stop_times ORDER BY rowid")
        #expect(rows == [[.integer(1), .null], [.integer(2), .integer(0)], [.integer(1), .null]])
        let tripsFile = try #require(summary.files.first { $0.name == "trips.txt" })
        #expect(tripsFile.imported == 2 && tripsFile.skipped == 1)
        #expect(tripsFile.counts.first { $0.kind == .decimalInteger }?.count == 2)
    }

    @Test("a hand-made feed's times without seconds (8:05) keep their schedule; 8:5 is still no time")
    func timesWithoutSeconds() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        // A small operator's timetable typed by hand: every time H:MM, CRLF line ends.
        let stopTimes = """
            trip_id,arrival_time,departure_time,stop_id,stop_sequence\r
            AAMV1,8:00,8:00,BEATTY_AIRPORT,1\r
            AAMV1,09:05,9:05:30,AMV,2\r
            AAMV2,25:10,25:10,AMV,1\r
            AAMV2,11:5,11:05,BEATTY_AIRPORT,2\r

            """
        try write(sample(replacing: ["stop_times.txt": Array(stopTimes.utf8)]), to: scratch.file("feed"))
        let summary = try await run(scratch.file("feed"), scratch.file("db.sqlite"))
        let file = try #require(summary.files.first { $0.name == "stop_times.txt" })
        #expect(file.imported == 4 && file.skipped == 0)
        let short = try #require(file.counts.first { $0.kind == .timeWithoutSeconds })
        #expect(short.count == 6 && short.example?.reason == "'8:00' read as 8:00:00")
        #expect(short.example?.line == 2 && short.example?.field == "arrival_time")
        let invalid = try #require(file.counts.first { $0.kind == .invalidOptionalValue })
        #expect(invalid.count == 1 && invalid.example?.reason.hasPrefix("'11:5' is not a time") == true)
        let rows = try SQLiteConnection(path: scratch.file("db.sqlite"), readOnly: true)
            .rows("SELECT arrival_time, departure_time FROM stop_times ORDER BY rowid")
        #expect(
            rows == [
                [.integer(28800), .integer(28800)], [.integer(32700), .integer(32730)],
                [.integer(90600), .integer(90600)], [.null, .integer(39900)],
            ])
    }

    @Test("a Windows-1252 feed loses no stop: values are decoded, counted once per file; --encoding decides")
    func windows1252Feed() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        // A French regional feed's shape: accented names in Windows-1252 (é = 0xE9, è = 0xE8, œ = 0x9C).
        var stops = Array("stop_id,stop_name,stop_lat,stop_lon\n".utf8)
        stops +=
            Array("FUR_CREEK_RES,Gare SNCF,48.1,2.1\nBEATTY_AIRPORT,H".utf8) + [0xF4]
            + Array("tel de Ville,48.2,2.2\n".utf8)
        stops +=
            Array("AMV,Saint-".utf8) + [0xC9, 0x74, 0x69, 0x65, 0x6E, 0x6E, 0x65, 0x20, 0x9C, 0x75, 0x76, 0x72, 0x65]
            + Array(",48.3,2.3\n".utf8)
        try write(sample(replacing: ["stops.txt": stops]), to: scratch.file("feed"))
        let summary = try await run(scratch.file("feed"), scratch.file("auto.sqlite"))
        let file = try #require(summary.files.first { $0.name == "stops.txt" })
        #expect(file.imported == 3 && file.skipped == 0)
        #expect(file.counts.first { $0.kind == .notUTF8 }?.count == 2)
        let names = try SQLiteConnection(path: scratch.file("auto.sqlite"), readOnly: true)
            .rows("SELECT stop_name FROM stops ORDER BY rowid").map { $0[0].text ?? "" }
        #expect(names == ["Gare SNCF", "Hôtel de Ville", "Saint-Étienne œuvre"])

        // UTF-8 forced: the two records are skipped, each with its line.
        let strict = try await run(
            scratch.file("feed"), scratch.file("utf8.sqlite"), ImportOptions(encoding: .utf8))
        let strictStops = try #require(strict.files.first { $0.name == "stops.txt" })
        #expect(strictStops.imported == 1 && strictStops.skipped == 2)
        #expect(
            strictStops.problems.map(\.line) == [3, 4]
                && strictStops.problems.allSatisfy { $0.reason == "invalid UTF-8" })
        // Latin-1 forced: 0x9C is a C1 control there, not œ.
        _ = try await run(scratch.file("feed"), scratch.file("latin1.sqlite"), ImportOptions(encoding: .latin1))
        let latin1 = try SQLiteConnection(path: scratch.file("latin1.sqlite"), readOnly: true)
            .rows("SELECT stop_name FROM stops WHERE stop_id = 'AMV'")
        #expect(latin1 == [[.text("Saint-Étienne \u{9C}uvre")]])
    }

    @Test("a column name that is not UTF-8 becomes a usable column with a warning, never a failed import")
    func headerNotUTF8() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        var stops = Array(
            "stop_id,stop_name,stop_lat,stop_lon,zone_id,stop_url,location_type,parent_station,stop_timezone,wheelchair_boarding,d"
                .utf8)
        stops += [0xE9] + Array("signation\n".utf8)
        stops += Array(
            "FUR_CREEK_RES,A,36.4,-117.1,,,,,,,x\nBEATTY_AIRPORT,B,36.8,-116.7,,,,,,,y\nAMV,C,36.6,-116.4,,,,,,,z\n"
                .utf8)
        try write(sample(replacing: ["stops.txt": stops]), to: scratch.file("feed"))
        for encoding in [ImportOptions.Encoding.automatic, .utf8] {
            let database = scratch.file("\(encoding.rawValue).sqlite")
            let summary = try await run(scratch.file("feed"), database, ImportOptions(encoding: encoding))
            #expect(summary.state == .complete)
            let file = try #require(summary.files.first { $0.name == "stops.txt" })
            #expect(file.imported == 3 && file.counts.first { $0.kind == .headerEncoding }?.count == 1)
            let column = encoding == .utf8 ? "d\u{FFFD}signation" : "désignation"
            let values = try SQLiteConnection(path: database, readOnly: true)
                .rows("SELECT \(quotedIdentifier(column)) FROM stops ORDER BY rowid")
            #expect(values == [[.text("x")], [.text("y")], [.text("z")]])
        }
    }

    @Test("UTF-16 is refused naming the file and the encoding")
    func utf16() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let text = Self.sampleFeed["agency.txt"]!
        let units: [UInt8] = text.utf16.flatMap { unit -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let utf16: [UInt8] = [0xFF, 0xFE] + units
        try write(sample(replacing: ["agency.txt": utf16]), to: scratch.file("feed"))
        await #expect {
            _ = try await run(scratch.file("feed"), scratch.file("db.sqlite"))
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.kind == .unsupportedEncoding && error.line == 1
                && error.file?.hasSuffix("feed/agency.txt") == true
                && error.message.contains("the input is UTF-16LE")
        }
    }

    @Test("file names in another case are read, with a warning; a feed can also be two levels down")
    func fileNameCase() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        var files = sample()
        files["STOPS.TXT"] = files.removeValue(forKey: "stops.txt")
        try write(
            Dictionary(uniqueKeysWithValues: files.map { ("outer/inner/" + $0.key, $0.value) }),
            to: scratch.file("feed"))
        let feed = try GTFSFeed.open(scratch.file("feed"))
        #expect(feed.folder == "outer/inner/" && feed.renamedFiles == [.stops: "outer/inner/STOPS.TXT"])
        let summary = try await run(scratch.file("feed"), scratch.file("db.sqlite"))
        let stops = try #require(summary.files.first { $0.name == "stops.txt" })
        #expect(stops.imported == 3)
        #expect(stops.counts.first?.kind == .fileNameCase)
        #expect(
            stops.counts.first?.example?.reason == "read from outer/inner/STOPS.TXT: GTFS names its files in lower case"
        )
    }

    @Test("GTFS files in two folders: the error names both, and --folder chooses")
    func twoFolders() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        var files: [String: [UInt8]] = [:]
        for (name, bytes) in sample() {
            files["north/" + name] = bytes
            files["south/" + name] = bytes
        }
        try write(files, to: scratch.file("feed"))
        #expect { try GTFSFeed.open(scratch.file("feed")) } throws: { error in
            "\(error)".hasSuffix("feed: GTFS files are in 2 folders (north/, south/): choose one with --folder")
        }
        #expect(try GTFSFeed.open(scratch.file("feed"), folder: "south").folder == "south/")
        // A copy at the top level as well: the top level wins unless --folder chooses; the other copies are listed.
        for (name, bytes) in sample() { files[name] = bytes }
        try write(files, to: scratch.file("feed"))
        #expect(try GTFSFeed.open(scratch.file("feed")).folder == "")
        let summary = try await GTFSImporter(
            feed: try GTFSFeed.open(scratch.file("feed"), folder: "north/"), database: scratch.file("db.sqlite")
        ).run()
        #expect(summary.state == .complete && summary.records == 12)
        #expect(summary.ignoredFiles.contains("stops.txt (outside the feed's folder, north/)"))
        #expect { try GTFSFeed.open(scratch.file("feed"), folder: "east") } throws: { error in
            "\(error)".hasSuffix("--folder east/ holds no GTFS file (those that do: the top level, north/, south/)")
        }
    }

    @Test("a single .txt is not a feed, and an empty required file is treated as a missing one")
    func notAFeedAndEmptyFiles() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try write(sample(), to: scratch.file("feed"))
        #expect { try GTFSFeed.open(scratch.file("feed/stops.txt")) } throws: { error in
            "\(error)".hasSuffix(
                "stops.txt: a single GTFS file (stops.txt): a feed is a .zip archive or a folder of GTFS .txt files (give the folder)"
            )
        }
        try write(sample(replacing: ["stops.txt": []]), to: scratch.file("empty"))
        #expect { try GTFSFeed.open(scratch.file("empty")) } throws: { error in
            (error as? ImportError)?.kind == .missingFile
                && "\(error)".hasSuffix("not a complete GTFS feed: empty (0 bytes): stops.txt")
        }
        // Blank lines only: no header, found while reading; the same treatment.
        try write(sample(replacing: ["stops.txt": Array("\n\n".utf8)]), to: scratch.file("blank"))
        await #expect {
            _ = try await run(scratch.file("blank"), scratch.file("blank.sqlite"))
        } throws: { error in
            (error as? ImportError)?.kind == .missingFile
                && "\(error)".contains("stops.txt: the file is empty (no header line)")
        }
        // An empty optional file: an empty table, with a warning.
        try write(sample(replacing: ["shapes.txt": Array("\n".utf8)]), to: scratch.file("optional"))
        let summary = try await run(scratch.file("optional"), scratch.file("optional.sqlite"))
        let shapes = try #require(summary.files.first { $0.name == "shapes.txt" })
        #expect(shapes.records == 0 && shapes.isComplete && shapes.counts.map(\.kind) == [.emptyFile])
    }

    @Test("--max-skipped turns a lossy import into a failure, by count or by fraction")
    func maximumSkipped() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let stopTimes = Self.sampleFeed["stop_times.txt"]! + ",9:00:00,9:00:00,AMV,3\n"  // no trip_id: skipped
        try write(sample(replacing: ["stop_times.txt": Array(stopTimes.utf8)]), to: scratch.file("feed"))
        let lossy = try await run(
            scratch.file("feed"), scratch.file("a.sqlite"), ImportOptions(maximumSkipped: .count(1)))
        #expect(lossy.state == .complete && lossy.skipped == 1)
        for (index, limit) in [ImportOptions.SkippedLimit.count(0), .fraction(0.01)].enumerated() {
            let database = scratch.file("\(index).sqlite")
            await #expect {
                _ = try await run(scratch.file("feed"), database, ImportOptions(maximumSkipped: limit))
            } throws: { error in
                guard let error = error as? ImportError else { return false }
                return error.kind == .tooManySkipped
                    && error.message.contains("1 of 13 records were skipped (stop_times.txt 1)")
            }
            #expect(try ImportStatus.read(database).state == .failed)
        }
    }

    #if SWITCHYARD_TEST_HOOKS  // uses a test hook of the library (debug builds only)
        @Test("a resume continues with the encoding and batch size the import began with, whatever it is given")
        func resumeKeepsEncoding() async throws {
            let scratch = ScratchFolder()
            defer { scratch.remove() }
            var stops = Array("stop_id,stop_name,stop_lat,stop_lon\n".utf8)
            for (id, code) in [("FUR_CREEK_RES", 0x9C), ("BEATTY_AIRPORT", 0xE9), ("AMV", 0xE8)] {
                stops += Array("\(id),x".utf8) + [UInt8(code)] + Array(",1,1\n".utf8)
            }
            try write(sample(replacing: ["stops.txt": stops]), to: scratch.file("feed"))
            let reference = try await run(
                scratch.file("feed"), scratch.file("reference.sqlite"), ImportOptions(batchSize: 2, encoding: .latin1))
            #expect(reference.state == .complete)
            var options = ImportOptions(batchSize: 2, encoding: .latin1)
            options.interruptAfterBatches = 2  // agency, then the first batch of stops
            let first = try await run(scratch.file("feed"), scratch.file("db.sqlite"), options)
            #expect(first.state == .interrupted)
            let resumed = try await run(scratch.file("feed"), scratch.file("db.sqlite"), ImportOptions(mode: .resume))
            #expect(resumed.state == .complete)
            #expect(try DatabaseContent(scratch.file("db.sqlite")) == DatabaseContent(scratch.file("reference.sqlite")))
        }
    #endif

    @Test(
        "a stray quote in a large stop_times.txt: the same diagnosis with and without --strict, and only its line is lost"
    )
    func strayQuoteInALargeFile() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        // Over the 1 MiB record limit after the quote, and no quote anywhere after it.
        var text =
            "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nAAMV1,8:00:00,8:00:00,\"BEATTY_AIRPORT,1\n"
        let filler = (2...30_000).map { "AAMV1,9:00:00,9:00:00,AMV,\($0)" }.joined(separator: "\n")
        text += filler + "\n"
        try write(sample(replacing: ["stop_times.txt": Array(text.utf8)]), to: scratch.file("feed"))
        let summary = try await run(scratch.file("feed"), scratch.file("db.sqlite"))
        let stopTimes = try #require(summary.files.first { $0.name == "stop_times.txt" })
        #expect(stopTimes.records == 30_000 && stopTimes.imported == 29_999 && stopTimes.skipped == 1)
        let problem = try #require(stopTimes.problems.first)
        #expect(problem.line == 2 && problem.field == "stop_id" && problem.kind == .malformedRecord)
        #expect(
            problem.reason
                == "quote not closed on its line (a stray quote?); the record was skipped to the end of that line and reading went on at line 3"
        )
        await #expect {
            _ = try await run(scratch.file("feed"), scratch.file("strict.sqlite"), ImportOptions(strict: true))
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.kind == .malformedRecord && error.line == 2
                && error.reason == "field 4 (stop_id): quote not closed on its line (a stray quote?) (--strict)"
        }
    }

}
