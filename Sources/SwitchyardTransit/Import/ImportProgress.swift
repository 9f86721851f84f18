import Switchyard

/// A snapshot of a running import: the phase, and per file how far reading and committing have come.
public struct ImportProgress: Sendable, Hashable {
    /// What the import is doing.
    public enum Phase: String, Sendable, Hashable {
        /// Opening the database and the import record.
        case preparing
        /// Reading files and committing batches.
        case loading
        /// Building indexes (the first checks run meanwhile).
        case indexing
        /// Checking references and keys.
        case checking
        /// Done: complete, interrupted or failed (see the summary).
        case finished
    }

    /// One file's progress.
    public struct File: Sendable, Hashable {
        /// The GTFS file name, e.g. `stop_times.txt`.
        public var name: String
        /// Uncompressed bytes read so far (the reader runs up to two batches ahead of the commits).
        public var bytesRead: Int64
        /// The file's size in bytes (uncompressed).
        public var totalBytes: Int64
        /// Records committed or skipped (in this run and, for a resumed import, before it).
        public var recordsRead: Int
        /// Rows committed to the table (in this run and, for a resumed import, before it).
        public var rowsCommitted: Int
        /// Records skipped so far (see the summary for reasons).
        public var skipped: Int
        /// Warnings so far (about imported records and about the file).
        public var warnings: Int
        /// Whether every record of the file is committed.
        public var isComplete: Bool
        /// Rows committed by this run, and the seconds this run has spent on the file so far, from its first read
        /// to its last commit (for rows/s and ETA).
        public var rowsThisRun: Int
        /// See `rowsThisRun`.
        public var secondsThisRun: Double

        /// The fraction of the file read, 0...1.
        public var fraction: Double {
            isComplete ? 1 : (totalBytes > 0 ? min(1, Double(bytesRead) / Double(totalBytes)) : 0)
        }
    }

    /// The current phase.
    public var phase: Phase
    /// Once the phase is ``Phase/finished``: how the import ended (``ImportState/complete``,
    /// ``ImportState/interrupted`` or ``ImportState/failed``).
    public var outcome: ImportState?
    /// Every file to import, in import order.
    public var files: [File]
    /// Seconds since the import started.
    public var seconds: Double

    /// Bytes read over all files, as a fraction of the feed's size.
    public var fraction: Double {
        let total = files.reduce(Int64(0)) { $0 + $1.totalBytes }
        let done = files.reduce(Int64(0)) { $0 + ($1.isComplete ? $1.totalBytes : min($1.bytesRead, $1.totalBytes)) }
        return total > 0 ? Double(done) / Double(total) : 0
    }

    /// One JSON object, on one line: `{"progress": {"phase": …, "fraction": …, "seconds": …, "files": {…}}}`, a
    /// file's name as its key (escaped like every string: the names come from the feed's archive), `"outcome"`
    /// after the phase once finished. What `switchyard import --progress json` prints per update.
    public var json: String {
        (try? JSONLineEncoder.encode(self)) ?? "{}"  // strings, integers, booleans, fixed-point numbers: never throws
    }
}

extension ImportProgress: Encodable {
    private enum CodingKeys: String, CodingKey { case progress }
    private enum BodyKeys: String, CodingKey { case phase, outcome, fraction, seconds, files }
    private enum FileKeys: String, CodingKey {
        case bytes
        case totalBytes = "total_bytes"
        case rows, records, skipped, warnings, complete
    }

    /// The members of ``json``, in its order: the fraction to 4 decimals, seconds to 3.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var body = container.nestedContainer(keyedBy: BodyKeys.self, forKey: .progress)
        try body.encode(phase.rawValue, forKey: .phase)
        if let outcome { try body.encode(outcome.rawValue, forKey: .outcome) }
        try body.encode(FixedDecimal(value: fraction, decimals: 4), forKey: .fraction)
        try body.encode(FixedDecimal(value: seconds, decimals: 3), forKey: .seconds)
        var files = body.nestedContainer(keyedBy: NamedKey.self, forKey: .files)
        for file in self.files {
            var entry = files.nestedContainer(keyedBy: FileKeys.self, forKey: NamedKey(file.name))
            try entry.encode(file.bytesRead, forKey: .bytes)
            try entry.encode(file.totalBytes, forKey: .totalBytes)
            try entry.encode(file.rowsCommitted, forKey: .rows)
            try entry.encode(file.recordsRead, forKey: .records)
            try entry.encode(file.skipped, forKey: .skipped)
            try entry.encode(file.warnings, forKey: .warnings)
            try entry.encode(file.isComplete, forKey: .complete)
        }
    }
}

