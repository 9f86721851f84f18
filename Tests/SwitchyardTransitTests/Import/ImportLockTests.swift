import Foundation
import Testing

@testable import SwitchyardSampleFeeds
@_spi(ImportDestinations) @testable import SwitchyardTransit

@Suite("One import per database: the import lock")
struct ImportLockTests {
    private static let batchSize = 97

    private func importer(_ feed: String, _ database: String, _ mode: ImportOptions.Mode = .new) throws -> GTFSImporter
    {
        GTFSImporter(
            feed: try GTFSFeed.open(feed), database: database,
            options: ImportOptions(mode: mode, batchSize: Self.batchSize))
    }

    private func expectBusy(_ run: () async throws -> ImportSummary, _ comment: Comment) async {
        do {
            let summary = try await run()
            Issue.record("the import ran (\(summary.state)) while another held the lock: \(comment)")
        } catch let error as ImportError {
            #expect(error.kind == .databaseBusy, "\(error): \(comment)")
            #expect(error.message.contains("--resume"), "the message says how to go on")
        } catch {
            Issue.record("unexpected \(error): \(comment)")
        }
    }

    @Test("while another import holds the lock, a new import fails at once and touches nothing; afterwards it runs")
    func busyThenFree() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let feed = scratch.file("feed")
        try SampleFeedFiles.write(.tiny, to: feed)
        let database = scratch.file("db.sqlite")
        var held: ImportLock? = try ImportLock(database: database)
        await expectBusy({ try await importer(feed, database).run() }, "new import")
        #expect(!FileManager.default.fileExists(atPath: database), "the database was not created")
        withExtendedLifetime(held) {}
        held = nil
        let summary = try await importer(feed, database).run()
        #expect(summary.state == .complete)
        // `run` released the lock on returning.
        #expect(throws: Never.self) { _ = try ImportLock(database: database) }
    }

    @Test("release() frees the lock at once, though references to the lock object remain; it is idempotent")
    func explicitRelease() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let database = scratch.file("db.sqlite")
        let held = try ImportLock(database: database)
        let otherReference = held  // like one a thread that handed the lock over still holds for a moment
        held.release()
        #expect(throws: Never.self) { _ = try ImportLock(database: database) }
        otherReference.release()  // no second close of a descriptor that may have been reused
        withExtendedLifetime(otherReference) {}
    }

    @Test("two names of one database (a symbolic link, a relative path) share one lock")
    func symbolicLinksShareTheLock() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let real = scratch.file("real.sqlite")
        #expect(FileManager.default.createFile(atPath: real, contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: scratch.file("link.sqlite"), withDestinationPath: real)
        try FileManager.default.createDirectory(atPath: scratch.file("sub"), withIntermediateDirectories: true)
        let held = try ImportLock(database: scratch.file("link.sqlite"))
        for other in [real, scratch.file("sub/../real.sqlite"), scratch.file("sub/../link.sqlite")] {
            #expect(throws: ImportError.self, "\(other)") { _ = try ImportLock(database: other) }
        }
        // A database that does not exist yet resolves through its folder.
        let new = try ImportLock(database: scratch.file("sub/../new.sqlite"))
        #expect(new.path == ImportLock.realPath(scratch.path) + "/new.sqlite.lock")
        withExtendedLifetime(held) {}
    }

    @Test("--replace and --resume never touch a database another import holds")
    func replaceAndResumeWhileBusy() async throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let feed = scratch.file("feed")
        try SampleFeedFiles.write(.tiny, to: feed)
        let database = scratch.file("db.sqlite")
        #expect(try await importer(feed, database).run().state == .complete)
        let before = try DatabaseContent(database)
        let held = try ImportLock(database: database)
        await expectBusy({ try await importer(feed, database, .replace).run() }, "replace")
        await expectBusy({ try await importer(feed, database, .resume).run() }, "resume")
        withExtendedLifetime(held) {}
        #expect(try DatabaseContent(database) == before, "nothing was deleted or written")
        #expect(try ImportStatus.read(database).state == .complete)
    }

    #if SWITCHYARD_TEST_HOOKS  // uses a test hook of the library (debug builds only)
        @Test("resumes started together: one writes at a time, the others fail busy, and no row is written twice")
        func resumesStartedTogether() async throws {
            let scratch = ScratchFolder()
            defer { scratch.remove() }
            let feed = scratch.file("feed")
            try SampleFeedFiles.write(.tiny, to: feed)
            let reference = scratch.file("reference.sqlite")
            #expect(try await importer(feed, reference).run().state == .complete)
            let database = scratch.file("db.sqlite")
            var options = ImportOptions(batchSize: Self.batchSize)
            options.interruptAfterBatches = 2
            let interrupted = try await GTFSImporter(
                feed: try GTFSFeed.open(feed), database: database, options: options
            ).run()
            #expect(interrupted.state == .interrupted)
            // Without the lock each would read the same import record and append the same batches.
            let importers = try (0..<4).map { _ in try importer(feed, database, .resume) }
            let outcomes = await withTaskGroup(of: Result<ImportSummary, any Error>.self) { group in
                for importer in importers {
                    group.addTask {
                        do { return .success(try await importer.run()) } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            var completed = 0
            for outcome in outcomes {
                switch outcome {
                case .success(let summary):
                    // The first resume to get the lock finished the import; a later one found nothing left to load.
                    #expect(summary.state == .complete)
                    completed += 1
                case .failure(let error):
                    #expect((error as? ImportError)?.kind == .databaseBusy, "\(error)")
                }
            }
            #expect(completed >= 1)
            #expect(try DatabaseContent(database) == (try DatabaseContent(reference)))
        }
    #endif
}
