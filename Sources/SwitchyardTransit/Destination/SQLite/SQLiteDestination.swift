import Switchyard

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An import into one SQLite database file: the default ``ImportDestination``.
///
/// Every call runs its SQLite work on the ``BlockingExecutor`` (SQLite blocks), each step on a connection of its
/// own: WAL journal and `synchronous=NORMAL`, so readers (`switchyard status`) see every committed batch at once
/// and never block the writer. Statements that may run long (indexes, checks) stop within 1,000 SQLite
/// instructions of their task's cancellation, rolled back. The lock is `<database>.lock` (``ImportLock``).
@_spi(ImportDestinations)
public struct SQLiteDestination: ImportDestination {
    /// The database file's path.
    public let path: String

    /// The database at `path` (created by ``prepare(_:options:)`` if missing).
    public init(path: String) {
        self.path = path
    }

    public var name: String { path }

    public func lock() async throws -> any ImportDestinationLock {
        try await BlockingExecutor.shared.run { [path] in try ImportLock(database: path) }
    }

    public func prepare(_ feed: GTFSFeed, options: ImportOptions) async throws -> ImportPlan {
        try await blocking { try prepareBlocking(feed, options: options) }
    }

    public func write(
        _ batches: BoundedChannel<RowBatch>, committed: @escaping @Sendable (RowBatch) throws -> Void
    ) async throws {
        try await blocking {
            let writer = try FeedWriter(database: FeedWriter.openDatabase(path))
            while let batch = try batches.receiveBlocking() {
                try writer.write(batch)
                try committed(batch)
            }
        }
    }

    public func index(_ step: ImportIndexStep, present: Set<GTFSFile>) async throws {
        try await blocking {
            let connection = try FeedWriter.openDatabase(path).stoppingWhenTaskIsCancelled()
            switch step {
            case .smallTables:
                try ImportRecord.setState(connection, .indexing)
                try SQLiteChecks.createIndexes(FeedChecks.smallIndexes, connection, present: present)
            case .stopTimes:
                try SQLiteChecks.createIndexes(FeedChecks.largeIndexes, connection, present: present)
                try SQLiteChecks.analyze(connection)
            }
        }
    }

    public func check(_ stage: ImportCheckStage, present: Set<GTFSFile>) async throws -> [ImportSummary.Check] {
        try await blocking {
            let connection = try SQLiteConnection(path: path).stoppingWhenTaskIsCancelled()
            return try SQLiteChecks.run(stage, connection, present: present)
        }
    }

    public func complete(checks: [ImportSummary.Check]) async throws {
        try await blocking {
            let connection = try FeedWriter.openDatabase(path)
            try connection.transaction {
                try SQLiteChecks.record(checks, connection)
                try ImportRecord.setState(connection, .complete)
            }
        }
    }

    public func end(
        _ state: ImportState, restarting corrupt: GTFSFile?, problemExamples: Int, seconds: Double
    ) async throws -> (summary: ImportSummary, restartFailure: (any Error)?) {
        try await blocking {
            let database = try SQLiteConnection(path: path)
            if state != .complete { try ImportRecord.setState(database, state) }
            var restartFailure: (any Error)?
            if let corrupt {
                do { try ImportRecord.restart(database, file: corrupt) } catch { restartFailure = describe(error) }
            }
            let summary = try ImportRecord.summary(
                database, name: path, problemExamples: problemExamples, seconds: seconds)
            return (summary, restartFailure)
        }
    }

    public func describe(_ error: any Error) -> any Error {
        guard let sqlite = error as? SQLiteError else { return error }
        // Only a cancelled task's statements are interrupted (see `SQLiteConnection.stoppingWhenTaskIsCancelled`).
        return sqlite.isInterruption ? CancellationError() : ImportError(.database, "\(path): \(sqlite)")
    }

    /// Runs `body` on the blocking executor, in the calling task (so `Task.isCancelled` is the caller's), with its
    /// SQLite errors described.
    private func blocking<Result: Sendable>(_ body: () throws -> Result) async throws -> Result {
        do {
            return try await withTaskExecutorPreference(BlockingExecutor.shared) { try body() }
        } catch {
            throw describe(error)
        }
    }

    /// Creates or checks the import record (see ``ImportDestination/prepare(_:options:)``).
    private func prepareBlocking(_ feed: GTFSFeed, options: ImportOptions) throws -> ImportPlan {
        if options.mode == .replace {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
        }
        let database: SQLiteConnection
        do {
            database = try FeedWriter.openDatabase(path)
        } catch let error as SQLiteError {
            throw ImportError(.database, "\(path): cannot open the database: \(error.message)")
        }
        let header = try ImportRecord.header(database)
        switch options.mode {
        case .new, .replace:
            if let header {
                throw ImportError(
                    .databaseNotEmpty,
                    """
                    \(path) already holds an import of \(header.feed) (state \(header.state)): use --resume \
                    to continue it or --replace to start over
                    """)
            }
            let existing = try GTFSFile.allCases.filter { feed.files[$0] != nil }.filter {
                try database.tableExists($0.tableName)
            }
            if let table = existing.first {
                throw ImportError(
                    .databaseNotEmpty, "\(path) already has a table \(table.tableName): use --replace to start over")
            }
            try ImportRecord.create(
                database, feed: feed, batchSize: options.batchSize, encoding: options.encoding, source: options.source)
            return ImportPlan(files: try ImportRecord.files(database), options: options)
        case .resume:
            guard let header else {
                throw ImportError(.cannotResume, "\(path) holds no import to resume: run without --resume")
            }
            guard try ImportRecord.isCurrent(database) else {
                throw ImportError(
                    .cannotResume,
                    """
                    \(path) holds an import begun by an earlier version of Switchyard, which this one cannot \
                    continue: use --replace to start over
                    """)
            }
            let resumed = try ImportPlan.resuming(options, header: header, feed: feed, destination: path)
            if header.state != .complete { try ImportRecord.setState(database, .loading) }
            return ImportPlan(files: try ImportRecord.files(database), options: resumed)
        }
    }
}

@_spi(ImportDestinations)
extension ImportPlan {
    /// The options a resume of the import `header` describes runs with: its batch size and encoding, so that it
    /// writes what an uninterrupted import writes.
    /// - Throws: ``ImportError/Kind/cannotResume`` when `feed` is not the feed the import began with.
    public static func resuming(
        _ options: ImportOptions, header: ImportHeader, feed: GTFSFeed, destination: String
    ) throws -> ImportOptions {
        guard header.fingerprint == feed.fingerprint else {
            throw ImportError(
                .cannotResume,
                """
                \(feed.path) is not the feed the import in \(destination) began with (\(header.feed)), or it \
                changed since: use --replace to start over
                """)
        }
        var resumed = options
        resumed.batchSize = header.batchSize
        resumed.encoding = header.encoding
        return resumed
    }
}
