import Foundation
import SwitchyardTesting
import Synchronization
import Testing

@testable import SwitchyardSampleFeeds
@_spi(ImportDestinations) @testable import SwitchyardTransit

@Suite("Interrupting and resuming an import")
struct ResumeTests {
    private static let batchSize = 97

    /// The uninterrupted import's content, once per profile.
    private func uninterrupted(_ feed: String, _ scratch: ScratchFolder) async throws -> DatabaseContent {
        let database = scratch.file("reference.sqlite")
        let summary = try await GTFSImporter(
            feed: try GTFSFeed.open(feed), database: database, options: ImportOptions(batchSize: Self.batchSize)
        ).run()
        #expect(summary.state == .complete)
        return try DatabaseContent(database)
    }

    #if SWITCHYARD_TEST_HOOKS  // uses a test hook of the library (debug builds only)
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
                    let summary = try await GTFSImporter(
                        feed: try GTFSFeed.open(feed), database: database, options: options
                    ).run()
                    if summary.state == .complete { break }
                    #expect(summary.state == .interrupted)
                    let status = try ImportStatus.read(database)
                    #expect(status.state == .interrupted)
                    mode = .resume
                }
                let finished = try await GTFSImporter(
                    feed: try GTFSFeed.open(feed), database: database,
                    options: ImportOptions(mode: .resume, batchSize: Self.batchSize)
                ).run()
                #expect(finished.state == .complete)
                #expect(try DatabaseContent(database) == reference, "round \(round)")
            }
        }
    #endif

    #if SWITCHYARD_TEST_HOOKS  // uses a test hook of the library (debug builds only)
        @Test("the quirks feed (skipped records included), stopped after each batch in turn, then resumed: identical")
        func resumeWithProblems() async throws {
            let scratch = ScratchFolder()
            defer { scratch.remove() }
            let feed = scratch.file("feed.zip")
            try QuirksFeed.writeZip(feed, folder: "gtfs")
            let uninterrupted = try await GTFSImporter(
                feed: try GTFSFeed.open(feed), database: scratch.file("reference.sqlite"),
                options: ImportOptions(batchSize: 2)
            ).run()
            let expected = try DatabaseContent(scratch.file("reference.sqlite"))
            for stop in 0..<16 {
                let database = scratch.file("db-\(stop).sqlite")
                var options = ImportOptions(batchSize: 2)
                options.interruptAfterBatches = stop
                let first = try await GTFSImporter(feed: try GTFSFeed.open(feed), database: database, options: options)
                    .run()
                if first.state == .interrupted {
                    let resumed = try await GTFSImporter(
                        feed: try GTFSFeed.open(feed), database: database,
                        options: ImportOptions(mode: .resume, batchSize: 2)
                    ).run()
                    #expect(resumed.state == .complete)
                    #expect(resumed.files == uninterrupted.files, "the summary counts the whole import")
                }
                #expect(try DatabaseContent(database) == expected, "stopped after \(stop) batches")
            }
        }
    #endif

    #if SWITCHYARD_TEST_HOOKS  // uses a test hook of the library (debug builds only)
        @Test("a file of nothing but malformed records moves in batches too, and resumes from any of them")
        func malformedOnlyFile() async throws {
            let scratch = ScratchFolder()
            defer { scratch.remove() }
            let feed = scratch.file("feed")
            try QuirksFeed.writeFolder(feed)
            // Nine records, each with a date that is no day (a required field): not one row to import.
            let ragged = (1...9).map { "WE,2025000\($0),1" }
            try Data((["service_id,date,exception_type"] + ragged).joined(separator: "\n").utf8)
                .write(to: URL(fileURLWithPath: feed + "/calendar_dates.txt"))
            let uninterrupted = try await GTFSImporter(
                feed: try GTFSFeed.open(feed), database: scratch.file("reference.sqlite"),
                options: ImportOptions(batchSize: 2)
            ).run()
            let calendarDates = try #require(uninterrupted.files.first { $0.name == "calendar_dates.txt" })
            #expect(calendarDates.records == 9 && calendarDates.skipped == 9 && calendarDates.imported == 0)
            #expect(calendarDates.problems.map(\.line) == Array(2...(1 + ImportOptions().problemExamples)))  // examples
            let expected = try DatabaseContent(scratch.file("reference.sqlite"))
            var committedPartly = false
            for stop in stride(from: 1, to: 24, by: 2) {  // every other boundary: the malformed file spans five
                let database = scratch.file("db-\(stop).sqlite")
                var options = ImportOptions(batchSize: 2)
                options.interruptAfterBatches = stop
                let first = try await GTFSImporter(feed: try GTFSFeed.open(feed), database: database, options: options)
                    .run()
                if first.state == .interrupted {
                    let partial = try ImportStatus.read(database).files.first { $0.name == "calendar_dates.txt" }
                    if let partial, partial.records > 0 && partial.records < 9 {
                        committedPartly = true
                        #expect(partial.records % 2 == 0, "whole batches of skipped records")
                    }
                    let resumed = try await GTFSImporter(
                        feed: try GTFSFeed.open(feed), database: database,
                        options: ImportOptions(mode: .resume, batchSize: 2)
                    ).run()
                    #expect(resumed.state == .complete)
                    #expect(resumed.files == uninterrupted.files, "the summary counts the whole import")
                }
                #expect(try DatabaseContent(database) == expected, "stopped after \(stop) batches")
            }
            // Before, the reader held every skipped record until a good one came: the file was one batch, whatever its size.
            #expect(committedPartly, "some interruption fell inside the malformed file")
        }
    #endif

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
        #expect([.interrupted, .complete].contains(summary.state))
        for file in try ImportStatus.read(database).files where file.state != .complete {
            #expect(file.records % Self.batchSize == 0, "\(file.name): whole batches")
        }
        let resumed = try await GTFSImporter(
            feed: try GTFSFeed.open(feed), database: database,
            options: ImportOptions(mode: .resume, batchSize: Self.batchSize)
        ).run()
        #expect(resumed.state == .complete)
        #expect(try DatabaseContent(database) == reference)
    }

    #if SWITCHYARD_TEST_HOOKS  // uses a test hook of the library (debug builds only)
        @Test("a step failing after the load is reported with its own error and state failed, not as an interruption")
        func failureWhileIndexing() async throws {
            let scratch = ScratchFolder()
            defer { scratch.remove() }
            let feed = scratch.file("feed")
            try SampleFeedFiles.write(.tiny, to: feed)
            let database = scratch.file("db.sqlite")
            let index = FeedChecks.indexName(.stopTimes, ["trip_id", "stop_sequence"])
            let importer = GTFSImporter(
                feed: try GTFSFeed.open(feed), destination: SQLiteDestination(path: database),
                options: ImportOptions(batchSize: Self.batchSize),
                beforeLargeIndexes: {
                    // A table where the index goes: its CREATE INDEX fails (as a full disk would), and the jobs after
                    // it are cancelled by their edges.
                    try! SQLiteConnection(path: database).execute("CREATE TABLE \(quotedIdentifier(index)) (x)")
                })
            await #expect {
                _ = try await importer.run()
            } throws: { error in
                guard let error = error as? ImportError else { return false }
                return error.kind == .database && error.message.hasPrefix(database) && error.message.contains(index)
            }
            #expect(try ImportStatus.read(database).state == .failed)
        }
    #endif

    #if SWITCHYARD_TEST_HOOKS  // uses a test hook of the library (debug builds only)
        @Test(
            "cancelled as the stop_times index starts: the index statement stops, the import is interrupted, a resume finishes it",
            .timeLimit(.minutes(1)))
        func cancelWhileIndexing() async throws {
            let scratch = ScratchFolder()
            defer { scratch.remove() }
            let feed = scratch.file("feed")
            try SampleFeedFiles.write(.tiny, to: feed)
            let reference = try await uninterrupted(feed, scratch)
            let database = scratch.file("db.sqlite")
            let work = Mutex<Task<ImportSummary, any Error>?>(nil)
            let importer = GTFSImporter(
                feed: try GTFSFeed.open(feed), destination: SQLiteDestination(path: database),
                options: ImportOptions(batchSize: Self.batchSize),
                beforeLargeIndexes: {
                    // A Ctrl-C just before the index statement: the run's task is cancelled, nothing else. Without
                    // the cancellation reaching this job's statement, the index would be built anyway.
                    work.withLock { $0 }?.cancel()
                })
            // Stored before the import can reach the hook (which waits for the lock).
            let task = work.withLock { stored in
                let task = Task { try await importer.run() }
                stored = task
                return task
            }
            let summary = try await task.value
            #expect(summary.state == .interrupted)
            #expect(try ImportStatus.read(database).state == .interrupted)
            let index = FeedChecks.indexName(.stopTimes, ["trip_id", "stop_sequence"])
            let exists = "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?"
            let indexes = { try SQLiteConnection(path: database, readOnly: true).rows(exists, [.text(index)]) }
            #expect(try indexes().first?.first?.integer == 0, "the interrupted index statement was rolled back")
            #expect(importer.queue.counts.running == 0, "no job runs once run returns")

            let resumed = try await GTFSImporter(
                feed: try GTFSFeed.open(feed), database: database,
                options: ImportOptions(mode: .resume, batchSize: Self.batchSize)
            ).run()
            #expect(resumed.state == .complete)
            let referenceDatabase = try SQLiteConnection(path: scratch.file("reference.sqlite"), readOnly: true)
            let referenceChecks = try SQLiteChecks.recorded(referenceDatabase)
            #expect(!resumed.checks.isEmpty && resumed.checks == referenceChecks, "the resume ran every check")
            #expect(try indexes().first?.first?.integer == 1, "the resume built the index")
            #expect(try DatabaseContent(database) == reference)
        }
    #endif

    @Test(
        "a reader during the import sees monotonically growing, batch-sized counts and never an error",
        .timeLimit(.minutes(1)))
    func readerDuringImport() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let feed = scratch.file("feed.zip")
        try SampleFeedFiles.write(.tiny, to: feed)
        let database = scratch.file("db.sqlite")
        let importer = GTFSImporter(
            feed: try GTFSFeed.open(feed), database: database, options: ImportOptions(batchSize: 50))
        let work = Task { try await importer.run() }
        var last: [String: Int] = [:]
        var observations = 0
        // Read the database (as another reader would) each time the import reports progress, until it ends.
        for await _ in importer.progressUpdates(interval: .milliseconds(1), minimumChange: 0) {
            guard let status = try? ImportStatus.read(database) else {
                #expect(observations == 0, "once the import record exists, reading it never fails")
                continue
            }
            observations += 1
            for file in status.files {
                #expect(file.rows >= last[file.name, default: 0], "\(file.name) never shrinks")
                if file.state != .complete {
                    #expect(file.records % 50 == 0, "\(file.name): \(file.records) records are whole batches")
                }
                last[file.name] = file.rows
            }
        }
        let summary = try await work.value
        #expect(summary.state == .complete)
        #expect(observations > 1)
    }
}
