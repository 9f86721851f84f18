import SwitchyardTesting
import Testing

@testable import SwitchyardSampleFeeds
@_spi(ImportDestinations) @testable import SwitchyardTransit

@Suite("Import states")
struct ImportStateTests {
    @Test("the states' raw values are the strings the database stores and the JSON output prints")
    func rawValues() {
        #expect(ImportState.allCases.map(\.rawValue) == ["loading", "indexing", "complete", "interrupted", "failed"])
        #expect(ImportFileState.allCases.map(\.rawValue) == ["pending", "loading", "complete", "ignored"])
        #expect("\(ImportState.interrupted)" == "interrupted")
    }

    @Test("a record holding a state this version does not know is reported, not read as another state")
    func unknownStateIsAnError() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let feed = scratch.file("feed")
        try SampleFeedFiles.write(.tiny, to: feed)
        let database = scratch.file("db.sqlite")
        let summary = try await GTFSImporter(feed: try GTFSFeed.open(feed), database: database).run()
        #expect(summary.state == .complete)
        #expect(try ImportStatus.read(database).state == .complete)
        try SQLiteConnection(path: database).execute("UPDATE _switchyard_import SET state = 'paused'")
        #expect {
            try ImportStatus.read(database)
        } throws: { error in
            let error = try #require(error as? ImportError)
            return error.kind == .database
                && "\(error)".contains("\(database): the import record holds an unknown state \"paused\"")
        }
        var resume = ImportOptions()
        resume.mode = .resume
        await #expect {
            try await GTFSImporter(feed: try GTFSFeed.open(feed), database: database, options: resume).run()
        } throws: { error in
            "\(error)".contains("\(database): the import record holds an unknown state \"paused\"")
        }
    }
}