/// Where the reader and writer jobs post progress; read by anyone. O(1) per update under one small lock
/// (an `Isolated`, whose pthread-based lock Thread Sanitizer models).
final class ProgressBoard: Sendable {
    private struct State {
        var phase = ImportProgress.Phase.preparing
        var files: [ImportProgress.File] = []
        var index: [String: Int] = [:]
        var counters: [ByteCounter] = []
        var startedOnFile: [ContinuousClock.Instant?] = []
        var finishedOnFile: [ContinuousClock.Instant?] = []
        var observers: [UInt64: AsyncStream<ImportProgress>.Continuation] = [:]
        var nextObserver: UInt64 = 0
        var isFinished = false
        var outcome: ImportState?
    }

    private let state = Isolated(State(), label: "import progress")
    private let started = ContinuousClock.now

    func setFiles(_ files: [(name: String, size: Int64, counter: ByteCounter, done: ImportRecord.FileState?)]) {
        state.withValueBlocking { state in
            state.files = files.map { item in
                ImportProgress.File(
                    name: item.name, bytesRead: 0, totalBytes: item.size, recordsRead: item.done?.records ?? 0,
                    rowsCommitted: item.done?.imported ?? 0, skipped: item.done?.skipped ?? 0,
                    warnings: item.done?.warnings ?? 0,
                    isComplete: item.done?.state == .complete, rowsThisRun: 0, secondsThisRun: 0)
            }
            state.counters = files.map(\.counter)
            state.startedOnFile = Array(repeating: nil, count: files.count)
            state.finishedOnFile = Array(repeating: nil, count: files.count)
            state.index = Dictionary(uniqueKeysWithValues: files.enumerated().map { ($1.name, $0) })
        }
    }

    func setPhase(_ phase: ImportProgress.Phase) {
        state.withValueBlocking { $0.phase = phase }
    }

    /// Registers a stream to finish (after a last snapshot) when the import ends; returns its key, or nil if the
    /// import already ended (the stream then gets the last snapshot and finishes at once).
    func observe(_ continuation: AsyncStream<ImportProgress>.Continuation) -> UInt64? {
        let registered: UInt64? = state.withValueBlocking { state in
            guard !state.isFinished else { return nil }
            state.nextObserver += 1
            state.observers[state.nextObserver] = continuation
            return state.nextObserver
        }
        if registered == nil {
            continuation.yield(snapshot)
            continuation.finish()
        }
        return registered
    }

    func stopObserving(_ key: UInt64) {
        _ = state.withValueBlocking { $0.observers.removeValue(forKey: key) }
    }

    /// The import ended as `outcome` (`complete`, `interrupted`, `failed`): phase `finished`, and every progress
    /// stream gets the last snapshot and finishes. Only the first call counts.
    func finish(_ outcome: ImportState) {
        let observers = state.withValueBlocking { state in
            guard !state.isFinished else { return [AsyncStream<ImportProgress>.Continuation]() }
            state.phase = .finished
            state.outcome = outcome
            state.isFinished = true
            defer { state.observers.removeAll() }
            return Array(state.observers.values)
        }
        let last = snapshot
        for observer in observers {
            observer.yield(last)
            observer.finish()
        }
    }

    /// The writer committed `batch`.
    func committed(_ batch: RowBatch) {
        state.withValueBlocking { state in
            guard let index = state.index[batch.layout.file.fileName] else { return }
            let now = ContinuousClock.now
            if state.startedOnFile[index] == nil { state.startedOnFile[index] = now }
            state.files[index].recordsRead += batch.records
            state.files[index].rowsCommitted += batch.rowCount
            state.files[index].skipped += batch.skipped
            state.files[index].warnings += batch.warnings
            state.files[index].rowsThisRun += batch.rowCount
            state.files[index].isComplete = batch.isLast
            if batch.isLast { state.finishedOnFile[index] = now }
        }
    }

    /// The reader started on `file`.
    func startedReading(_ file: String) {
        state.withValueBlocking { state in
            guard let index = state.index[file] else { return }
            state.startedOnFile[index] = ContinuousClock.now
        }
    }

    var snapshot: ImportProgress {
        state.withValueBlocking { state in
            var files = state.files
            let now = ContinuousClock.now
            for index in files.indices {
                files[index].bytesRead = state.counters[index].current
                if let start = state.startedOnFile[index] {
                    let elapsed = (state.finishedOnFile[index] ?? now) - start
                    files[index].secondsThisRun =
                        Double(elapsed.components.seconds)
                        + Double(elapsed.components.attoseconds) / 1e18
                }
            }
            let elapsed = now - started
            return ImportProgress(
                phase: state.phase, outcome: state.outcome, files: files,
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
    }
}
