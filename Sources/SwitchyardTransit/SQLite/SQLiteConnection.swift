import CSwitchyardSQLite

/// One connection to an SQLite database: the thin layer the importer writes and reads through.
///
/// Not thread-safe and not `Sendable`: one thread (one blocking job) owns a connection for its lifetime, which is
/// what SQLite's default threading mode expects. Every method blocks on the file system: use it on a
/// `BlockingExecutor` thread or in a blocking job, never on the cooperative pool.
final class SQLiteConnection {
    let path: String
    private(set) var handle: OpaquePointer?

    /// Opens (and with `readOnly == false` and `creates`, creates) the database at `path`. A busy database is
    /// retried for up to `busyTimeout` before an operation fails with `SQLITE_BUSY`.
    init(path: String, readOnly: Bool = false, creates: Bool = true, busyTimeout: Duration = .seconds(5)) throws {
        self.path = path
        let flags =
            readOnly
            ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
            : SQLITE_OPEN_READWRITE | (creates ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK else {
            let error = SQLiteError(code: code, connection: connection, context: "open \(path)")
            sqlite3_close_v2(connection)
            throw error
        }
        handle = connection
        sqlite3_extended_result_codes(connection, 1)
        let milliseconds =
            busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(connection, Int32(clamping: milliseconds))
    }

    deinit { sqlite3_close_v2(handle) }

    /// Makes statements on this connection stop soon after the task running them is cancelled: SQLite asks
    /// every ``cancellationCheckInterval`` virtual-machine instructions (a progress handler reading
    /// `Task.isCancelled`, a few nanoseconds), and the statement then fails with `SQLITE_INTERRUPT`
    /// (``SQLiteError/isInterruption``), rolling back what it did.
    ///
    /// Unlike `sqlite3_interrupt`, which does nothing when no statement is running, this also stops a statement
    /// that starts after the cancellation. The task is the one running the statement: a blocking job's body runs
    /// in its job's task, so this works there; on a thread outside any task nothing is interrupted. Work inside a
    /// single instruction (the final merge of a large sort) finishes before the next check.
    ///
    /// Returns the connection, so it can follow opening:
    /// `try SQLiteConnection(path: path).stoppingWhenTaskIsCancelled()`.
    @discardableResult
    func stoppingWhenTaskIsCancelled() -> SQLiteConnection {
        let check: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { _ in Task.isCancelled ? 1 : 0 }
        sqlite3_progress_handler(handle, SQLiteConnection.cancellationCheckInterval, check, nil)
        return self
    }

    /// Virtual-machine instructions between two cancellation checks (see ``stoppingWhenTaskIsCancelled()``).
    static let cancellationCheckInterval: Int32 = 1_000

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if let errorMessage { sqlite3_free(errorMessage) }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: handle, context: sql) }
    }

    /// Compiles `sql` (one statement).
    func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`): committed if it returns, rolled back if it throws.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The rows of a query, each as an array of optional strings (for small bookkeeping queries only).
    func rows(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        for (index, argument) in arguments.enumerated() { try statement.bind(argument, at: Int32(index + 1)) }
        var rows: [[SQLiteValue]] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.value(at: $0) })
        }
        return rows
    }

    /// Runs one statement with `arguments`, returning no rows.
    func run(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
        let statement = try prepare(sql)
        for (index, argument) in arguments.enumerated() { try statement.bind(argument, at: Int32(index + 1)) }
        while try statement.step() {}
    }

    /// Whether a table named `name` exists.
    func tableExists(_ name: String) throws -> Bool {
        try !rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(name)]).isEmpty
    }
}

/// One SQLite value, for bookkeeping queries.
enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value): Int64(value)
        case .text(let text): Int64(text)
        case .null: nil
        }
    }

    var text: String? {
        switch self {
        case .text(let text): text
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .null: nil
        }
    }
}

/// Quotes an SQL identifier (`"name"`, inner quotes doubled).
func quotedIdentifier(_ name: String) -> String {
    "\"" + name.replacingAll("\"", with: "\"\"") + "\""
}

extension String {
    /// This string with every `target` replaced by `replacement` (no Foundation in this module).
    /// Compared scalar by scalar, not by `Character`: a quote followed by a combining mark is one `Character`, and
    /// must still be found.
    func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if scalar == target { result += replacement } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
