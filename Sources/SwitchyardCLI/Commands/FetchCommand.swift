#if CLI
    import ArgumentParser
    import Foundation
    import NIOCore
    import NIOPosix
    import Switchyard
    import SwitchyardDashboard
    import SwitchyardHTTP

    /// `switchyard fetch URL… [-i LIST]`: downloads many files at once, a bounded number per host, with live progress;
    /// resumes partial files (`--resume`), asks the server whether files it fetched before changed, and prints what it
    /// fetched, found unchanged and could not fetch.
    ///
    /// Exit status: 0 when every file was fetched or unchanged, 1 when any failed (each named with its reason) or a list
    /// line could not be used (each named on standard error as `LIST:LINE: error: reason`; the other lines are fetched,
    /// as `wget -i` does, and the status is 1 also when no line was usable), 2 when the list cannot be read or a URL
    /// argument is bad (nothing is downloaded), 64 for a bad option (usage), 130 when interrupted (partial files are
    /// kept).
    struct FetchCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Download many URLs at once, a few per host, with progress, resume and conditional requests.",
            discussion: """
                Each file is written as NAME.partial and renamed to NAME when complete, NAME being the URL's last path \
                segment (made unique with -2, -3…; cut to 236 bytes, keeping its extension). A file fetched before is \
                asked for with If-None-Match / If-Modified-Since (the validators are kept in OUT/.switchyard-fetch.json): \
                a 304 leaves it as it is. With --resume, partial files of 1 MiB or more left by an interrupted run are \
                continued (Range + If-Range); smaller ones, and all of them without it, are started over. Failed \
                attempts are retried with backoff (three attempts; 429 and 503 honour Retry-After). A list line's \
                sha256=HEX is checked before the file gets its name: a file that does not match is removed and reported \
                as failed.

                A list line that is not an http(s) URL, or whose sha256= is malformed, is reported on standard error as \
                LIST:LINE: error: REASON and skipped; every other line is fetched, and the summary counts the bad lines. \
                A URL listed again is fetched once: the later line gets LIST:LINE: note: URL already listed on line N \
                (URLs are compared with scheme and host in any case, without the default port or a #fragment, and with \
                %-escapes normalised); its sha256= applies when the first line names none, and a different one is an \
                error. Two different URLs whose file names collide are both fetched, the later one's name numbered.

                Exit status: 0 when every file was fetched or unchanged; 1 when any failed or a list line was bad (also \
                when no line was usable, as wget -i does); 2 when the list cannot be read or a URL argument is bad \
                (nothing is downloaded); 64 for wrong arguments; 130 when interrupted (partial files are kept).
                """)

        @Argument(help: "URLs to download (http or https).")
        var urls: [String] = []

        @Option(
            name: [.customShort("i"), .customLong("input")],
            help: "A file of URLs, one per line, each optionally followed by sha256=HEX (# comments).")
        var input: String?

        @Option(help: "The folder to write to (created if missing).")
        var out: String = "."

        @Option(help: "The most downloads at once, over all hosts.")
        var parallel = 16

        @Option(help: "The most downloads at once from one host.")
        var perHost = 6

        @OptionGroup var dashboard: DashboardOptions

        @Flag(help: "Continue the partial files of an interrupted run instead of starting them over.")
        var resume = false

        @Option(
            help:
                "Seconds a download's attempt may wait for the server without a byte arriving (writing to disk does not count); it then fails, and is retried."
        )
        var idleTimeout = 60

        func validate() throws {
            guard parallel >= 1 else { throw ValidationError("--parallel must be at least 1, got \(parallel)") }
            guard perHost >= 1 else { throw ValidationError("--per-host must be at least 1, got \(perHost)") }
            guard idleTimeout >= 1 else {
                throw ValidationError("--idle-timeout must be at least 1 second, got \(idleTimeout)")
            }
            guard !urls.isEmpty || input != nil else { throw ValidationError("name URLs to fetch, or a list with -i") }
        }

        func run() async throws {
            let list: FetchList
            do {
                let (urls, input) = (urls, input)
                list = try await BlockingExecutor.shared.run { try FetchList.read(arguments: urls, listFile: input) }
            } catch let failure as FetchList.Failure {
                FileHandle.standardError.write(Data("error: \(failure)\n".utf8))
                throw ExitCode(2)
            }
            // Each bad line and each URL listed twice, before the downloads start (the summary counts them).
            if !list.diagnostics.isEmpty {
                let text = list.diagnostics.map { TerminalText.visible($0.description) + "\n" }.joined()
                FileHandle.standardError.write(Data(text.utf8))
            }
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            var manifest = FetchManifest.load(from: out)
            // Half the cores for the connections: the others write the files (SwitchyardHTTP's file threads) and run
            // the bookkeeping, instead of every thread kind wanting every core.
            let network = MultiThreadedEventLoopGroup(numberOfThreads: max(1, System.coreCount / 2))
            let session = HTTPSession(
                configuration: HTTPSession.Configuration(
                    name: "fetch", maximumConcurrentRequests: parallel, maximumRequestsPerHost: perHost,
                    timeouts: HTTPTimeouts(idle: .seconds(idleTimeout))),
                eventLoopGroup: network)
            if let url = try await dashboard.start([WorkQueuesSource(id: "fetch", queues: { session.hostQueues() })]) {
                FileHandle.standardError.write(Data("Dashboard: \(url)\n".utf8))
            }
            let progress = TransferProgress()
            let folder = out
            let known = manifest
            let (resumes, perHost) = (resume, perHost)
            let work = Task {
                await Self.download(
                    list, to: folder, session: session, manifest: known, progress: progress, resumes: resumes,
                    window: 2 * perHost)
            }
            let interrupts = InterruptHandler(notice: InterruptNotice(), stopping: "stopping the downloads") {
                work.cancel()
            }
            let total = list.items.count
            let drawing = Task {
                var display = FetchProgressDisplay(progress: progress, total: total)
                await display.run()
            }
            let outcomes = await work.value
            drawing.cancel()
            await drawing.value
            withExtendedLifetime(interrupts) {}
            try? await session.shutdown()
            try? await network.shutdownGracefully()
            for (item, outcome) in zip(list.items, outcomes) {
                if case .success(let result) = outcome {
                    let checked = result.outcome == .unchanged ? manifest.files[item.name]?.sha256 : result.sha256
                    manifest.files[item.name] = FetchManifest.Entry(
                        url: item.url, validators: result.validators, sha256: checked)
                }
            }
            let (saved, folderName) = (manifest, out)
            _ = try? await BlockingExecutor.shared.run { try saved.save(to: folderName) }
            try report(list, outcomes, interrupted: work.isCancelled)
        }

        /// Downloads every item, at most `parallel` at once and `perHost` per host (the session's limits), results
        /// in the list's order. Calls are started through ``FetchWindows`` (`window` per host); once the task is
        /// cancelled, no more start, and those never started end as cancelled.
        private static func download(
            _ list: FetchList, to folder: String, session: HTTPSession, manifest: FetchManifest,
            progress: TransferProgress, resumes: Bool, window: Int
        ) async -> [Result<DownloadResult, HTTPError>] {
            var windows = FetchWindows(list.items.map(\.url), window: window)
            return await withTaskGroup(of: (Int, Result<DownloadResult, HTTPError>).self) { group in
                func start(_ index: Int) {
                    let item = list.items[index]
                    let validators = manifest.validators(for: item, in: folder)
                    group.addTask {
                        do throws(HTTPError) {
                            let result = try await session.download(
                                HTTPRequest(url: item.url, name: "fetch \(item.name)"), to: folder + "/" + item.name,
                                ifChanged: validators, checksum: item.sha256.map { .sha256(expected: $0) },
                                progress: progress, resumesPartialFile: resumes)
                            return (index, .success(result))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                for index in windows.start() { start(index) }
                var results = [Result<DownloadResult, HTTPError>?](repeating: nil, count: list.items.count)
                while let (index, result) = await group.next() {
                    results[index] = result
                    if !Task.isCancelled, let next = windows.finished(index) { start(next) }
                }
                for index in windows.neverStarted {
                    results[index] = .failure(HTTPError(request: list.items[index].url, reason: .cancelled))
                }
                return results.map { $0! }
            }
        }

        /// Prints the summary on standard output and the failures; exits 1 if any failed or a list line was bad, 130
        /// if interrupted.
        private func report(
            _ list: FetchList, _ outcomes: [Result<DownloadResult, HTTPError>], interrupted: Bool
        ) throws {
            var fetched = 0
            var unchanged = 0
            var bytes: Int64 = 0
            var failures: [String] = []
            var cancelled = 0
            for (item, outcome) in zip(list.items, outcomes) {
                switch outcome {
                case .success(let result):
                    if result.outcome == .unchanged {
                        unchanged += 1
                    } else {
                        fetched += 1
                        bytes += result.size
                    }
                case .failure(let error) where error.isCancelled:
                    cancelled += 1
                case .failure(let error):
                    failures.append("\(item.name): \(error)")
                }
            }
            var line = "fetched \(fetched) (\(ByteCount.text(bytes))), unchanged \(unchanged), failed \(failures.count)"
            if list.badLines > 0 { line += ", bad lines \(list.badLines)" }
            if list.duplicates > 0 { line += ", listed twice \(list.duplicates)" }
            if cancelled > 0 { line += ", stopped \(cancelled)" }
            print(line)
            for failure in failures { print("  " + TerminalText.visible(failure)) }
            if interrupted {
                FileHandle.standardError.write(
                    Data("stopped; partial files are kept: run the same command with --resume to continue\n".utf8))
                throw ExitCode(130)
            }
            if !failures.isEmpty || list.badLines > 0 { throw ExitCode(1) }
        }
    }
#endif
