#if CLI
    import ArgumentParser
    import Foundation
    import Switchyard
    import SwitchyardHTTP
    import SwitchyardPostgres
    import SwitchyardSampleFeeds
    import SwitchyardTransit

    /// `switchyard import FEED`: loads a GTFS feed (a `.zip` or a folder) into SQLite (or, with a `postgres://` URL as
    /// `--database`, into a PostgreSQL schema) in the background, with a progress bar, Ctrl-C that stops at a batch
    /// boundary, and `--resume`.
    ///
    /// Exit status: 0 when the import is complete (skipped records are reported, not failures, unless more than
    /// `--max-skipped`), 130 when interrupted (Ctrl-C, SIGTERM or SIGHUP; a second signal quits at once with 128 + its
    /// number), 1 on an error (named on standard error as `FILE:LINE: error: message`, and with `--progress json` as the last
    /// line of standard output, a summary whose state is `failed`; the database is left consistent), a malformed
    /// `--database` URL included (`error: --database: reason`, before anything is read or written); 64 for wrong
    /// arguments (an unknown option, a missing feed, options that exclude each other: ArgumentParser's usage error).
    /// With `--dashboard`, a complete import keeps serving the dashboard until Ctrl-C (or SIGTERM, SIGHUP), then exits
    /// with 0; an interrupted or failed one exits at once, as without it.
    struct ImportCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import a GTFS feed (.zip or folder) into an SQLite database or PostgreSQL, in the background.",
            discussion: """
                Every GTFS file becomes a table of the same name, fare products and GTFS-Flex included; times are \
                stored as seconds (25:13:00 → 90780), dates as YYYYMMDD numbers (in PostgreSQL as date). Extra columns \
                are kept as text; files that are not GTFS tables (locations.geojson, others) are listed and skipped. \
                A record is skipped only when a key or a value that gives it its meaning is missing or invalid, or its \
                quoting cannot be told apart (an optional file whose header lacks such a field, such as an old-format \
                translations.txt, has every record skipped; a required file's fails the import); every quirk a \
                mainstream GTFS consumer tolerates (short rows, spaces after a closing quote, text that is not UTF-8, \
                an integer written as 2.0, a time as 8:05, an invalid optional value, an empty agency_name or \
                route_type, stored as NULL) is imported with a warning. Skipped records and warnings are counted per \
                file and listed with line and field in _switchyard_import_problems (--strict stops at \
                the first skipped record; --max-skipped fails an import that skips more). Ctrl-C stops at the next batch boundary; run again with --resume to continue. \
                `switchyard status DATABASE` shows the import from another terminal while it runs.

                With --database postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?schema=NAME] the tables go to that schema \
                (default public; --schema overrides it), through COPY, up to 16 whole batches per transaction, with the same \
                record, checks, --resume and status. Without a password in the URL, PGPASSWORD is used.
                """)

        @Argument(
            help:
                "The feed: a .zip archive, a folder of .txt files, or an http(s) URL of a .zip (downloaded next to the database first; omit with --sample)."
        )
        var feed: String?

        @Option(
            help:
                "The SQLite database to write (default: the feed's name with .sqlite, in the current folder), or a PostgreSQL URL postgres://USER[:PASSWORD]@HOST[:PORT]/DB[?schema=NAME]."
        )
        var database: String?

        @Option(help: "With a PostgreSQL --database: the schema to import into (default: the URL's, else public).")
        var schema: String?

        @Option(
            help:
                "With a PostgreSQL --database: how times are stored: seconds (bigint, 25:13:00 → 90780, as in SQLite) or interval. A resume keeps the import's."
        )
        var times: String?

        @Flag(help: "Continue the interrupted import in --database (same, unchanged feed).")
        var resume = false

        @Flag(help: "Delete --database first and start over (PostgreSQL: drop the import recorded in the schema).")
        var replace = false

        @Flag(
            help:
                "Stop at the first record that would be skipped (a required value missing or invalid, a stray quote) instead of skipping and reporting it; warnings never stop the import."
        )
        var strict = false

        @Option(
            help:
                "How the files' text is decoded: auto (UTF-8; a value that is not UTF-8 is read as Windows-1252, with a warning), utf-8 (a record that is not UTF-8 is skipped), windows-1252, latin-1."
        )
        var encoding: String = "auto"

        @Option(help: "The folder of the archive or folder to import, when GTFS files are in several.")
        var folder: String?

        @Option(
            help:
                "Fail the import if more records than this are skipped: a count (0 allows none) or a percentage of all records (0.5%)."
        )
        var maxSkipped: String?

        @Option(
            help:
                "Rows per batch (the unit of commit, cancellation and resume; PostgreSQL commits up to 16 in one transaction)."
        )
        var batchSize = ImportOptions.defaultBatchSize

        @Option(
            help: "How to show progress: auto (a bar on a terminal, plain lines otherwise), bar, lines, json, none.")
        var progress: String = "auto"

        @Option(
            help: "Milliseconds between progress updates at most (default: 100 for the bar, 500 for json and lines).")
        var progressInterval: Int?

        @Option(
            help:
                "Generate a sample feed of this profile first and import it (\(SampleFeedProfile.all.map(\.name).joined(separator: ", "))); implies --replace."
        )
        var sample: String?

        @OptionGroup var dashboard: DashboardOptions

        func validate() throws {
            guard ProgressStyle(rawValue: progress) != nil else {
                throw ValidationError(
                    "--progress must be one of \(ProgressStyle.allCases.map(\.rawValue).joined(separator: ", ")), got '\(progress)'"
                )
            }
            guard ImportOptions.Encoding(rawValue: encoding) != nil else {
                throw ValidationError(
                    "--encoding must be one of \(ImportOptions.Encoding.allCases.map(\.rawValue).joined(separator: ", ")), got '\(encoding)'"
                )
            }
            if let maxSkipped, Self.skippedLimit(maxSkipped) == nil {
                throw ValidationError("--max-skipped must be a count (10) or a percentage (0.5%), got '\(maxSkipped)'")
            }
            guard batchSize >= 1 else { throw ValidationError("--batch-size must be at least 1, got \(batchSize)") }
            guard batchSize <= ImportOptions.maximumBatchSize else {
                throw ValidationError(
                    "--batch-size must be at most \(ImportOptions.maximumBatchSize), got \(batchSize)")
            }
            // A malformed PostgreSQL URL is not a usage error: `run` reports it (exit 1) through
            // `refuseMalformedDatabaseURL`, and these checks go by what `--database` is meant to be.
            if schema != nil, !isPostgres {
                throw ValidationError("--schema needs a PostgreSQL --database (postgres://…)")
            }
            if let times {
                guard isPostgres else {
                    throw ValidationError("--times needs a PostgreSQL --database (postgres://…): SQLite stores seconds")
                }
                guard PostgresTimes(rawValue: times) != nil else {
                    throw ValidationError("--times must be seconds or interval, got '\(times)'")
                }
            }
            if isPostgres {
                if let feed, RemoteFeed.isRemote(feed) {
                    throw ValidationError(
                        "importing a feed URL into PostgreSQL is not supported: download it first (switchyard fetch), then import the file"
                    )
                }
                if let schema, schema.isEmpty || schema.utf8.count > PostgresURL.longestSchema {
                    throw ValidationError("--schema must be 1 to \(PostgresURL.longestSchema) bytes long")
                }
            } else if let database {
                guard !database.isEmpty, database != ":memory:", !database.hasPrefix("file:") else {
                    throw ValidationError("--database must name a file, got '\(database)'")
                }
                if let feed,
                    URL(fileURLWithPath: database).standardizedFileURL.path
                        == URL(fileURLWithPath: feed).standardizedFileURL.path
                {
                    throw ValidationError("--database must not be the feed itself ('\(database)')")
                }
            }
            if let progressInterval, progressInterval < 1 {
                throw ValidationError("--progress-interval must be at least 1 (milliseconds), got \(progressInterval)")
            }
            guard !(resume && replace) else { throw ValidationError("--resume and --replace exclude each other") }
            if let sample {
                guard SampleFeedProfile.named(sample) != nil else {
                    throw ValidationError(
                        "--sample: no profile '\(sample)' (profiles: \(SampleFeedProfile.all.map(\.name).joined(separator: ", ")))"
                    )
                }
                guard feed == nil else { throw ValidationError("give either FEED or --sample, not both") }
            } else if feed == nil {
                throw ValidationError("name the feed to import (a .zip or a folder), or use --sample vbb")
            }
        }

        func run() async throws {
            // Ctrl-C is handled from the start; it cancels the import once the import exists. Before that (generating
            // the sample feed, opening the feed) nothing has been written, so it ends the process at once (a sample
            // left half written has no marker, so it is generated again next time).
            let target = CancellationTarget()
            target.set(Self.stopBeforeImport)
            let notice = InterruptNotice()
            let interrupts = InterruptHandler(notice: notice) { target.cancel() }
            let style = ProgressStyle(rawValue: progress)!
            await refuseMalformedDatabaseURL(style: style)
            var (feedPath, mode) = try await resolveFeed(style: style)
            let postgres = postgresURL
            let databasePath =
                postgres?.description ?? database
                ?? (RemoteFeed.isRemote(feedPath)
                    ? RemoteFeed.defaultDatabase(for: feedPath)
                    : defaultDatabase(for: sample.map { "sample-\($0)" } ?? feedPath))
            var source: FeedSource?
            if RemoteFeed.isRemote(feedPath) {
                guard
                    let (path, downloaded) = try await download(
                        feedPath, databasePath: databasePath, target: target, style: style)
                else { return }
                (feedPath, source) = (path, downloaded)
            }
            let importer = try await openImporter(
                feedPath: feedPath, databasePath: databasePath, postgres: postgres, mode: mode, style: style,
                source: source)
            if style != .json {
                FileHandle.standardError.write(
                    Data((TerminalText.visible("importing \(feedPath) into \(databasePath)") + "\n").utf8))
            }
            let dashboardURL = try await startDashboard(importer)
            let summary = try await runImport(
                importer, target: target, notice: notice, databasePath: databasePath, style: style)
            printSummary(summary, style: style)
            if let dashboardURL, summary.state != .interrupted {
                await DashboardLauncher.linger(at: dashboardURL, target: target)
            }
            withExtendedLifetime(interrupts) {}  // Ctrl-C stays handled until the summary is out
            try exitIfInterrupted(summary, feedPath: feedPath, databasePath: databasePath)
        }

        /// Resolves the feed to import and the import mode: FEED, or `--sample`'s cached feed (generated first when
        /// missing), which implies `--replace` unless resuming.
        private func resolveFeed(style: ProgressStyle) async throws -> (path: String, mode: ImportOptions.Mode) {
            var mode: ImportOptions.Mode = resume ? .resume : (replace ? .replace : .new)
            let feedPath: String
            if let sample, let profile = SampleFeedProfile.named(sample) {
                feedPath = try await SampleFeedCommand.cachedSample(profile, quiet: style == .json)
                if !resume { mode = .replace }
            } else {
                feedPath = feed!
            }
            return (feedPath, mode)
        }

        /// Downloads a remote feed for `databasePath` (see ``RemoteFeed``): returns the local archive and its source, or
        /// nil when the server says the feed is unchanged since the database's complete import (reported here). Ctrl-C
        /// stops the download and keeps the partial file for the next run; a failed download exits with status 1.
        private func download(
            _ url: String, databasePath: String, target: CancellationTarget, style: ProgressStyle
        ) async throws -> (String, FeedSource)? {
            let work = Task {
                try await RemoteFeed.fetch(
                    url, database: databasePath, checksExisting: !replace && !resume,
                    quiet: style == .json || style == .none)
            }
            // Ctrl-C cancels the download, which writes what it received before it ends (see HTTPSession.download).
            target.set { work.cancel() }
            defer { target.set(Self.stopBeforeImport) }
            do {
                switch try await work.value {
                case .unchanged(let source):
                    let validator =
                        source.etag.map { "ETag \($0)" } ?? source.lastModified.map { "Last-Modified \($0)" }
                    if style == .json {
                        print(UnchangedLine(database: databasePath, feed: url).json)
                    } else {
                        print(
                            TerminalText.visible(
                                "\(url) is unchanged since the complete import in \(databasePath) (\(validator ?? "")); nothing to do"
                            ))
                    }
                    return nil
                case .downloaded(let path, let source):
                    return (path, source)
                case .refused(let error):
                    await fail(error, database: databasePath, style: style, status: true)
                }
            } catch let error as HTTPError where error.isCancelled {
                FileHandle.standardError.write(
                    Data(
                        "stopped; run the same command again to continue (a download continues where it stopped, from 1 MiB on)\n"
                            .utf8))
                throw ExitCode(130)
            } catch let error as HTTPError {
                await fail(
                    ImportError(.unreadableFeed, error.description), database: databasePath, style: style, status: false
                )
            }
        }

        /// Ctrl-C before the import exists: nothing has been written (a sample left half written has no marker, so it is
        /// generated again next time), so the process ends at once.
        @Sendable static func stopBeforeImport() {
            FileHandle.standardError.write(Data("stopped before the import began; nothing was written\n".utf8))
            Foundation.exit(130)
        }

        /// Opens the feed off the cooperative pool and prepares its importer with the command's options; an
        /// ``ImportError`` is reported and exits with status 1.
        private func openImporter(
            feedPath: String, databasePath: String, postgres: PostgresURL?, mode: ImportOptions.Mode,
            style: ProgressStyle, source: FeedSource?
        ) async throws -> GTFSImporter {
            do {
                let folder = folder
                let opened = try await BlockingExecutor.shared.run { try GTFSFeed.open(feedPath, folder: folder) }
                let options = ImportOptions(
                    mode: mode, batchSize: batchSize, strict: strict,
                    encoding: ImportOptions.Encoding(rawValue: encoding)!,
                    maximumSkipped: maxSkipped.flatMap(Self.skippedLimit), source: source)
                if let postgres {
                    let times = times.flatMap(PostgresTimes.init(rawValue:)) ?? .seconds
                    return GTFSImporter(feed: opened, postgres: postgres, times: times, options: options)
                }
                return GTFSImporter(feed: opened, database: databasePath, options: options)
            } catch let error as ImportError {
                await fail(error, database: databasePath, style: style, status: false)
            }
        }

        /// Runs the import in the background, cancelled by Ctrl-C and with its progress drawn, and returns its summary
        /// once the last update is drawn; an ``ImportError`` exits with status 1, a stop before the import began with 130.
        private func runImport(
            _ importer: GTFSImporter, target: CancellationTarget, notice: InterruptNotice, databasePath: String,
            style: ProgressStyle
        ) async throws -> ImportSummary {
            let work = Task { try await importer.run() }
            target.set { work.cancel() }
            let rendering = startRendering(importer, notice: notice, style: style)
            let summary: ImportSummary
            do {
                summary = try await work.value
            } catch let error as ImportError {
                _ = await rendering.value  // the board finished: the renderer has drawn its last update
                await fail(error, database: databasePath, style: style, status: true)
            } catch is CancellationError {
                // Ctrl-C before the import record was written: nothing was imported.
                _ = await rendering.value
                FileHandle.standardError.write(Data("stopped before the import began; nothing was written\n".utf8))
                throw ExitCode(130)
            }
            _ = await rendering.value
            return summary
        }

        /// Starts the task that draws `importer`'s progress updates in `style` until they end, bars holding back the
        /// stop notice while they are drawn.
        private func startRendering(
            _ importer: GTFSImporter, notice: InterruptNotice, style: ProgressStyle
        ) -> Task<Void, Never> {
            var renderer = ImportProgressRenderer(style: style)
            if renderer.style == .bar {
                renderer.notice = notice
                notice.hold(true)
            }
            return Task { [renderer] in
                var renderer = renderer
                var last: ImportProgress?
                let interval = progressInterval ?? (style == .bar || style == .auto ? 100 : 500)
                for await progress in importer.progressUpdates(interval: .milliseconds(interval)) {
                    renderer.render(progress)
                    last = progress
                }
                if let last { renderer.finish(last) }
                notice.hold(false)  // the bars are done: a later notice is written at once
            }
        }

        /// Prints the import's summary on standard output: as JSON with `--progress json`, else as text.
        private func printSummary(_ summary: ImportSummary, style: ProgressStyle) {
            if style == .json {
                print(summary.json)
            } else {
                print(SummaryText.render(summary))
            }
        }

        /// `path` as one shell word: as is when it holds only characters no shell treats specially, else in single
        /// quotes; with characters a terminal could act on (see ``TerminalText``), ANSI-C quoted (`$'…'`: bash, zsh,
        /// ksh), with those characters as `\xHH`/`\uHHHH` escapes, so the command is harmless to print and still
        /// names the same path when pasted.
        func shellQuoted(_ path: String) -> String {
            if path.unicodeScalars.contains(where: TerminalText.isActive) {
                var out = "$'"
                for scalar in path.unicodeScalars {
                    switch scalar {
                    case "\\": out += "\\\\"
                    case "'": out += "\\'"
                    case _ where TerminalText.isActive(scalar):
                        out +=
                            scalar.value < 0x80
                            ? "\\x" + paddedHex(scalar.value, width: 2, uppercase: true)
                            : "\\u" + paddedHex(scalar.value, width: 4, uppercase: true)
                    default: out.unicodeScalars.append(scalar)
                    }
                }
                return out + "'"
            }
            let plain = path.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "_-./:=+,@%".unicodeScalars.contains($0)
            }
            return plain && !path.isEmpty ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
    }
#endif
