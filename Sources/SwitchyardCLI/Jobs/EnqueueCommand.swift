#if CLI
    import ArgumentParser
    import Foundation
    import Switchyard
    import SwitchyardPostgres
    import SwitchyardSampleFeeds
    import SwitchyardTransit

    /// `switchyard enqueue`: puts jobs on the durable queue of a PostgreSQL database, for `switchyard worker`s to run.
    struct EnqueueCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enqueue",
            abstract: "Put jobs on a durable PostgreSQL queue, for `switchyard worker` to run.",
            subcommands: subcommandTypes)

        /// `import`, and in debug builds the hidden test subcommands.
        private static var subcommandTypes: [any ParsableCommand.Type] {
            #if SWITCHYARD_TEST_HOOKS
                return [EnqueueImportCommand.self, EnqueueTestRecordCommand.self, EnqueueTestSleepCommand.self]
            #else
                return [EnqueueImportCommand.self]
            #endif
        }
    }

    /// The options every `switchyard enqueue` subcommand takes: the queue's database, and the jobs' queue, priority and
    /// attempts.
    struct EnqueueOptions: ParsableArguments {
        @Option(
            help:
                "The queue's database: postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?schema=QUEUE_SCHEMA]; the URL's schema holds the queue's tables (default switchyard), not the imports."
        )
        var database: String

        @Option(help: "The queue to put the jobs on (`switchyard worker --queue`).")
        var queue = "default"

        @Option(help: "background, utility, medium, userInitiated or userInteractive: which available jobs run first.")
        var priority = "medium"

        @Option(help: "The most attempts per job (failed attempts are retried with backoff; a dead worker's counts).")
        var attempts = 3

        @Flag(help: "One JSON object per job instead of a line of text.")
        var json = false

        /// The priorities by name.
        static let priorities: [String: JobPriority] = [
            "background": .background, "utility": .utility, "medium": .medium, "userInitiated": .userInitiated,
            "userInteractive": .userInteractive,
        ]

        func validate() throws {
            guard Self.priorities[priority] != nil else {
                let names = "background, utility, medium, userInitiated or userInteractive"
                throw ValidationError("--priority must be \(names), got '\(priority)'")
            }
            guard attempts >= 1 else { throw ValidationError("--attempts must be at least 1, got \(attempts)") }
            guard !queue.isEmpty else { throw ValidationError("--queue must name a queue") }
        }

        /// The jobs' options.
        var jobOptions: DurableJobOptions {
            DurableJobOptions(queue: queue, priority: Self.priorities[priority] ?? .medium, maximumAttempts: attempts)
        }
    }

    /// `switchyard enqueue import FEED… --database postgres://…`: one import job per feed, each into a schema of its
    /// own.
    ///
    /// Exit status: 0 when every job is enqueued (or found already queued); 1 when `--database` is malformed, the
    /// server cannot be reached or refuses, or a local feed does not exist (`error: …` on standard error; the jobs
    /// enqueued before the error stay queued); 64 for wrong arguments.
    struct EnqueueImportCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Enqueue GTFS imports into PostgreSQL, one job per feed, for `switchyard worker` to run.",
            discussion: """
                Each feed is imported into the schema --schema-prefix + its name (the file name without .zip, or the \
                sample's profile), lowercased, with every character but a-z, 0-9 and _ written _: feeds/VBB-2024.zip \
                goes to feed_vbb_2024. A feed whose schema has an unfinished import job is not enqueued again: the \
                existing job is reported (already queued). A worker resumes an import its schema holds unfinished \
                (a retried or rescued job, or a job enqueued again after one was cancelled), and does not import \
                again into a schema whose import is complete: drop the schema to import a new version of a feed.

                FEED is a .zip or a folder (its absolute path is stored, so the workers must see the same path), an \
                http(s) URL of a .zip (each worker downloads it), or sample:PROFILE (like --sample).

                --database names the queue: the URL's schema parameter is the QUEUE's schema (default switchyard), \
                created or upgraded first. The imports go to the same server and database. Without a password in the \
                URL, PGPASSWORD is used.

                Prints one line per feed, `job 12: import small.zip → schema feed_small` (or `already queued as job \
                12: …`); with --json one object per line, {"feed":…,"job":12,"new":true,"schema":…}.
                """)

        @OptionGroup var options: EnqueueOptions

        @Argument(help: "The feeds: .zip archives, folders of .txt files, http(s) URLs of .zip archives.")
        var feeds: [String] = []

        @Option(
            help:
                "A sample feed to generate on the worker and import (repeatable): \(SampleFeedProfile.all.map(\.name).joined(separator: ", "))."
        )
        var sample: [String] = []

        @Option(help: "What each feed's schema name starts with.")
        var schemaPrefix = "feed_"

        @Option(help: "How times are stored: seconds (bigint, as in SQLite) or interval.")
        var times: String?

        func validate() throws {
            guard !feeds.isEmpty || !sample.isEmpty else {
                throw ValidationError("name the feeds to import (.zip, folder or http(s) URL), or use --sample PROFILE")
            }
            for name in sample + feeds.compactMap(Self.sampleName) where SampleFeedProfile.named(name) == nil {
                let names = SampleFeedProfile.all.map(\.name).joined(separator: ", ")
                throw ValidationError("--sample: no profile '\(name)' (profiles: \(names))")
            }
            if let times, PostgresTimes(rawValue: times) == nil {
                throw ValidationError("--times must be seconds or interval, got '\(times)'")
            }
            for (feed, schema) in inputs.map({ ($0.display, $0.input.schema) })
            where schema.utf8.count > PostgresURL.longestSchema {
                throw ValidationError(
                    "the schema of \(feed), \(schema), is longer than PostgreSQL's \(PostgresURL.longestSchema) bytes")
            }
        }

        func run() async throws {
            let database = try DurableDatabase(parsing: options.database)
            let inputs = inputs
            for (display, input) in inputs
            where !input.feed.hasPrefix(FeedImportJob.samplePrefix) && !RemoteFeed.isRemote(input.feed)
                && !FileManager.default.fileExists(atPath: input.feed)
            {
                throw DurableDatabase.failure("\(display): no such file or folder")
            }
            try await database.probe()
            let options = options
            try await DurableDatabase.reporting {
                try await database.withQueue(maximumConnections: 2) { (queue: DurableQueue) async throws -> Void in
                    try await queue.migrate()
                    for (display, input) in inputs {
                        let jobOptions = options.jobOptions.unique("import:\(input.schema)")
                        let job = try await queue.enqueue(FeedImportJob.importFeed, input, options: jobOptions)
                        Self.report(job, display: display, input: input, json: options.json)
                    }
                }
            }
        }

        /// Every feed and sample as a job's input, with the feed as given.
        private var inputs: [(display: String, input: FeedImportInput)] {
            let named = feeds.map { feed -> (display: String, input: FeedImportInput) in
                if let sample = Self.sampleName(feed) { return (feed, input(sample: sample)) }
                if RemoteFeed.isRemote(feed) {
                    let target = schema(for: Self.baseName(ofURL: feed))
                    return (feed, FeedImportInput(feed: feed, schema: target, times: times))
                }
                let path = URL(fileURLWithPath: feed).standardizedFileURL.path
                let target = schema(for: Self.baseName(ofPath: path))
                return (feed, FeedImportInput(feed: path, schema: target, times: times))
            }
            let samples = sample.map { name -> (display: String, input: FeedImportInput) in
                ("--sample \(name)", input(sample: name))
            }
            return named + samples
        }

        private func input(sample: String) -> FeedImportInput {
            FeedImportInput(feed: FeedImportJob.samplePrefix + sample, schema: schema(for: sample), times: times)
        }

        /// The profile of a `sample:PROFILE` feed.
        private static func sampleName(_ feed: String) -> String? {
            feed.hasPrefix(FeedImportJob.samplePrefix) ? String(feed.dropFirst(FeedImportJob.samplePrefix.count)) : nil
        }

        /// `--schema-prefix` and `base`, lowercased, with every character but a-z, 0-9 and _ written _.
        private func schema(for base: String) -> String {
            var name = ""
            for scalar in base.lowercased().unicodeScalars {
                let kept = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
                name.unicodeScalars.append(kept ? scalar : "_")
            }
            return schemaPrefix + (name.isEmpty ? "feed" : name)
        }

        /// A local feed's name: its last path component without `.zip`.
        static func baseName(ofPath path: String) -> String {
            var name = URL(fileURLWithPath: path).lastPathComponent
            if name.lowercased().hasSuffix(".zip") { name.removeLast(4) }
            return name
        }

        /// A feed URL's name: its path's last segment without `.zip` (`feed` for none).
        static func baseName(ofURL url: String) -> String {
            let withoutQuery = url.split(whereSeparator: { $0 == "?" || $0 == "#" }).first.map(String.init) ?? url
            var name = withoutQuery.split(separator: "/").last.map(String.init) ?? "feed"
            if name.lowercased().hasSuffix(".zip") { name.removeLast(4) }
            return name.isEmpty || name.contains(":") ? "feed" : name
        }

        /// Prints the line (or JSON object) of one enqueued job.
        private static func report(
            _ job: DurableJob<FeedImportOutput>, display: String, input: FeedImportInput, json: Bool
        ) {
            if json {
                print(EnqueuedJob(job: job.id, feed: input.feed, schema: input.schema, new: job.isNew).json)
            } else {
                let line = "import \(display) → schema \(input.schema)"
                let prefix = job.isNew ? "job \(job.id)" : "already queued as job \(job.id)"
                print(TerminalText.visible("\(prefix): \(line)"))
            }
        }
    }

    /// The JSON object `switchyard enqueue --json` prints per job.
    struct EnqueuedJob: Encodable {
        var job: Int64
        var feed: String
        var schema: String
        var new: Bool

        var json: String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        }
    }
#endif
