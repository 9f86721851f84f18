import Switchyard

/// Where a ``GTFSImporter`` writes: the database side of an import, behind one job graph.
///
/// The importer owns everything that does not depend on the database: the reader jobs, the channel of batches
/// between them and the writer, progress, cancellation, the order of the finishing steps and the summary's
/// assembly. A destination owns its connections and SQL: the import record, transactions of whole batches, indexes,
/// checks. ``SQLiteDestination`` is the default; `SwitchyardPostgres` adds PostgreSQL.
///
/// ## Contract
/// - The importer calls, in this order: ``lock()``; ``prepare(_:options:)``; ``write(_:committed:)`` (once, while
///   readers fill the channel); ``index(_:present:)`` for ``ImportIndexStep/smallTables``, then
///   ``ImportIndexStep/stopTimes`` **at the same time as** ``check(_:present:)`` of
///   ``ImportCheckStage/beforeLargeIndexes``; the other check stage; ``complete(checks:)``. Once `prepare` has
///   succeeded, ``end(_:restarting:problemExamples:seconds:)`` is always called last, when no other call runs any
///   more. Every other call runs alone.
/// - **Whole batches**: a batch's rows, its problems and its file's record commit together or not at all, so a
///   crash at any moment leaves whole batches and a resume continues after the last one.
/// - **Cancellation**: a method returns or throws `CancellationError` soon after its task is cancelled (at the
///   next batch or statement); ``end(_:restarting:problemExamples:seconds:)`` runs in a task that is not cancelled.
/// - **Errors**: what a method throws is an ``ImportError`` naming the destination (or `CancellationError`), so
///   the importer reports it as is.
@_spi(ImportDestinations)
public protocol ImportDestination: Sendable {
    /// Names the destination in job names, errors and the summary: a database's path, or a server's URL without
    /// its password.
    var name: String { get }

    /// Takes the destination's import lock, waiting at most a moment: a second import into the same destination,
    /// in this process or another, fails with ``ImportError/Kind/databaseBusy``. Held until the returned lock's
    /// ``ImportDestinationLock/release()``.
    func lock() async throws -> any ImportDestinationLock

    /// Creates the import record (``ImportOptions/Mode/new``, ``ImportOptions/Mode/replace`` after removing what
    /// the destination held) or checks it (``ImportOptions/Mode/resume``: same feed, same record version), and
    /// returns every file's committed state with the options the load runs with (a resume keeps the batch size
    /// and encoding the import began with).
    func prepare(_ feed: GTFSFeed, options: ImportOptions) async throws -> ImportPlan

    /// Commits the batches `batches` delivers, in order, each whole: a transaction holds one batch, or several
    /// consecutive batches of one file (a destination whose commits cost round trips may group them), and the
    /// file's table is created first, or extended by the batch's extra columns. Calls `committed` for each batch,
    /// in order, after the transaction holding it commits; returns when the channel finishes, and throws what the
    /// channel failed with or what `committed` threw (the transaction in progress then rolls back).
    func write(_ batches: BoundedChannel<RowBatch>, committed: @escaping @Sendable (RowBatch) throws -> Void)
        async throws

    /// Builds the indexes of `step` on the tables in `present`; ``ImportIndexStep/smallTables`` also records the
    /// import's state as ``ImportState/indexing``. Idempotent: a resumed import builds what is missing.
    func index(_ step: ImportIndexStep, present: Set<GTFSFile>) async throws

    /// Runs the checks of `stage` (``FeedChecks/references`` and ``FeedChecks/keys``) on the tables in `present`,
    /// in a fixed order, reading only (it may run beside ``index(_:present:)``).
    func check(_ stage: ImportCheckStage, present: Set<GTFSFile>) async throws -> [ImportSummary.Check]

    /// Replaces the recorded checks with `checks` and records the import as ``ImportState/complete``, in one
    /// transaction.
    func complete(checks: [ImportSummary.Check]) async throws

    /// Records how the import ended (a `state` other than complete), forgets the rows of `corrupt` (a file whose
    /// archive entry was found corrupt, so a resume reads it again), and reads the summary back from the record,
    /// with the error that kept `corrupt`'s rows in if removing them failed.
    func end(_ state: ImportState, restarting corrupt: GTFSFile?, problemExamples: Int, seconds: Double)
        async throws -> (summary: ImportSummary, restartFailure: (any Error)?)

    /// An error of this destination's driver (a statement's, a connection's) as an ``ImportError`` naming the
    /// destination, or `CancellationError` for a statement stopped because its task was cancelled; other errors as
    /// they are.
    func describe(_ error: any Error) -> any Error
}

/// An import lock taken by ``ImportDestination/lock()``. Releasing it twice is harmless.
@_spi(ImportDestinations)
public protocol ImportDestinationLock: Sendable {
    /// Lets another import in; returns once another import can take the lock.
    func release() async
}

/// What ``ImportDestination/prepare(_:options:)`` found: the committed state of every file, and the options the
/// load runs with.
@_spi(ImportDestinations)
public struct ImportPlan: Sendable {
    /// Every file's committed state, in import order (ignored files last).
    public var files: [ImportFileRecord]
    /// The options the load runs with.
    public var options: ImportOptions

    public init(files: [ImportFileRecord], options: ImportOptions) {
        self.files = files
        self.options = options
    }
}

/// The indexes the importer asks for, in order: the small tables' first (the checks need the parents' keys), then
/// the large `stop_times` index with the destination's statistics.
@_spi(ImportDestinations)
public enum ImportIndexStep: Sendable, Hashable {
    /// ``FeedChecks/smallIndexes``.
    case smallTables
    /// ``FeedChecks/largeIndexes``, then the query planner's statistics.
    case stopTimes
}
