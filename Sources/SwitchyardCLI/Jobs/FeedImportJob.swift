#if CLI
    import ArgumentParser
    import Foundation
    import Switchyard
    import SwitchyardHTTP
    import SwitchyardPostgres
    import SwitchyardSampleFeeds
    import SwitchyardTransit

    /// The input of a `switchyard.import` job: which feed to import into which schema.
    struct FeedImportInput: Codable, Sendable {
        /// An absolute path of a `.zip` or a folder (on the worker's machine), an http(s) URL of a `.zip`, or
        /// `sample:PROFILE` (a sample feed generated on the worker).
        var feed: String
        /// The schema the tables go to, in the worker's database.
        var schema: String
        /// How times are stored: `seconds` (the default) or `interval`; a resumed import keeps its own.
        var times: String?
    }

    /// The output of a `switchyard.import` job: the import's totals.
    struct FeedImportOutput: Codable, Sendable {
        var schema: String
        var records: Int
        var skipped: Int
        var warnings: Int
        /// Seconds the attempt that completed the import took (0 when an earlier one had completed it).
        var seconds: Double
    }

    /// A job's failure, in words (recorded as the job's error).
    struct JobFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The job kind `switchyard enqueue import` enqueues and `switchyard worker` runs: a GTFS feed into a PostgreSQL
    /// schema of the worker's database.
    enum FeedImportJob {
        static let importFeed = DurableJobKind<FeedImportInput, FeedImportOutput>("switchyard.import")

        /// What a `feed` of a sample starts with.
        static let samplePrefix = "sample:"

        /// Imports `input.feed` into the schema `input.schema` of `database`'s server and database.
        ///
        /// Resumable: a schema that holds an incomplete import of the feed (an earlier attempt failed, was stopped,
        /// or its worker died) is resumed after its last committed batch; one that holds a complete import is
        /// reported without importing again; otherwise the import is new (and fails on a schema holding other GTFS
        /// tables). Progress goes to the job's row as bytes of the feed read. Cancelling the attempt's task stops the
        /// import at the next batch boundary (the schema stays resumable) and throws `CancellationError`.
        static func run(
            _ input: FeedImportInput, context: DurableJobContext, database: PostgresURL
        ) async throws -> FeedImportOutput {
            var url = database
            url.schema = input.schema
            var times = PostgresTimes.seconds
            if let text = input.times {
                guard let chosen = PostgresTimes(rawValue: text) else {
                    throw PermanentJobError("times must be seconds or interval, got '\(text)'")
                }
                times = chosen
            }
            let existing = try await DurableDatabase.importStatus(at: url)
            if let existing, existing.isComplete {
                guard isSameFeed(existing, input.feed) else {
                    throw PermanentJobError(
                        """
                        schema \(input.schema) already holds a complete import of \(existing.source?.url ?? existing.feed): \
                        drop the schema to import \(input.feed) into it
                        """)
                }
                return FeedImportOutput(
                    schema: input.schema, records: existing.files.reduce(0) { $0 + $1.records },
                    skipped: existing.files.reduce(0) { $0 + $1.skipped },
                    warnings: existing.files.reduce(0) { $0 + $1.warnings }, seconds: 0)
            }
            let (path, source) = try await resolve(input.feed, schema: input.schema)
            let feed = try await BlockingExecutor.shared.run { try GTFSFeed.open(path) }
            let options = ImportOptions(mode: existing == nil ? .new : .resume, source: source)
            let importer = GTFSImporter(
                feed: feed, postgres: url, times: times, options: options, logger: context.logger)
            let summary: ImportSummary
            do {
                summary = try await importReportingProgress(importer, to: context)
            } catch let error as ImportError where [.cannotResume, .databaseNotEmpty].contains(error.kind) {
                throw PermanentJobError("\(error)")  // no later attempt can do better
            }
            // `run` returns an interrupted summary when cancelled: the job must not read as succeeded.
            guard summary.state == .complete else { throw CancellationError() }
            return FeedImportOutput(
                schema: input.schema, records: summary.records, skipped: summary.skipped, warnings: summary.warnings,
                seconds: summary.seconds)
        }

        /// Whether the complete import `existing` is of `feed` (a URL by its source, a sample by its folder's name,
        /// a file by its path).
        static func isSameFeed(_ existing: ImportStatus, _ feed: String) -> Bool {
            if RemoteFeed.isRemote(feed) { return existing.source?.url == feed }
            if feed.hasPrefix(samplePrefix) {
                let folder = existing.feed.split(separator: "/").last.map(String.init) ?? ""
                return folder.hasPrefix("switchyard-sample-\(feed.dropFirst(samplePrefix.count))-")
            }
            return existing.feed == feed
        }

        /// Runs `importer`, reporting its progress to `context` every half second (bytes read of the feed's total).
        private static func importReportingProgress(
            _ importer: GTFSImporter, to context: DurableJobContext
        ) async throws -> ImportSummary {
            let updates = importer.progressUpdates(interval: .milliseconds(500))
            let reporting = Task {
                for await progress in updates { FeedImportJob.report(progress, to: context) }
            }
            defer { reporting.cancel() }
            let summary = try await importer.run()
            report(importer.progress, to: context)
            return summary
        }

        private static func report(_ progress: ImportProgress, to context: DurableJobContext) {
            let total = progress.files.reduce(Int64(0)) { $0 + $1.totalBytes }
            let done = progress.files.reduce(Int64(0)) {
                $0 + ($1.isComplete ? $1.totalBytes : min($1.bytesRead, $1.totalBytes))
            }
            context.reportProgress(completed: done, total: total)
        }

        // MARK: The feed

        /// The local path of `feed`, and where it was downloaded from: a sample is generated (once per machine, in
        /// the temporary folder, as `switchyard import --sample` does), a URL downloaded into
        /// `<temporary folder>/switchyard-jobs/<schema>.feed.zip` (continuing a partial download of an earlier
        /// attempt), a path taken as it is.
        static func resolve(_ feed: String, schema: String) async throws -> (path: String, source: FeedSource?) {
            if feed.hasPrefix(samplePrefix) {
                let name = String(feed.dropFirst(samplePrefix.count))
                guard let profile = SampleFeedProfile.named(name) else {
                    let names = SampleFeedProfile.all.map(\.name).joined(separator: ", ")
                    throw PermanentJobError("no sample profile '\(name)' (profiles: \(names))")
                }
                return (try await SampleFeedGate.shared.path(of: profile), nil)
            }
            if RemoteFeed.isRemote(feed) { return try await download(feed, schema: schema) }
            return (feed, nil)
        }

        /// Downloads `url` for the import into `schema` (see ``resolve(_:schema:)``).
        private static func download(
            _ url: String, schema: String
        ) async throws -> (path: String, source: FeedSource?) {
            let folder = NSTemporaryDirectory() + "switchyard-jobs"
            try await BlockingExecutor.shared.run {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            let outcome: RemoteFeed.Outcome
            do {
                outcome = try await RemoteFeed.fetch(
                    url, database: folder + "/" + schema, checksExisting: false, quiet: true)
            } catch let error as HTTPError where error.isCancelled {
                throw CancellationError()
            }
            switch outcome {
            case .downloaded(let path, let source):
                return (path, source)
            case .refused(let error):
                throw error
            case .unchanged:  // only when checking an existing SQLite import, which this is not
                throw JobFailure("\(url): the download was skipped as unchanged")
            }
        }

        /// Generates `profile`'s sample feed, or finds it generated (``SampleFeedCommand/cachedSample(_:quiet:)``).
        static func generateSample(_ profile: SampleFeedProfile) async throws -> String {
            do {
                return try await SampleFeedCommand.cachedSample(profile, quiet: false)
            } catch is ExitCode {  // its error is on standard error already
                throw JobFailure("cannot generate the \(profile.name) sample feed (see the worker's standard error)")
            }
        }
    }

    /// One generation of each sample feed at a time in this process: two jobs importing the same profile (into two
    /// schemas) would otherwise write its folder at once. (Two worker processes on one machine can still collide
    /// there: `SampleFeedCommand.cachedSample` takes no lock across processes.)
    actor SampleFeedGate {
        static let shared = SampleFeedGate()

        private var generating: [String: Task<String, any Error>] = [:]

        /// The folder of `profile`'s sample feed, generated first when missing.
        func path(of profile: SampleFeedProfile) async throws -> String {
            if let running = generating[profile.name] { return try await running.value }
            let task = Task { try await FeedImportJob.generateSample(profile) }
            generating[profile.name] = task
            defer { generating[profile.name] = nil }
            return try await task.value
        }
    }
#endif
