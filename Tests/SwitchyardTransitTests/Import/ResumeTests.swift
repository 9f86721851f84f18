import Foundation
import Synchronization
import Testing
import SwitchyardTesting
@testable import SwitchyardTransit

@Suite("Interrupting and resuming an import")
struct ResumeTests {
    private static let batchSize = 97

    /// The uninterrupted import's content, once per profile.
    private func uninterrupted(_ feed: String, _ scratch: ScratchFolder) async throws -> DatabaseContent {
        let database = scratch.file("reference.sqlite")
        let summary = try await GTFSImporter(
            feed: try GTFSFeed.open(feed), database: database, options: ImportOptions(batchSize: Self.batchSize)).run()
        #expect(summary.state == "complete")
        return try DatabaseContent(database)
    }

    @Test("stopped at random batch boundaries, then resumed: identical tables", .timeLimit(.minutes(1)))
    func resumeAtBatchBoundaries() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let feed = scratch.file("feed.zip")
        try SampleFeedFiles.write(.tiny, to: feed)
        let reference = try await uninterrupted(feed, scratch)
        var random = SeededRandomNumberGenerator.forTest("resumeAtBatchBoundaries")
        for round in 0..<4 {
            let database = scratch.file("db-\(round).sqlite")
            // Interrupt up to three times, each after a random number of batches, then finish.
            var mode = ImportOptions.Mode.new
            for _ in 0..<3 {
                var options = ImportOptions(mode: mode, batchSize: Self.batchSize)
                options.interruptAfterBatches = Int.random(in: 0...12, using: &random)
                let summary = try await GTFSImporter(feed: try GTFSFeed.open(feed), database: database, options: options).run()
                if summary.state == "complete" { break }
                #expect(summary.state == "interrupted")
                let status = try ImportStatus.read(database)
                #expect(status.state == "interrupted")
                mode = .resume
            }
            let finished = try await GTFSImporter(
                feed: try GTFSFeed.open(feed), database: database,
                options: ImportOptions(mode: .resume, batchSize: Self.batchSize)).run()
            #expect(finished.state == "complete")
            #expect(try DatabaseContent(database) == reference, "round \(round)")
        }
    }

    @Test("cancelling the task stops at a batch boundary and records the interruption", .timeLimit(.minutes(1)))
    func cancelTask() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let feed = scratch.file("feed")
        try SampleFeedFiles.write(.tiny, to: feed)
        let reference = try await uninterrupted(feed, scratch)
        let database = scratch.file("db.sqlite")
        let importer = GTFSImporter(
            feed: try GTFSFeed.open(feed), database: database, options: ImportOptions(batchSize: Self.batchSize))
        let work = Task { try await importer.run() }
        // Cancel once some rows are committed (or the import is over, which the resume below also handles).
        for await progress in importer.progressUpdates(interval: .milliseconds(1), minimumChange: 0) {
            if progress.files.contains(where: { $0.rowsCommitted > 0 }) || progress.phase == .finished { break }
        }
        work.cancel()
        let summary = try await work.value
        #expect(["interrupted", "complete"].contains(summary.state))
        for file in try ImportStatus.read(database).files where file.state != "complete" {
            #expect(file.rows % Self.batchSize == 0, "\(file.name): whole batches")
        }
        let resumed = try await GTFSImporter(
            feed: try GTFSFeed.open(feed), database: database,
            options: ImportOptions(mode: .resume, batchSize: Self.batchSize)).run()
        #expect(resumed.state == "complete")
        #expect(try DatabaseContent(database) == reference)
    }

    @Test("a reader during the import sees monotonically growing, batch-sized counts and never an error",
          .timeLimit(.minutes(1)))
    func readerDuringImport() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let feed = scratch.file("feed.zip")
        try SampleFeedFiles.write(.tiny, to: feed)
        let database = scratch.file("db.sqlite")
        let importer = GTFSImporter(
            feed: try GTFSFeed.open(feed), database: database, options: ImportOptions(batchSize: 50))
        let done = DoneFlag()
        let work = Task {
            defer { done.set() }
            return try await importer.run()
        }
        var last: [String: Int] = [:]
        var observations = 0
        while !done.isSet {
            // Until the import record exists there is nothing to read; after that, a read must never fail.
            guard (try? ImportStatus.read(database)) != nil || observations > 0 else {
                await Task.yield()
                continue
            }
            let status = try ImportStatus.read(database)
            observations += 1
            for file in status.files {
                #expect(file.rows >= last[file.name, default: 0], "\(file.name) never shrinks")
                if file.state != "complete" { #expect(file.rows % 50 == 0, "\(file.name): \(file.rows) is whole batches") }
                last[file.name] = file.rows
            }
            await Task.yield()
        }
        let summary = try await work.value
        #expect(summary.state == "complete")
        #expect(observations > 1)
    }
}

/// Set once, read from anywhere.
private final class DoneFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
