/// How an import runs.
public struct ImportOptions: Sendable, Hashable {
    /// What to do with a database that already holds an import.
    public enum Mode: Sendable, Hashable {
        /// Start a new import; refuse a database that already holds one (or any GTFS table).
        case new
        /// Continue the interrupted import in the database, which must be of the same, unchanged feed.
        case resume
        /// Delete the database (and its WAL files) and start a new import.
        case replace
    }

    /// The default rows per transaction, chosen by `switchyard-bench import`'s batch-size sweep: from 1 000 to
    /// 100 000 rows per commit the load rate stays within the run-to-run noise (1.16–1.30 M rows/s, WAL commits
    /// do not sync), so the default is the smallest size in the best measured band — small batches keep memory
    /// low, let `switchyard status` readers see progress often, and lose little work to an interruption.
    public static let defaultBatchSize = 5_000

    /// The largest batch size allowed: a million rows per transaction, far past the point where larger batches
    /// stop paying (see ``defaultBatchSize``), and a bound on what one batch can ask of memory.
    public static let maximumBatchSize = 1_000_000

    /// New, resume or replace.
    public var mode: Mode
    /// Rows per transaction (1…``maximumBatchSize``): the unit of commit, of cancellation and of what a kill
    /// loses.
    public var batchSize: Int
    /// Whether a malformed record stops the import (`--strict`) instead of being skipped and reported.
    public var strict: Bool
    /// Batches the reader may run ahead of the writer (≥ 1): the bound on the import's memory.
    public var bufferedBatches: Int
    /// How many skipped records per file the summary lists (all are in `_switchyard_import_problems`).
    public var problemExamples: Int
    /// Test hook: the writer stops as if cancelled after committing this many batches (a Ctrl-C at a known batch
    /// boundary).
    var interruptAfterBatches: Int?

    /// Options with the defaults above (a new import, batches of ``defaultBatchSize``, skipping malformed records).
    public init(
        mode: Mode = .new, batchSize: Int = ImportOptions.defaultBatchSize, strict: Bool = false,
        bufferedBatches: Int = 2, problemExamples: Int = 5
    ) {
        precondition(batchSize >= 1 && bufferedBatches >= 1, "ImportOptions: batchSize and bufferedBatches must be ≥ 1")
        precondition(batchSize <= ImportOptions.maximumBatchSize, "ImportOptions: batchSize must be ≤ \(ImportOptions.maximumBatchSize)")
        self.mode = mode
        self.batchSize = batchSize
        self.strict = strict
        self.bufferedBatches = bufferedBatches
        self.problemExamples = problemExamples
    }
}
