import Foundation
import Testing

@testable import SwitchyardSampleFeeds
@_spi(ImportDestinations) @testable import SwitchyardTransit

/// Headers that lack a GTFS field: a required one skips an optional file's records, each listed, while the rest of the
/// feed imports, and fails a required file at its header; an expected one (``GTFSField/isExpected``) only warns.
@Suite("A header lacking a field: required skips an optional file's records or fails a required file; expected warns")
struct TableLayoutTests {
    /// `feed_info.txt` as older feeds write it (`url_lang`, no `feed_lang`), as in pygtfs' copy of the GTFS sample.
    static let oldFeedInfo = """
        feed_publisher_name,feed_publisher_url,url_lang,feed_id,feed_start_date,feed_end_date
        the feeder,transit.example.com,en,17,,

        """
    /// `translations.txt` in the format GTFS-JP feeds used before the reference defined the file.
    static let oldTranslations = """
        trans_id,lang,translation
        Furnace Creek Resort (Demo),HE,אתר הנופש ערוץ הכבשן (דמו)
        Furnace Creek Resort (Demo),JA,ファーネス・クリーク・リゾート

        """

    static let storedAsNull = "stored as NULL (GTFS requires the value; the record is usable without it)"

    @Test("the layouts record the missing required and expected fields; a required file lacking a required one throws")
    func layouts() throws {
        let header = ["feed_publisher_name", "feed_publisher_url", "url_lang", "feed_id"]
        let layout = try TableLayout(file: .feedInfo, header: header, source: "feed/feed_info.txt")
        #expect(layout.missingFields.isEmpty && layout.missingFieldsReason == nil)
        #expect(layout.missingExpectedFields == ["feed_lang"])
        #expect(layout.extraColumns == ["url_lang", "feed_id"])  // neither is a GTFS field
        let translations = try TableLayout(
            file: .translations, header: ["trans_id", "lang", "translation"], source: "translations.txt")
        #expect(translations.missingFields == ["table_name", "field_name", "language"])
        #expect(
            translations.missingFieldsReason
                == "the header lacks required fields table_name, field_name, language (translations.txt is optional: "
                + "its records are skipped, the rest of the feed imported)")
        let agency = try TableLayout(file: .agency, header: ["agency_id", "agency_url"], source: "agency.txt")
        #expect(agency.missingFields.isEmpty && agency.missingExpectedFields == ["agency_name", "agency_timezone"])
        let complete = try TableLayout(file: .stops, header: ["stop_id", "stop_name"], source: "stops.txt")
        #expect(complete.missingFields.isEmpty && complete.missingFieldsReason == nil)
        #expect(complete.missingExpectedFields.isEmpty)
        let error = #expect(throws: ImportError.self) {
            _ = try TableLayout(file: .stops, header: ["stop_name", "stop_lat"], source: "feed/stops.txt")
        }
        #expect(error?.kind == .missingField && error?.line == 1 && error?.file == "feed/stops.txt")
        #expect(error?.reason == "the header lacks required field stop_id")
    }

    @Test("an old feed_info.txt imports with a warning; a GTFS-JP translations.txt's records are listed as skipped")
    func optionalFilesSkipped() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try write(["feed_info.txt": Self.oldFeedInfo, "translations.txt": Self.oldTranslations], to: scratch)
        let database = scratch.file("db.sqlite")
        let summary = try await GTFSImporter(feed: try GTFSFeed.open(scratch.file("feed")), database: database).run()
        #expect(summary.state == .complete && summary.skipped == 2)
        let stopTimes = try #require(summary.files.first { $0.name == "stop_times.txt" })
        #expect(stopTimes.imported == 4 && stopTimes.skipped == 0)
        let feedInfo = try #require(summary.files.first { $0.name == "feed_info.txt" })
        #expect(feedInfo.records == 1 && feedInfo.imported == 1 && feedInfo.skipped == 0 && feedInfo.warnings == 1)
        let warning = try #require(feedInfo.counts.first)
        #expect(warning.kind == .expectedField && warning.count == 1)
        #expect(warning.example?.line == 1 && warning.example?.field == "feed_lang")
        let translations = try #require(summary.files.first { $0.name == "translations.txt" })
        #expect(translations.skipped == 2 && translations.problems.map(\.line) == [2, 3])
        #expect(translations.problems.allSatisfy { $0.field == "table_name" && $0.kind == .missingValue })
        let connection = try SQLiteConnection(path: database, readOnly: true)
        #expect(
            try connection.rows(
                """
                SELECT file, line, field, severity FROM _switchyard_import_problems
                WHERE file IN ('feed_info.txt', 'translations.txt') ORDER BY file, line
                """)
                == [
                    [.text("feed_info.txt"), .integer(1), .text("feed_lang"), .text("warning")],
                    [.text("translations.txt"), .integer(2), .text("table_name"), .text("error")],
                    [.text("translations.txt"), .integer(3), .text("table_name"), .text("error")],
                ])
        #expect(
            try connection.rows("SELECT feed_publisher_name, feed_lang, url_lang FROM feed_info")
                == [[.text("the feeder"), .null, .text("en")]])
    }

    @Test("empty or invalid expected values are stored as NULL with a warning: the routes still find their agency")
    func expectedValuesKept() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try write(
            [
                // A required file whose header lacks agency_url, and a record with agency_name empty.
                "agency.txt": "agency_id,agency_name,agency_timezone\nDTA,,America/Los_Angeles\n",
                "routes.txt": "route_id,agency_id,route_short_name,route_type\nAAMV,DTA,50,bus\nR2,DTA\n",
            ], to: scratch)
        let database = scratch.file("db.sqlite")
        let summary = try await GTFSImporter(feed: try GTFSFeed.open(scratch.file("feed")), database: database).run()
        #expect(summary.state == .complete && summary.skipped == 0)
        let kinds = { (file: String) in
            summary.files.first { $0.name == file }?.counts.map { "\($0.kind.rawValue) \($0.count)" }.sorted()
        }
        #expect(kinds("agency.txt") == ["expected_field 1", "expected_value 1"])
        #expect(kinds("routes.txt") == ["expected_value 2", "missing_fields 1"])
        #expect(summary.checks.allSatisfy { $0.count == 0 }, "\(summary.checks)")
        let connection = try SQLiteConnection(path: database, readOnly: true)
        #expect(
            try connection.rows("SELECT agency_id, agency_name, agency_url FROM agency")
                == [[.text("DTA"), .null, .null]])
        #expect(
            try connection.rows("SELECT route_id, route_type FROM routes ORDER BY route_id")
                == [[.text("AAMV"), .null], [.text("R2"), .null]])
        #expect(
            try connection.rows(
                """
                SELECT line, field, reason FROM _switchyard_import_problems
                WHERE file = 'routes.txt' AND kind = 'expected_value' ORDER BY line
                """)
                == [
                    [.integer(2), .text("route_type"), .text("'bus' is not an integer; " + Self.storedAsNull)],
                    [.integer(3), .text("route_type"), .text("missing; " + Self.storedAsNull)],
                ])
    }

    @Test("with strict, the first record of an optional file lacking a required field stops the import")
    func strictStops() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try write(["feed_info.txt": Self.oldFeedInfo, "translations.txt": Self.oldTranslations], to: scratch)
        let error = await #expect(throws: ImportError.self) {
            _ = try await GTFSImporter(
                feed: try GTFSFeed.open(scratch.file("feed")), database: scratch.file("db.sqlite"),
                options: ImportOptions(strict: true)
            ).run()
        }
        #expect(error?.kind == .malformedRecord && error?.line == 2, "\(String(describing: error))")
        #expect(error?.file?.hasSuffix("translations.txt") == true)
        #expect(error?.reason.hasPrefix("field table_name: the header lacks required fields table_name") == true)
    }

    @Test("a required file whose header lacks a required field fails the import at line 1")
    func requiredFileFails() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try write(["stops.txt": "stop_name,stop_lat,stop_lon\nA,1,2\n"], to: scratch)
        let error = await #expect(throws: ImportError.self) {
            _ = try await GTFSImporter(
                feed: try GTFSFeed.open(scratch.file("feed")), database: scratch.file("db.sqlite")
            ).run()
        }
        #expect(error?.kind == .missingField && error?.line == 1 && error?.file?.hasSuffix("feed/stops.txt") == true)
    }

    /// The canonical sample's shape (see ``RealFeedShapesTests``) with `replaced` files, in `scratch/feed`.
    private func write(_ replaced: [String: String], to scratch: ScratchFolder) throws {
        let folder = scratch.file("feed")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in RealFeedShapesTests.sampleFeed.merging(replaced, uniquingKeysWith: { $1 }) {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
    }
}
