import Switchyard

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

    /// How the text of a feed's files is decoded.
    public enum Encoding: String, Sendable, Hashable, CaseIterable {
        /// UTF-8; a value that is not valid UTF-8 is decoded as Windows-1252 (value by value, so valid UTF-8 is
        /// never reinterpreted) and counted as a `not_utf8` warning.
        case automatic = "auto"
        /// UTF-8 only: a record holding invalid UTF-8 is skipped.
        case utf8 = "utf-8"
        /// Windows-1252: every byte above 0x7F is decoded as the Western European Windows code page.
        case windows1252 = "windows-1252"
        /// ISO 8859-1.
        case latin1 = "latin-1"

        var csvEncoding: CSVOptions.TextEncoding {
            switch self {
            case .automatic: .utf8OrWindows1252
            case .utf8: .utf8
            case .windows1252: .windows1252
            case .latin1: .latin1
            }
        }

        /// What text that is not UTF-8 is read as, in warnings.
        var decodedName: String { self == .latin1 ? "Latin-1" : "Windows-1252" }
    }

    /// How many skipped records an import tolerates before it counts as failed.
    public enum SkippedLimit: Sendable, Hashable, CustomStringConvertible {
        /// At most this many records skipped over the whole feed.
        case count(Int)
        /// At most this fraction (0…1) of the feed's records skipped.
        case fraction(Double)

        /// Whether `skipped` of `records` records is over the limit.
        public func isExceeded(skipped: Int, records: Int) -> Bool {
            switch self {
            case .count(let limit): skipped > limit
            case .fraction(let limit): records > 0 && Double(skipped) > limit * Double(records)
            }
        }

        public var description: String {
            switch self {
            case .count(let limit): String(limit)
            case .fraction(let limit): formatted(limit * 100, decimals: 3).trimmingTrailingZeros + "%"
            }
        }
    }

    /// The default rows per transaction. Larger batches do not load faster (WAL commits do not sync), so the
    /// default is small: small batches keep memory low, let `switchyard status` readers see progress often, and
    /// lose little work to an interruption.
    public static let defaultBatchSize = 5_000

    /// The largest batch size allowed: a million rows per transaction, far past the point where larger batches
    /// stop paying (see ``defaultBatchSize``), and a bound on what one batch can ask of memory.
    public static let maximumBatchSize = 1_000_000

    /// New, resume or replace.
    public var mode: Mode
    /// Rows per batch (1…``maximumBatchSize``): the unit of commit, of cancellation and of what a kill loses. A
    /// batch always commits whole; SQLite commits one per transaction, PostgreSQL up to 16 consecutive ones.
    public var batchSize: Int
    /// Whether the first record that would be skipped stops the import (`--strict`) instead of being skipped and
    /// reported. Warnings never stop it.
    public var strict: Bool
    /// Batches the reader may run ahead of the writer (≥ 1): the bound on the import's memory.
    public var bufferedBatches: Int
    /// How many skipped records per file the summary lists (all are in `_switchyard_import_problems`).
    public var problemExamples: Int
    /// How the files' text is decoded (default ``Encoding/automatic``).
    public var encoding: Encoding
    /// When set, an import that skips more records than this fails (``ImportError/Kind/tooManySkipped``) once
    /// every file is loaded, before indexing: the rows stay committed and listed, the state is `failed`.
    public var maximumSkipped: SkippedLimit?
    /// Where the feed was downloaded from, recorded with a new import (``ImportStatus/source``); `nil` for a local
    /// feed. A resumed import keeps the source recorded when it began.
    public var source: FeedSource?
    #if SWITCHYARD_TEST_HOOKS
        /// Test hook (debug builds only): the writer stops as if cancelled after committing this many batches (a
        /// Ctrl-C at a known batch boundary).
        var interruptAfterBatches: Int?
    #endif

    /// Options with the defaults above (a new import, batches of ``defaultBatchSize``, skipping malformed records).
    public init(
        mode: Mode = .new, batchSize: Int = ImportOptions.defaultBatchSize, strict: Bool = false,
        bufferedBatches: Int = 2, problemExamples: Int = 5, encoding: Encoding = .automatic,
        maximumSkipped: SkippedLimit? = nil, source: FeedSource? = nil
    ) {
        precondition(batchSize >= 1 && bufferedBatches >= 1, "ImportOptions: batchSize and bufferedBatches must be ≥ 1")
        precondition(
            batchSize <= ImportOptions.maximumBatchSize,
            "ImportOptions: batchSize must be ≤ \(ImportOptions.maximumBatchSize)")
        self.mode = mode
        self.batchSize = batchSize
        self.strict = strict
        self.bufferedBatches = bufferedBatches
        self.problemExamples = problemExamples
        self.encoding = encoding
        self.maximumSkipped = maximumSkipped
        self.source = source
    }
}

extension String {
    /// `12.500` → `12.5`, `3.000` → `3`.
    var trimmingTrailingZeros: String {
        guard contains(".") else { return self }
        var text = Substring(self)
        while text.last == "0" { text.removeLast() }
        if text.last == "." { text.removeLast() }
        return String(text)
    }
}
