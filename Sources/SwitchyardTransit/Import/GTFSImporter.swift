import Switchyard
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Imports a GTFS feed into an SQLite database in the background, on the work engine: the transit-data import of
/// objc.io issue #2, "Common Background Practices", done for real.
/// (`SwitchyardPostgres` adds `init(feed:postgres:options:)`: the same job into a PostgreSQL schema.)
///
/// ```swift
/// let importer = GTFSImporter(feed: try GTFSFeed.open("vbb.zip"), database: "vbb.sqlite")
/// Task { for await progress in importer.progressUpdates() { render(progress) } }
/// let summary = try await importer.run()          // cancel the task to stop at the next batch boundary
/// ```
///
/// ## The pipeline
/// Jobs on one `WorkQueue` (named `import <database>`, visible in its snapshot):
/// `prepare` (opens the database, creates or checks the import record) → one `read <file>` blocking job per file,
/// each after the previous one, streaming the file's records out of the zip in fixed memory and converting them
/// into batches of `batchSize` rows → a `BoundedChannel` of `bufferedBatches` batches (back-pressure: the reader
/// waits while the writer is behind) → one `write` blocking job committing each batch in its own transaction →
/// `index` → `check`. Reading the next file overlaps writing the previous one's last batches.
///
/// ## Guarantees
/// - **One import per database**: an import holds `<database>.lock` (an `flock`, released by the kernel however the
///   process ends) from before it touches the database until `run` returns; a second import into the same
///   database, in this process or another, fails within a tenth of a second with ``ImportError/Kind/databaseBusy``.
/// - **Whole batches**: each batch's rows, its skipped records and the file's import record are committed in one
///   transaction (WAL journal, `synchronous=NORMAL`). Cancelling, an error, or a killed process leaves whole
///   batches only; readers (`switchyard status`) see the row counts grow batch by batch, never an error.
/// - **Cancellation** (cancel the task calling `run`): the reader and writer stop at the next batch boundary, the
///   index and check statements within 1,000 SQLite instructions (rolled back), the import is recorded as
///   `interrupted`, and `run` returns its summary once no job of the import runs any more.
///   ``ImportOptions/Mode/resume`` continues after the last committed record; the tables then hold exactly what an
///   uninterrupted import writes.
/// - **Nothing is dropped silently**: a record is skipped only when a required value (a key, or a value that gives
///   the record its meaning: ``GTFSField/isRequired``) is missing or invalid, or its quoting cannot be delimited
///   (every record of an optional file whose header lacks a required field; a required file's header lacking one
///   fails the import). Every quirk a mainstream consumer tolerates is imported with a warning, and so are the
///   values the reference requires but a record is usable without (``GTFSField/isExpected``: an `agency_name`, a
///   `route_type`), stored as NULL when empty, invalid or absent from the header.
///   Both are counted per file and kind (`_switchyard_import_counts`) and listed with line, field and severity
///   (`_switchyard_import_problems`: every skipped record, the first warnings of each kind), in the same
///   transaction as the rows.
/// - **Memory**: O(`batchSize × (bufferedBatches + 2)`) rows plus SQLite's cache, whatever the feed's size.
///
/// Thread-safe: `progress` and `progressUpdates` may be read from anywhere while `run` runs; call `run` once.
public final class GTFSImporter: Sendable {
    /// The feed being imported.
    public let feed: GTFSFeed
    /// The SQLite database written (for another destination, its name: a PostgreSQL URL without its password).
    public let databasePath: String
    /// Where the rows go.
    let destination: any ImportDestination
    /// How the import runs.
    public let options: ImportOptions
    /// The queue the import's jobs run on (inspect it with `snapshot()` or `print(queue)`).
    public let queue: WorkQueue
    let board = ProgressBoard()
    /// Called with each batch once its transaction committed (the import's metrics), or nil.
    let committed: (@Sendable (RowBatch) -> Void)?
    #if SWITCHYARD_TEST_HOOKS
        /// Test hook (debug builds only): runs in the `index stop_times` job just before its first statement (a
        /// Ctrl-C while the largest index is being built).
        let beforeLargeIndexes: (@Sendable () -> Void)?
    #endif

    /// Prepares an import of `feed` into the database at `database` (created if missing).
    public convenience init(feed: GTFSFeed, database: String, options: ImportOptions = ImportOptions()) {
        self.init(feed: feed, destination: SQLiteDestination(path: database), options: options)
    }

    /// Prepares an import of `feed` into `destination` (see ``ImportDestination``).
    @_spi(ImportDestinations)
    public convenience init(
        feed: GTFSFeed, destination: any ImportDestination, options: ImportOptions = ImportOptions()
    ) {
        self.init(feed: feed, destination: destination, options: options, beforeLargeIndexes: nil)
    }

    init(
        feed: GTFSFeed, destination: any ImportDestination, options: ImportOptions,
        beforeLargeIndexes: (@Sendable () -> Void)?, committed: (@Sendable (RowBatch) -> Void)? = nil
    ) {
        self.committed = committed
        self.feed = feed
        self.destination = destination
        databasePath = destination.name
        self.options = options
        #if SWITCHYARD_TEST_HOOKS
            self.beforeLargeIndexes = beforeLargeIndexes
        #endif
        queue = WorkQueue(name: "import \(destination.name)", width: 4)
    }

