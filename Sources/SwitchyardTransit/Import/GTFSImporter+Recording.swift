import Switchyard

// The import's end, once no job of it runs any more: its state recorded by the destination, and its summary read
// back.

extension GTFSImporter {
    /// Records how the import ended (`state`), takes the rows read from `corrupt` (a file whose zip entry was found
    /// corrupt) back out so that a resume reads it again, and returns the summary, with the error that kept those
    /// rows in if removing them failed. Runs in a task of its own, so it runs even when the caller is cancelled
    /// (recording an interruption must not itself be interrupted); throws when recording the state or reading the
    /// summary fails.
    func record(
        _ state: ImportState, restarting corrupt: GTFSFile?, started: ContinuousClock.Instant
    ) async throws -> (summary: ImportSummary, restartFailure: (any Error)?) {
        let destination = destination
        let examples = options.problemExamples
        return try await Task.detached {
            try await destination.end(
                state, restarting: corrupt, problemExamples: examples, seconds: seconds(since: started))
        }.value
    }
}

/// The time since `start`, in seconds.
private func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}
