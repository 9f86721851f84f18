import Switchyard

// The import's end, once no job of it runs any more: its state recorded in the database, and its summary read back.

extension GTFSImporter {
    /// Records how the import ended (`state`), takes the rows read from `corrupt` (a file whose zip entry was found
    /// corrupt) back out so that a resume reads it again, and returns the summary, with the error that kept those
    /// rows in if removing them failed. Runs even when the caller is cancelled; throws when recording the state or
    /// reading the summary fails.
    func record(
        _ state: ImportState, restarting corrupt: GTFSFile?, started: ContinuousClock.Instant
    ) async throws -> (summary: ImportSummary, restartFailure: (any Error)?) {
        let summary: ImportSummary
        let restartFailure: (any Error)?
        (summary, restartFailure) = try await detached { [self] in
            let database = try SQLiteConnection(path: databasePath)
            if state != .complete { try ImportRecord.setState(database, state) }
            var restartFailure: (any Error)?
            if let corrupt {
                do { try ImportRecord.restart(database, file: corrupt) } catch { restartFailure = error }
            }
            return (try summarize(database, seconds: seconds(since: started)), restartFailure)
        }
        return (summary, restartFailure)
    }

    /// The summary, from the import record.
    private func summarize(_ database: SQLiteConnection, seconds: Double) throws -> ImportSummary {
        let header = try ImportRecord.header(database)
        let states = try ImportRecord.files(database)
        let files = try states.filter { $0.state != .ignored }.map { state in
            ImportSummary.File(
                name: state.file, records: state.records, imported: state.imported, skipped: state.skipped,
                warnings: state.warnings, isComplete: state.state == .complete, ignoredColumns: state.ignoredColumns,
                problems: try ImportRecord.problems(
                    database, file: state.file, severity: .error, limit: options.problemExamples),
                counts: try ImportRecord.counts(database, file: state.file))
        }
        return ImportSummary(
            state: header?.state ?? .failed, database: databasePath, files: files,
            ignoredFiles: states.filter { $0.state == .ignored }.map(\.file),
            checks: try FeedChecks.recorded(database), seconds: seconds)
    }
}

/// Runs `body` on the blocking executor in a task of its own, so it runs even when the caller is cancelled
/// (recording an interruption must not itself be interrupted).
private func detached<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await Task.detached { try await BlockingExecutor.shared.run(body) }.value
}

/// The time since `start`, in seconds.
private func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
