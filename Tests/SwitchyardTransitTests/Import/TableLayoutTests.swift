import Foundation
import Testing

@testable import SwitchyardSampleFeeds
@_spi(ImportDestinations) @testable import SwitchyardTransit

/// Headers that lack a required GTFS field: an optional file's records are skipped, each listed, and the rest of the
/// feed imports; a required file fails the import at its header.
@Suite("A header lacking a required field: an optional file is skipped record by record, a required one fails")
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

    @Test("the layout of an optional file records the missing fields; a required file's header throws")
    func layouts() throws {
        let header = ["feed_publisher_name", "feed_publisher_url", "url_lang", "feed_id"]
        let layout = try TableLayout(file: .feedInfo, header: header, source: "feed/feed_info.txt")
        #expect(layout.missingFields == ["feed_lang"])
        #expect(
            layout.missingFieldsReason
                == "the header lacks required field feed_lang (feed_info.txt is optional: its records are skipped, "
                + "the rest of the feed imported)")
        #expect(layout.extraColumns == ["url_lang", "feed_id"])  // neither is a GTFS field
        let translations = try TableLayout(
            file: .translations, header: ["trans_id", "lang", "translation"], source: "translations.txt")
        #expect(translations.missingFields == ["table_name", "field_name", "language"])
        let complete = try TableLayout(file: .stops, header: ["stop_id", "stop_name"], source: "stops.txt")
        #expect(complete.missingFields.isEmpty && complete.missingFieldsReason == nil)
        let error = #expect(throws: ImportError.self) {
            _ = try TableLayout(file: .stops, header: ["stop_name", "stop_lat"], source: "feed/stops.txt")
        }
        #expect(error?.kind == .missingField && error?.line == 1 && error?.file == "feed/stops.txt")
        #expect(error?.reason == "the header lacks required field stop_id")
    }

    @Test("an old feed_info.txt and a GTFS-JP translations.txt: every other file imports, their records are listed")
    func optionalFilesSkipped() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try write(["feed_info.txt": Self.oldFeedInfo, "translations.txt": Self.oldTranslations], to: scratch)
        let database = scratch.file("db.sqlite")
        let summary = try await GTFSImporter(feed: try GTFSFeed.open(scratch.file("feed")), database: database).run()
        #expect(summary.state == .complete && summary.skipped == 3)
        let stopTimes = try #require(summary.files.first { $0.name == "stop_times.txt" })
        #expect(stopTimes.imported == 4 && stopTimes.skipped == 0)
        let feedInfo = try #require(summary.files.first { $0.name == "feed_info.txt" })
        #expect(feedInfo.records == 1 && feedInfo.imported == 0 && feedInfo.skipped == 1)
        #expect(feedInfo.problems.map(\.line) == [2] && feedInfo.problems.map(\.field) == ["feed_lang"])
        #expect(feedInfo.problems.allSatisfy { $0.kind == .missingValue && $0.reason.contains("lacks") })
        let translations = try #require(summary.files.first { $0.name == "translations.txt" })
        #expect(translations.skipped == 2 && translations.problems.map(\.line) == [2, 3])
        #expect(translations.problems.allSatisfy { $0.field == "table_name" })
        let listed = try SQLiteConnection(path: database, readOnly: true).rows(
            "SELECT file, line, field FROM _switchyard_import_problems WHERE severity = 'error' ORDER BY file, line")
        #expect(
            listed == [
                [.text("feed_info.txt"), .integer(2), .text("feed_lang")],
                [.text("translations.txt"), .integer(2), .text("table_name")],
                [.text("translations.txt"), .integer(3), .text("table_name")],
            ])
    }

    @Test("with strict, the first record of such a file stops the import, naming its line and the field")
    func strictStops() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try write(["feed_info.txt": Self.oldFeedInfo], to: scratch)
        let error = await #expect(throws: ImportError.self) {
            _ = try await GTFSImporter(
                feed: try GTFSFeed.open(scratch.file("feed")), database: scratch.file("db.sqlite"),
                options: ImportOptions(strict: true)
            ).run()
        }
        #expect(error?.kind == .malformedRecord && error?.line == 2, "\(String(describing: error))")
        #expect(error?.reason.hasPrefix("field feed_lang: the header lacks required field feed_lang") == true)
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
