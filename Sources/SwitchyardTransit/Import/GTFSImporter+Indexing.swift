import Switchyard

// The import's last steps, after every file is loaded: indexes and checks, as a graph of jobs.

extension GTFSImporter {
    /// Indexes, checks, and the `complete` state, as a small job graph of the destination's steps: the small
    /// tables' indexes first; then the `stop_times` index and the checks that do not need it at the same time;
    /// then the checks that read the `stop_times` index; then the results, recorded with the `complete` state.
    ///
    /// Cancelling the calling task cancels the graph: jobs not started never run, and the steps running stop as the
    /// destination allows (SQLite's statements within 1,000 instructions, rolled back). Building an index is one
    /// statement, so an interrupted index is built again on `--resume`.
    func finishLoad() async throws {
        let present = Set(feed.files.keys)
        let destination = destination
        let board = board
        let queue = queue
        #if SWITCHYARD_TEST_HOOKS
            let beforeLargeIndexes = beforeLargeIndexes
        #else
            let beforeLargeIndexes: (@Sendable () -> Void)? = nil
        #endif
        board.setPhase(.indexing)
        try await withTaskCancellationHandler {
            let small = try await queue.submit("index small tables") {
                try await destination.index(.smallTables, present: present)
            }
            let large = try await queue.submit("index stop_times", options: JobOptions().after(small)) {
                beforeLargeIndexes?()
                try await destination.index(.stopTimes, present: present)
                board.setPhase(.checking)
            }
            let early = try await queue.submit("check references", after: small) { _ in
                try await destination.check(.beforeLargeIndexes, present: present)
            }
            let late = try await queue.submit("check stop_times", after: large) { _ in
                try await destination.check(.afterLargeIndexes, present: present)
            }
            let record = try await queue.submit("record checks", after: early, late) { early, late in
                try await destination.complete(checks: early + late)
            }
            // A cancellation before the handler saw every job (it runs once): cancel them all now.
            if Task.isCancelled { queue.cancelAll() }
            guard case .failure(let error) = await record.result else { return }
            // Not asked to stop, yet cancelled: a step it waits for failed and cancelled the rest. Report that
            // step's error (the first, in graph order), not a cancellation.
            if case .cancelled = error, !Task.isCancelled {
                let steps = [
                    await small.result.map { _ in () }, await large.result.map { _ in () },
                    await early.result.map { _ in () }, await late.result.map { _ in () },
                ]
                for case .failure(let failure) in steps {
                    if case .cancelled = failure { continue }
                    throw failure
                }
            }
            throw error
        } onCancel: {
            queue.cancelAll()
        }
    }
}
