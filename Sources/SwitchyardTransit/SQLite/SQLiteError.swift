import CSwitchyardSQLite

/// An SQLite call that failed: the result code, SQLite's message, and the statement or action it concerned.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// The (extended) SQLite result code, e.g. `SQLITE_BUSY` (5), `SQLITE_CORRUPT` (11).
    public let code: Int32
    /// SQLite's explanation.
    public let message: String
    /// The SQL or the action (`open /path/db`) that failed.
    public let context: String

    public var description: String { "SQLite error \(code) (\(message)) in: \(context)" }

    /// Whether the statement was stopped because its task was cancelled (`SQLITE_INTERRUPT`).
    public var isInterruption: Bool { code & 0xFF == SQLITE_INTERRUPT }

    init(code: Int32, connection: OpaquePointer?, context: String) {
        self.code = code
        if let connection, let text = sqlite3_errmsg(connection) {
            message = String(cString: text)
        } else if let text = sqlite3_errstr(code) {
            message = String(cString: text)
        } else {
            message = "unknown error"
        }
        self.context = context
    }
}
