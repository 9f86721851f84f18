import Switchyard

// The import's last steps, after every file is loaded: indexes and checks, as a graph of jobs.

extension GTFSImporter {
    /// Indexes, checks, and the `complete` state, as a small job graph: the small tables' indexes first; then
    /// the `stop_times` index (the writer) and the checks that do not need it (a WAL reader) at the same time;
    /// then the checks that read the `stop_times` index; then the results, recorded with the `complete` state.
    ///
    /// Cancelling the calling task cancels the graph: jobs not started never run, and the index and check
    /// statements running stop at their next cancellation check (``SQLiteConnection/stoppingWhenTaskIsCancelled()``),
    /// rolled back. Building an index is one statement, so an interrupted index is built again on `--resume`.
    func finishLoad() async throws {
        let present = Set(feed.files.keys)
        let database = databasePath
        let board = board
        let queue = queue
        #if SWITCHYARD_TEST_HOOKS
            let beforeLargeIndexes = beforeLargeIndexes
        #else
            let beforeLargeIndexes: (@Sendable () -> Void)? = nil
        #endif
        board.setPhase(.indexing)
        try await withTaskCancellationHandler {
            let small = try await queue.submitBlocking("index small tables") {
                let connection = try FeedWriter.openDatabase(database).stoppingWhenTaskIsCancelled()
                try ImportRecord.setState(connection, .indexing)
                try FeedChecks.createIndexes(FeedChecks.smallIndexes, connection, present: present)
            }
            let large = try await queue.submitBlocking("index stop_times", options: JobOptions().after(small)) {
                let connection = try FeedWriter.openDatabase(database).stoppingWhenTaskIsCancelled()
                beforeLargeIndexes?()
                try FeedChecks.createIndexes(FeedChecks.largeIndexes, connection, present: present)
                try FeedChecks.analyze(connection)
                board.setPhase(.checking)
            }
            let early = try await queue.submitBlocking("check references", after: small) { _ in
                let connection = try SQLiteConnection(path: database).stoppingWhenTaskIsCancelled()
                return try FeedChecks.run(.beforeLargeIndexes, connection, present: present)
            }
            let late = try await queue.submitBlocking("check stop_times", after: large) { _ in
                let connection = try SQLiteConnection(path: database).stoppingWhenTaskIsCancelled()
                return try FeedChecks.run(.afterLargeIndexes, connection, present: present)
            }
            let record = try await queue.submitBlocking("record checks", after: early, late) { early, late in
                let connection = try FeedWriter.openDatabase(database)
                try FeedChecks.record(early + late, connection)
                try ImportRecord.setState(connection, .complete)
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