    /// The progress now.
    public var progress: ImportProgress { board.snapshot }

    /// Progress, throttled by the work engine (at most every `interval`, and only when the bytes read moved by
    /// `minimumChange` of the feed). The stream ends after a last snapshot (phase `finished`) when `run` returns
    /// or throws; a stream made after that gets the last snapshot only.
    public func progressUpdates(
        interval: Duration = .milliseconds(100), minimumChange: Double = 0.001
    ) -> AsyncStream<ImportProgress> {
        let updates = queue.progressUpdates(interval: interval, minimumChange: minimumChange)
        let board = board
        return AsyncStream(bufferingPolicy: .bufferingNewest(16)) { continuation in
            guard let key = board.observe(continuation) else { return }
            let forwarding = Task {
                for await _ in updates { continuation.yield(board.snapshot) }
            }
            continuation.onTermination = { _ in
                forwarding.cancel()
                board.stopObserving(key)
            }
        }
    }

    /// Runs the import and returns its summary. Returns (rather than throws) when cancelled: the summary's state
    /// is then `interrupted`.
    ///
    /// - Throws: ``ImportError`` for a database another import is writing (`databaseBusy`: imports into one
    ///   database exclude each other through `<database>.lock`), a database that already holds an import (mode
    ///   `.new`), a resume that does not match, a required file missing or lacking a required field, a file in UTF-16, a skipped
    ///   record with `strict`, more skipped records than ``ImportOptions/maximumSkipped``, a corrupt archive or a
    ///   database error; the import is then recorded as `failed` (if it got as far as creating its record).
    public func run() async throws -> ImportSummary {
        let started = ContinuousClock.now
        let lock: any ImportDestinationLock
        do {
            lock = try await destination.lock()
        } catch {
            board.finish(.failed)
            throw importError(from: error, in: .running)
        }
        // Held until the summary is recorded, and released before `run` returns (awaited: an import started right
        // after this one returned must find it free).
        let result: Result<ImportSummary, any Error>
        do {
            result = .success(try await runLocked(started: started))
        } catch {
            result = .failure(error)
        }
        await lock.release()
        return try result.get()
    }

    /// The import, once its lock is held.
    private func runLocked(started: ContinuousClock.Instant) async throws -> ImportSummary {
        let prepared: ImportPlan
        do {
            prepared = try await queue.submit("prepare \(databasePath)") { [destination, feed, options] in
                try await destination.prepare(feed, options: options)
            }.value
        } catch {
            board.finish(.failed)
            throw importError(from: error, in: .running)
        }
        var outcome: (any Error)?
        do {
            try await load(prepared.files, options: prepared.options)
            try checkSkipped()
            try await finishLoad()
        } catch {
            outcome = error
        }
        let state: ImportState
        if outcome == nil {
            state = .complete
        } else if outcome is CancellationError || Task.isCancelled {
            state = .interrupted
        } else {
            state = .failed
        }
        queue.cancelAll()
        // Jobs still running stop at their next batch boundary or cancellation check: none touches the database
        // once `run` returns.
        await queue.waitUntilIdle()
        // A failure to record the end, or a restart that fails, turns any ending into a failure.
        var ending = state
        defer { board.finish(ending) }
        let recorded: (summary: ImportSummary, restartFailure: (any Error)?)
        do {
            let corrupt = (outcome.map { importError(from: $0, in: .running) } as? CorruptEntry)?.file
            recorded = try await record(state, restarting: corrupt, started: started)
        } catch {
            ending = .failed
            throw importError(from: error, in: .recording(state, outcome: outcome))
        }
        if state == .failed, let outcome {
            ending = .failed
            throw importError(from: outcome, in: .failed(restartFailure: recorded.restartFailure))
        }
        return recorded.summary
    }

    /// With ``ImportOptions/maximumSkipped``: fails once every file is loaded if more records were skipped.
    private func checkSkipped() throws {
        guard let limit = options.maximumSkipped else { return }
        let files = board.snapshot.files
        let records = files.reduce(0) { $0 + $1.recordsRead }
        let skipped = files.reduce(0) { $0 + $1.skipped }
        guard limit.isExceeded(skipped: skipped, records: records) else { return }
        let worst = files.filter { $0.skipped > 0 }.map { "\($0.name) \($0.skipped)" }.joined(separator: ", ")
        throw ImportError(
            .tooManySkipped,
            """
            \(skipped) of \(records) records were skipped (\(worst)), more than --max-skipped \(limit) allows; \
            they are listed in _switchyard_import_problems, and the rows imported stay committed
            """, file: feed.path)
    }

    // MARK: Errors

    /// Where in the import an error given to ``importError(from:in:)`` arose, which decides what it becomes.
    private enum ErrorStage {
        /// Any step of the import as it runs: taking the lock, preparing, reading, writing, indexing, checking.
        case running
        /// The import ended as `failed` with this error; `restartFailure` is why the rows of a corrupt entry could
        /// not be removed, if they could not.
        case failed(restartFailure: (any Error)?)
        /// Recording how the import ended (`state`, after `outcome` when one ended it) failed with this error.
        case recording(ImportState, outcome: (any Error)?)
    }

