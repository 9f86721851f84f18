import Foundation
import Testing

@testable import SwitchyardSampleFeeds
@_spi(ImportDestinations) @testable import SwitchyardTransit

@Suite("Importing a GTFS feed")
struct GTFSImporterTests {
    private func importFeed(_ path: String, into database: String, options: ImportOptions = ImportOptions())
        async throws -> ImportSummary
    {
        let feed = try GTFSFeed.open(path)
        return try await GTFSImporter(feed: feed, database: database, options: options).run()
    }

    @Test(
        "every quirk of the fixture feed, from a folder and from a zip with a sub-folder", arguments: ["folder", "zip"])
    func quirks(form: String) async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let feedPath: String
        if form == "zip" {
            feedPath = scratch.file("feed.zip")
            try QuirksFeed.writeZip(feedPath, folder: "gtfs")
        } else {
            feedPath = scratch.file("feed")
            try QuirksFeed.writeFolder(feedPath)
        }
        let database = scratch.file("feed.sqlite")
        let summary = try await importFeed(feedPath, into: database, options: ImportOptions(batchSize: 2))
        #expect(summary.state == .complete)
        // Row counts equal the records of each file minus the reported bad records.
        for (name, expected) in QuirksFeed.expected {
            let file = try #require(summary.files.first { $0.name == name }, "\(name) is in the summary")
            #expect(file.records == expected.records, "\(name) records")
            #expect(file.skipped == expected.skipped, "\(name) skipped")
            #expect(file.warnings == expected.warnings, "\(name) warnings")
            #expect(file.imported == expected.records - expected.skipped, "\(name) imported")
            let table = String(name.dropLast(4))
            let rows = try SQLiteConnection(path: database, readOnly: true).rows("SELECT count(*) FROM \(table)")
            #expect(rows.first?.first?.integer == Int64(file.imported), "\(table) rows")
        }
        #expect(
            summary.ignoredFiles.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.sorted() == [
                "locations.geojson", "notes.txt",
            ])
        let connection = try SQLiteConnection(path: database, readOnly: true)
        // BOM stripped: the first column is agency_id.
        #expect(
            try connection.rows("SELECT agency_id, agency_name FROM agency") == [
                [.text("A1"), .text("Verkehrsbetrieb Nord, GmbH")]
            ])
        // Times as seconds: one-digit hours, hours past 24.
        let times = try connection.rows("SELECT trip_id, stop_sequence, arrival_time FROM stop_times ORDER BY rowid")
        let firstTime: [SQLiteValue] = [.text("T1"), .integer(1), .integer(29100)]  // 8:05:00
        let pastMidnight: [SQLiteValue] = [.text("T2"), .integer(3), .integer(90780)]  // 25:13:00
        #expect(times.first == firstTime)
        #expect(times.contains(pastMidnight))
        // Extra columns kept as text; CRLF and quoted commas handled.
        #expect(try connection.rows("SELECT x_network_color FROM routes ORDER BY rowid") == [[.text("red")], [.null]])
        #expect(
            try connection.rows("SELECT stop_name FROM stops WHERE stop_id = 'S1'") == [[.text("Alexanderplatz, Bhf")]])
        // Skipped records are reported with line, field and reason: only a missing or invalid required value.
        let stopTimes = try #require(summary.files.first { $0.name == "stop_times.txt" })
        #expect(stopTimes.problems.map(\.line) == [8, 9])
        #expect(stopTimes.problems[0].field == "stop_sequence" && stopTimes.problems[0].kind == .missingValue)
        #expect(stopTimes.problems[0].reason == "required value missing: the record has 4 of 5 fields")
        #expect(stopTimes.problems[1].field == "trip_id" && stopTimes.problems[1].reason == "required value is empty")
        // An invalid optional value: NULL, with a warning that quotes it.
        #expect(
            try connection.rows(
                "SELECT arrival_time, departure_time FROM stop_times WHERE trip_id = 'T3' AND stop_sequence = 1")
                == [[.null, .integer(29100)]])
        let badTime = try #require(stopTimes.counts.first { $0.kind == .invalidOptionalValue })
        #expect(badTime.count == 1 && badTime.example?.line == 7 && badTime.example?.field == "arrival_time")
        #expect(badTime.example?.reason == "'8:5:00' is not a time (H:MM:SS); stored as NULL")
        let calendar = try #require(summary.files.first { $0.name == "calendar.txt" })
        #expect(calendar.problems.first?.reason == "'00000101' is not a date (YYYYMMDD): no such day")
        // Tolerated quirks: imported, each with a warning.
        #expect(try connection.rows("SELECT agency_fare_url FROM agency") == [[.text("https://example.org/fares")]])
        #expect(
            try connection.rows("SELECT stop_name, stop_lat FROM stops WHERE stop_id IN ('S3', 'S4') ORDER BY stop_id")
                == [[.text("Nowhere"), .null], [.text("Café Kranzler"), .null]])
        #expect(
            try connection.rows("SELECT route_long_name FROM routes ORDER BY rowid")
                == [[.text("Pankow – Ruhleben (U2)")], [.text("Bus 100")]])
        #expect(
            try connection.rows("SELECT trip_id, block_id, shape_id FROM trips ORDER BY rowid")
                == [[.text("T1"), .null, .null], [.text("T2"), .null, .null], [.text("T3"), .null, .null]])
        func kinds(_ name: String) throws -> [ImportProblem.Kind: Int] {
            let file = try #require(summary.files.first { $0.name == name })
            return Dictionary(
                uniqueKeysWithValues: file.counts.filter { $0.kind.severity == .warning }.map { ($0.kind, $0.count) })
        }
        #expect(try kinds("agency.txt") == [.spaceAfterQuote: 1])
        #expect(try kinds("stops.txt") == [.invalidOptionalValue: 2, .notUTF8: 1])
        #expect(try kinds("routes.txt") == [.textAfterQuote: 1, .nulBytes: 1])
        #expect(try kinds("trips.txt") == [.missingFields: 1, .extraFields: 2])
        let trips = try #require(summary.files.first { $0.name == "trips.txt" })
        let extra = try connection.rows(
            "SELECT line, reason FROM _switchyard_import_problems WHERE file = 'trips.txt' AND kind = 'extra_fields' ORDER BY line"
        )
        #expect(
            extra == [
                [.integer(3), .text("1 empty field past the header's 7 (ignored)")],
                [.integer(4), .text("1 field past the header's 7; not imported: 'oops'")],
            ])
        #expect(
            trips.counts.first { $0.kind == .missingFields }?.example?.reason
                == "5 of 7 fields; the missing trailing fields read as empty")
        let notUTF8 = try connection.rows(
            "SELECT line, field, severity, reason FROM _switchyard_import_problems WHERE kind = 'not_utf8'")
        #expect(
            notUTF8 == [
                [
                    .integer(7), .text("stop_name"), .text("warning"),
                    .text("not UTF-8; read as Windows-1252: 'Café Kranzler'"),
                ]
            ])
        // Checks report duplicates and dangling references without enforcing them.
        let checks = Dictionary(uniqueKeysWithValues: summary.checks.map { ($0.name, $0) })
        #expect(checks["duplicate stops.stop_id"]?.count == 1)
        #expect(checks["duplicate stops.stop_id"]?.examples == ["S2"])
        #expect(checks["duplicate stop_times.trip_id+stop_sequence"]?.count == 1)
        #expect(checks["duplicate stop_times.trip_id+stop_sequence"]?.examples == ["T3/2"])
        #expect(checks["duplicate trips.trip_id"]?.count == 0)  // its index was built UNIQUE: no scan
        #expect(checks["stop_times.trip_id → trips.trip_id"]?.count == 1)
        #expect(checks["stop_times.trip_id → trips.trip_id"]?.examples == ["T9"])
        #expect(checks["trips.service_id → calendar.service_id or calendar_dates.service_id"]?.count == 0)
        #expect(summary.json.hasPrefix("{\"state\": \"complete\""))
        #expect(
            summary.json.contains(
                "\"stop_times.txt\": {\"records\": 11, \"imported\": 9, \"skipped\": 2, \"warnings\": 1"))
    }

    @Test("header names that differ only in case from a GTFS field or each other are listed as ignored, not fatal")
    func headerNamesDifferingInCase() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try QuirksFeed.writeFolder(scratch.file("feed"))
        let stops = "stop_id,stop_name,stop_lat,stop_lon,Stop_Desc,note,Note,NOTE\nS1,Alex,52.5,13.4,x,a,b,c\n"
        try Data(stops.utf8).write(to: URL(fileURLWithPath: scratch.file("feed/stops.txt")))
        let summary = try await importFeed(scratch.file("feed"), into: scratch.file("db.sqlite"))
        #expect(summary.state == .complete)
        let file = try #require(summary.files.first { $0.name == "stops.txt" })
        #expect(file.imported == 1)
        #expect(file.ignoredColumns.contains("Stop_Desc (same name as stop_desc apart from case)"))
        #expect(file.ignoredColumns.contains("Note (same name as note apart from case)"))
        #expect(file.ignoredColumns.contains("NOTE (same name as note apart from case)"))
        let rows = try SQLiteConnection(path: scratch.file("db.sqlite"), readOnly: true)
            .rows("SELECT stop_desc, note FROM stops")
        #expect(rows == [[.null, .text("a")]])
    }

    @Test("a header with no usable field stops the import naming the file, and one with a NUL in a name ignores it")
    func headersWithNothingUsable() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try QuirksFeed.writeFolder(scratch.file("feed"))
        // transfers.txt has no required field: every name here only differs in case from a GTFS field.
        let transfers = "FROM_STOP_ID,TO_STOP_ID,TRANSFER_TYPE\nS1,S2,0\n"
        try Data(transfers.utf8).write(to: URL(fileURLWithPath: scratch.file("feed/transfers.txt")))
        await #expect {
            try await importFeed(scratch.file("feed"), into: scratch.file("db.sqlite"))
        } throws: { error in
            let message = "\(error)"
            return message.contains("transfers.txt:1: the header has no usable field")
                && message.contains("FROM_STOP_ID (same name as from_stop_id apart from case)")
        }

        try Data("from_stop_id,to_stop_id,transfer_type,no\u{0}te\nS1,S2,0,x\n".utf8)
            .write(to: URL(fileURLWithPath: scratch.file("feed/transfers.txt")))
        let summary = try await importFeed(scratch.file("feed"), into: scratch.file("other.sqlite"))
        #expect(summary.state == .complete)
        let file = try #require(summary.files.first { $0.name == "transfers.txt" })
        #expect(file.ignoredColumns.contains("field 4 (its name contains a NUL byte)"))
    }

    @Test("reading the status of a finished import leaves no WAL files behind, and never creates a database")
    func statusLeavesNoFiles() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try QuirksFeed.writeFolder(scratch.file("feed"))
        let database = scratch.file("db.sqlite")
        _ = try await importFeed(scratch.file("feed"), into: database)
        let status = try ImportStatus.read(database)
        #expect(status.state == .complete)
        for suffix in ["-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: database + suffix), "\(suffix) left behind")
        }
        #expect(throws: ImportError.self) { try ImportStatus.read(scratch.file("missing.sqlite")) }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("missing.sqlite")))
    }

    @Test("strict mode stops at the first malformed record, naming file, line and field")
    func strict() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try QuirksFeed.writeFolder(scratch.file("feed"))
        await #expect {
            _ = try await importFeed(
                scratch.file("feed"), into: scratch.file("db.sqlite"), options: ImportOptions(strict: true))
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            // calendar.txt is imported before stop_times.txt; warnings (stops.txt, trips.txt) do not stop it.
            return error.kind == .malformedRecord && error.line == 3
                && error.message.hasSuffix(
                    "calendar.txt:3: field start_date: '00000101' is not a date (YYYYMMDD): no such day (--strict)")
        }
        let status = try ImportStatus.read(scratch.file("db.sqlite"))
        #expect(status.state == .failed)
    }

    @Test("bad feeds: not a zip, a truncated zip, a missing required file, no calendar, a missing path")
    func badFeeds() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try Data("this is not a zip archive".utf8).write(to: URL(fileURLWithPath: scratch.file("garbage.zip")))
        #expect { try GTFSFeed.open(scratch.file("garbage.zip")) } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.kind == .unreadableFeed
                && error.message.hasSuffix(
                    "garbage.zip: not a zip archive: a feed is a .zip archive or a folder of GTFS .txt files (give the folder)"
                )
        }

        try QuirksFeed.writeZip(scratch.file("whole.zip"))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.file("whole.zip")))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: scratch.file("truncated.zip")))
        #expect { try GTFSFeed.open(scratch.file("truncated.zip")) } throws: {
            ($0 as? ImportError)?.kind == .corruptArchive
        }

        try QuirksFeed.writeZip(scratch.file("no-stop-times.zip"), omitting: ["stop_times.txt"])
        #expect { try GTFSFeed.open(scratch.file("no-stop-times.zip")) } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.kind == .missingFile && error.message.contains("missing stop_times.txt")
        }
        try QuirksFeed.writeZip(scratch.file("no-calendar.zip"), omitting: ["calendar.txt", "calendar_dates.txt"])
        #expect { try GTFSFeed.open(scratch.file("no-calendar.zip")) } throws: {
            ($0 as? ImportError)?.kind == .missingFile
        }
        #expect { try GTFSFeed.open(scratch.file("nothing-here")) } throws: {
            ($0 as? ImportError)?.kind == .unreadableFeed
        }
    }

    @Test("a corrupt entry fails the import cleanly: its rows are removed, and a good copy resumes to the full import")
    func corruptEntry() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let zip = scratch.file("feed.zip")
        try SampleFeedFiles.write(.tiny, to: zip, compressionLevel: 1)
        // Flip bytes in the middle of the archive (inside some entry's compressed data).
        let good = try Data(contentsOf: URL(fileURLWithPath: zip))
        var bytes = [UInt8](good)
        for offset in stride(from: bytes.count / 2, to: bytes.count / 2 + 64, by: 8) { bytes[offset] ^= 0x5A }
        try Data(bytes).write(to: URL(fileURLWithPath: zip))
        let feed = try GTFSFeed.open(zip)
        let error = await #expect(throws: ImportError.self) {
            _ = try await GTFSImporter(
                feed: feed, database: scratch.file("db.sqlite"), options: ImportOptions(batchSize: 100)
            ).run()
        }
        #expect(error?.kind == .corruptArchive)
        #expect(error?.message.contains("the rows read from it were removed") == true)
        let status = try ImportStatus.read(scratch.file("db.sqlite"))
        #expect(status.state == .failed)
        // The corrupt entry's rows are gone (its checksum is known only at its end) and it starts over on resume.
        let corrupt = try #require(
            status.files.first {
                error?.message.contains("/\($0.name)") == true || error?.message.contains(": \($0.name):") == true
            })
        #expect(corrupt.state == .pending && corrupt.rows == 0)
        // Whole batches: every table holds exactly the rows its import record counts.
        let connection = try SQLiteConnection(path: scratch.file("db.sqlite"), readOnly: true)
        for file in status.files where file.state != .pending {
            let rows = try connection.rows("SELECT count(*) FROM \(String(file.name.dropLast(4)))").first?.first?
                .integer
            #expect(rows == Int64(file.rows), "\(file.name): the table matches its import record")
        }
        // A good copy of the feed (same central directory, so the same fingerprint) resumes to the full import.
        try good.write(to: URL(fileURLWithPath: zip))
        let resumed = try await GTFSImporter(
            feed: try GTFSFeed.open(zip), database: scratch.file("db.sqlite"),
            options: ImportOptions(mode: .resume, batchSize: 100)
        ).run()
        #expect(resumed.state == .complete)
        let reference = try await GTFSImporter(
            feed: try GTFSFeed.open(zip), database: scratch.file("reference.sqlite"), options: ImportOptions()
        ).run()
        #expect(resumed.files == reference.files)
        #expect(try DatabaseContent(scratch.file("db.sqlite")) == DatabaseContent(scratch.file("reference.sqlite")))
    }

    @Test(
        "corrupt bytes that fail the CSV reader before the entry's end are found by its checksum: the file starts over")
    func corruptionSeenAsMalformed() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let folder = scratch.file("feed")
        try SampleFeedFiles.write(.tiny, to: folder)
        // Level 0: the entries' bytes are stored as they are, so a flipped byte reaches the CSV reader unchanged.
        let zip = scratch.file("feed.zip")
        let writer = try ZipWriter(path: zip, compressionLevel: 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() {
            try writer.beginEntry(name)
            try writer.write([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))))
            try writer.endEntry()
        }
        try writer.finish()
        let lines = try String(contentsOfFile: folder + "/stop_times.txt", encoding: .utf8).split(separator: "\n")
        let row = Array(lines[5].utf8)  // a few batches of one row are committed before it
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: zip)))
        let at = try #require(bytes.indices.dropLast(row.count).first { Array(bytes[$0..<($0 + row.count)]) == row })
        let comma = try #require(row.firstIndex(of: UInt8(ascii: ",")))
        bytes[at + comma + 1] = UInt8(ascii: "\"")  // a quote that opens a field and never closes
        try Data(bytes).write(to: URL(fileURLWithPath: zip))

        var options = ImportOptions(batchSize: 1)
        options.strict = true
        let error = await #expect(throws: ImportError.self) {
            _ = try await GTFSImporter(
                feed: try GTFSFeed.open(zip), database: scratch.file("db.sqlite"), options: options
            ).run()
        }
        #expect(error?.kind == .corruptArchive)
        #expect(error?.message.contains("stop_times.txt") == true)
        let status = try ImportStatus.read(scratch.file("db.sqlite"))
        let stopTimes = try #require(status.files.first { $0.name == "stop_times.txt" })
        #expect(stopTimes.state == .pending && stopTimes.rows == 0)
    }

    @Test("a database that already holds an import is refused unless resumed or replaced")
    func refusesNonEmptyDatabase() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try QuirksFeed.writeFolder(scratch.file("feed"))
        let database = scratch.file("db.sqlite")
        _ = try await importFeed(scratch.file("feed"), into: database)
        await #expect { _ = try await importFeed(scratch.file("feed"), into: database) } throws: {
            ($0 as? ImportError)?.kind == .databaseNotEmpty
        }
        let resumed = try await importFeed(scratch.file("feed"), into: database, options: ImportOptions(mode: .resume))
        #expect(resumed.state == .complete)
        let replaced = try await importFeed(
            scratch.file("feed"), into: database, options: ImportOptions(mode: .replace))
        #expect(replaced.state == .complete)
        let other = scratch.file("other")
        try QuirksFeed.writeFolder(other)
        try Data("changed\n".utf8).write(to: URL(fileURLWithPath: other + "/agency.txt"))
        await #expect {
            _ = try await importFeed(other, into: database, options: ImportOptions(mode: .resume))
        } throws: { ($0 as? ImportError)?.kind == .cannotResume }
    }
}
