/// Where an import stands, as its record in the database says. The raw values are what the database stores, what the
/// JSON output prints (`"state": "complete"`) and what `switchyard status` shows.
public enum ImportState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Files are being loaded; also what a killed import leaves (`--resume` continues it).
    case loading
    /// Every file is loaded; the indexes are being built and the reference and duplicate-key checks run.
    case indexing
    /// Every file loaded, indexed and checked.
    case complete
    /// Cancelled (Ctrl-C, a task's cancellation): the committed batches stay, `--resume` continues.
    case interrupted
    /// Stopped by an error: the committed batches stay, `--resume` continues once the cause is fixed.
    case failed

    public var description: String { rawValue }
}

/// Where one file of an import stands.
public enum ImportFileState: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Not started (or started over: a file whose earlier rows were discarded).
    case pending
    /// Some batches committed.
    case loading
    /// Every record committed.
    case complete
    /// In the feed but not imported (not a GTFS table, or outside the feed's folder); listed apart from the imported
    /// files.
    case ignored

    public var description: String { rawValue }
}
