#if CLI && Images
    import ArgumentParser
    import Foundation
    import Switchyard
    import SwitchyardDashboard
    import SwitchyardHTTP
    import SwitchyardImages
    import Synchronization

    /// One run of `switchyard thumbnails`: expands the sources, skips the up-to-date outputs, makes the others
    /// through an ``ImagePipeline`` (its width: `--parallel`), writes each output atomically, reports.
    struct ThumbnailsRun {
        let command: ThumbnailsCommand

        /// What happened to one source.
        enum Outcome: Sendable {
            /// Made and written; `key` is the manifest's record of its source, read before it was decoded, and
            /// `version` a URL source's version.
            case made(key: String?, version: ImageVersion?)
            case upToDate
            case failed(String)
            case stopped
        }

        func run() async throws {
            ImagePipeline.limitMallocArenas(to: 2)
            let format: ImageFormat = command.format == "jpg" ? .jpeg : ImageFormat(rawValue: command.format)!
            if let problem = await ImagePipeline.libvipsProblem() {
                FileHandle.standardError.write(Data("error: \(problem)\n".utf8))
                throw ExitCode(2)
            }
            guard format.isAvailable else {
                FileHandle.standardError.write(Data("error: the installed libvips cannot write \(format)\n".utf8))
                throw ExitCode(2)
            }
            let expansion: ThumbnailJobs.Expansion
            do {
                // Reads the list and walks the folders: blocking, on the blocking executor.
                let (sources, listFile) = (command.sources, command.input)
                expansion = try await BlockingExecutor.shared.run {
                    try ThumbnailJobs.expand(sources, listFile: listFile, format: format)
                }
            } catch let failure as ThumbnailJobs.Failure {
                FileHandle.standardError.write(Data("error: \(failure)\n".utf8))
                throw ExitCode(2)
            }
            let jobs = expansion.jobs
            let out = command.out
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let options = ThumbnailOptions(
                width: command.size, fit: ThumbnailOptions.Fit(rawValue: command.fit)!, format: format,
                quality: command.quality)
            var manifest = ThumbnailManifest.load(from: out)
            let session = HTTPSession(configuration: .init(name: "thumbnails"))
            let pipeline = ImagePipeline(
                configuration: .init(
                    name: "thumbnails", width: command.parallel ?? WorkQueue.defaultWidth, memoryCacheCost: 0,
                    session: session))
            let dashboardSource = WorkQueuesSource(
                id: "thumbnails", queues: { [pipeline.queue, pipeline.downloadQueue] + session.hostQueues() })
            if let url = try await command.dashboard.start([dashboardSource]) {
                FileHandle.standardError.write(Data("Dashboard: \(url)\n".utf8))
            }
            let done = ThumbnailCounter()
            let known = manifest
            let work = Task {
                await Self.make(
                    jobs, options: options, into: out, pipeline: pipeline, manifest: known, done: done,
                    window: 2 * pipeline.configuration.width)
            }
            let interrupts = InterruptHandler(notice: InterruptNotice(), stopping: "stopping the thumbnails") {
                work.cancel()
            }
            let started = ContinuousClock.now
            let drawing = Task { await ThumbnailProgress(done: done, total: jobs.count).run() }
            let outcomes = await work.value
            drawing.cancel()
            await drawing.value
            withExtendedLifetime(interrupts) {}
            await pipeline.shutdown()
            try? await session.shutdown()
            for (job, outcome) in zip(jobs, outcomes) {
                if case .made(let key?, let version) = outcome {
                    manifest.outputs[job.output] = key
                    manifest.versions = manifest.versions ?? [:]
                    manifest.versions?[job.output] = version
                }
            }
            let (saved, html) = (manifest, command.html)
            _ = try? await BlockingExecutor.shared.run {
                try? saved.save(to: out)
                if html { try? ThumbnailGallery.write(jobs, outcomes, to: out) }
            }
            try report(
                jobs, outcomes, ignored: expansion.ignored, seconds: (ContinuousClock.now - started) / .seconds(1),
                interrupted: work.isCancelled)
        }

        /// Makes every job's thumbnail, results in the jobs' order. At most `window` sources are in flight at once
        /// (the pipeline's width renders, the rest downloaded or waiting), so memory does not grow with the number
        /// of sources: a list of a million URLs holds `window` downloaded images at most, not all of them.
        private static func make(
            _ jobs: [ThumbnailJob], options: ThumbnailOptions, into out: String, pipeline: ImagePipeline,
            manifest: ThumbnailManifest, done: ThumbnailCounter, window: Int
        ) async -> [Outcome] {
            await withTaskGroup(of: (Int, Outcome).self) { group in
                var outcomes = [Outcome](repeating: .stopped, count: jobs.count)
                for (index, job) in jobs.enumerated() {
                    if index >= window, let (finished, outcome) = await group.next() { outcomes[finished] = outcome }
                    if Task.isCancelled { break }  // the rest stay `.stopped`
                    group.addTask {
                        defer { done.increment() }
                        return (index, await make(job, options: options, into: out, pipeline: pipeline, manifest))
                    }
                }
                for await (index, outcome) in group { outcomes[index] = outcome }
                return outcomes
            }
        }

        private static func make(
            _ job: ThumbnailJob, options: ThumbnailOptions, into out: String, pipeline: ImagePipeline,
            _ manifest: ThumbnailManifest
        ) async -> Outcome {
            let path = out + "/" + job.output
            // Read before decoding: a source changed during the render is then seen as changed by the next run.
            let key = ThumbnailManifest.key(job.source, options)
            if manifest.isUpToDate(job, key: key, path: path) { return .upToDate }
            do throws(ImageError) {
                let thumbnail: Thumbnail
                if case .url(let url) = job.source, let version = manifest.version(of: job, key: key, path: path) {
                    // Asked of the server: a 304 (or the same bytes, when it sends no validator) is up to date.
                    guard let changed = try await pipeline.thumbnail(ofURL: url, options, unlessStill: version) else {
                        return .upToDate
                    }
                    thumbnail = changed
                } else {
                    thumbnail = try await pipeline.thumbnail(of: job.source, options)
                }
                if Task.isCancelled { return .stopped }
                // Off the cooperative pool: the write waits for the disk.
                let bytes = thumbnail.bytes
                let written = try? await BlockingExecutor.shared.run {
                    Result { () throws(ImageError) in try ThumbnailManifest.writeAtomically(bytes, to: path) }
                }
                guard let written else { return .stopped }  // cancelled before it was written
                try written.get()
                return .made(key: key, version: thumbnail.sourceVersion)
            } catch {
                return error.reason == .cancelled ? .stopped : .failed(error.description)
            }
        }

        /// The summary on standard output, then each failure on a line of its own, then which source each output
        /// came from where sources would have shared an output name (``ThumbnailJobs``; every one, grouped by that
        /// name, in the sources' order), then the files of folders left out (the first few); exit 1 if any failed,
        /// 130 if stopped.
        private func report(
            _ jobs: [ThumbnailJob], _ outcomes: [Outcome], ignored: [String], seconds: Double, interrupted: Bool
        ) throws {
            var made = 0
            var upToDate = 0
            var stopped = 0
            var failures: [String] = []
            for outcome in outcomes {
                switch outcome {
                case .made: made += 1
                case .upToDate: upToDate += 1
                case .stopped: stopped += 1
                case .failed(let why): failures.append(why)
                }
            }
            var line = "made \(made), up to date \(upToDate), failed \(failures.count)"
            if stopped > 0 { line += ", stopped \(stopped)" }
            line += String(format: " in %.1f s", seconds)
            if made > 0, seconds > 0 { line += String(format: " (%.1f images/s)", Double(made) / seconds) }
            print(line)
            for failure in failures { print("  " + TerminalText.visible(failure)) }
            // By the name they would have shared, then in the sources' order: (name in lower case, job's index).
            let shared = jobs.indices.compactMap { index in jobs[index].sharedOutput.map { ($0.lowercased(), index) } }
            if !shared.isEmpty {
                print("sources that would have shared an output name:")
                for (_, index) in shared.sorted(by: <) {
                    print("  " + TerminalText.visible("\(jobs[index].name) → \(jobs[index].output)"))
                }
            }
            if !ignored.isEmpty {
                let shown = ignored.prefix(5).map(TerminalText.visible).joined(separator: ", ")
                let more = ignored.count > 5 ? ", and \(ignored.count - 5) more" : ""
                let files = ignored.count == 1 ? "file" : "files"
                print("left out \(ignored.count) \(files) without an image extension: \(shown)\(more)")
            }
            if interrupted {
                FileHandle.standardError.write(
                    Data("stopped; no partial output is left: run the same command to finish\n".utf8))
                throw ExitCode(130)
            }
            if !failures.isEmpty { throw ExitCode(1) }
        }
    }

    /// Live progress on standard error: one line redrawn on a terminal, a line every 2 s otherwise.
    /// How many sources are done, counted from any task.
    final class ThumbnailCounter: Sendable {
        private let count = Atomic<Int>(0)
        func increment() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    struct ThumbnailProgress {
        let done: ThumbnailCounter
        let total: Int

        func run() async {
            let isTerminal = isatty(STDERR_FILENO) == 1
            let interval: Duration = isTerminal ? .milliseconds(200) : .seconds(2)
            let started = ContinuousClock.now
            var drawn = false
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let count = done.value
                let seconds = (ContinuousClock.now - started) / .seconds(1)
                let line = String(
                    format: "%d/%d images, %.1f images/s", count, total, Double(count) / max(seconds, 0.001))
                FileHandle.standardError.write(
                    Data(((isTerminal ? "\r\u{1B}[2K" : "") + line + (isTerminal ? "" : "\n")).utf8))
                drawn = isTerminal
            }
            if drawn { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
        }
    }
#endif
