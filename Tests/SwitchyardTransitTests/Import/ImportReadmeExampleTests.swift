import Switchyard
import Testing

@testable import SwitchyardSampleFeeds
@_spi(ImportDestinations) @testable import SwitchyardTransit

/// The README's `GTFSImporter` example, on the tiny sample feed.
@Suite("README: the import example")
struct ImportReadmeExampleTests {
    @Test("the example runs as written")
    func example() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try SampleFeedFiles.write(.tiny, to: scratch.file("vbb.zip"))
        let shown = Isolated<[[ImportProgress.File]]>([])
        @Sendable func show(_ files: [ImportProgress.File]) { shown.withValueBlocking { $0.append(files) } }

        // From the README:
        let importer = GTFSImporter(
            feed: try GTFSFeed.open(scratch.file("vbb.zip")), database: scratch.file("vbb.sqlite"))
        let progress = Task { for await update in importer.progressUpdates() { show(update.files) } }
        let summary = try await importer.run()  // cancel the task: stops at the next batch, state "interrupted"
        print(summary.json)  // {"state": "complete", "files": {"stop_times.txt": {"records": …

        await progress.value
        #expect(summary.json.hasPrefix("{\"state\": \"complete\", \"database\": "))
        let last = await shown.withValue { $0.last }
        #expect(last?.allSatisfy(\.isComplete) == true)
    }
}