    /// The one place where an error becomes what `run` throws, or what a step passes on: job errors taken off, a
    /// destination's driver errors described (``ImportFailure/unwrap(_:destination:)``); then what `stage` makes of
    /// it.
    private func importError(from error: any Error, in stage: ErrorStage) -> any Error {
        switch stage {
        case .running:
            return ImportFailure.unwrap(error, destination: destination)
        case .failed(let restartFailure):
            let underlying = ImportFailure.unwrap(error, destination: destination)
            if let restartFailure, let corrupt = underlying as? CorruptEntry {
                let kept = ImportFailure.unwrap(restartFailure, destination: destination)
                return ImportError(
                    corrupt.error.kind,
                    "\(corrupt.error.reason) (its rows could not be removed: \(kept); import again with --replace)",
                    file: corrupt.error.file, line: corrupt.error.line)
            }
            let reported = ImportFailure.reported(underlying)
            // Nobody asked to stop, so this must not read as an interruption (the CLI would say "nothing written").
            if reported is CancellationError {
                return ImportError(.database, "\(databasePath): the import stopped: a step was cancelled (\(error))")
            }
            return reported
        case .recording(let state, let outcome):
            // Recording the end failed too (a full disk, say): report the import's own failure first, and never
            // let the bookkeeping error hide it or lose the database's name.
            let bookkeeping = ImportFailure.unwrap(error, destination: destination)
            if state == .failed, let outcome,
                let failure = ImportFailure.reported(ImportFailure.unwrap(outcome, destination: destination))
                    as? ImportError
            {
                return ImportError(
                    failure.kind, "\(failure.reason) (recording the failure failed too: \(bookkeeping))",
                    file: failure.file, line: failure.line)
            }
            let what =
                switch state {
                case .complete: "every row was committed, but reading the summary failed"
                case .failed:
                    "the import failed (\(outcome.map { "\($0)" } ?? "no error")), and recording that failed too"
                default: "the import was interrupted, and recording that failed; run again with --resume"
                }
            return ImportError(.database, "\(databasePath): \(what): \(bookkeeping)")
        }
    }

    // MARK: Steps

    /// Reads every incomplete file and writes its batches.
    private func load(_ states: [ImportFileRecord], options: ImportOptions) async throws {
        let byName = Dictionary(states.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        let files = GTFSFile.allCases.filter { feed.files[$0] != nil }
        let counters = files.map { _ in ByteCounter() }
        board.setFiles(
            files.enumerated().map { index, file in
                (file.fileName, Int64(feed.files[file]!.size), counters[index], byName[file.fileName])
            })
        board.setPhase(.loading)
        let pending = files.enumerated().filter { byName[$0.element.fileName]?.state != .complete }
        guard !pending.isEmpty else { return }
        let channel = BoundedChannel<RowBatch>(capacity: options.bufferedBatches, name: "batches \(databasePath)")
        try await withTaskCancellationHandler {
            let writer = try await queue.submit("write \(databasePath)") { [self] in
                do {
                    try await write(from: channel)
                } catch {
                    channel.fail(error)
                    throw error
                }
            }
            var previous: Job<Void, any Error>?
            var readers: [Job<Void, any Error>] = []
            for (index, file) in pending {
                let job = FileReaderJob(
                    file: file, feed: feed, counter: counters[index],
                    resumeAfterLine: byName[file.fileName]?.lastLine ?? 0, options: options, channel: channel,
                    board: board)
                let jobOptions = previous.map { JobOptions().after($0) } ?? JobOptions()
                let reader = try await queue.submitBlocking("read \(file.fileName)", options: jobOptions) {
                    () throws(any Error) in
                    do {
                        try job.run()
                    } catch {
                        channel.fail(error)
                        throw error
                    }
                }
                readers.append(reader)
                previous = reader
            }
            for reader in readers {
                if case .failure(let error) = await reader.result {
                    channel.fail(importError(from: error, in: .running))
                    _ = await writer.result
                    throw importError(from: error, in: .running)
                }
            }
            channel.finish()
            if case .failure(let error) = await writer.result {
                throw importError(from: error, in: .running)
            }
        } onCancel: {
            channel.fail(CancellationError())
        }
        try Task.checkCancellation()
    }

    /// The writer job's body: the destination commits batches until the channel finishes, and the board counts
    /// each commit.
    private func write(from channel: BoundedChannel<RowBatch>) async throws {
        let board = board
        let reported = committed
        #if SWITCHYARD_TEST_HOOKS
            let limit = options.interruptAfterBatches
            let written = Atomic<Int>(0)
            if limit == 0 { throw CancellationError() }
        #endif
        try await destination.write(channel) { batch in
            board.committed(batch)
            reported?(batch)
            #if SWITCHYARD_TEST_HOOKS
                // Stops before the next batch, as a cancellation would.
                if let limit, written.add(1, ordering: .relaxed).newValue >= limit { throw CancellationError() }
            #endif
        }
    }
}
