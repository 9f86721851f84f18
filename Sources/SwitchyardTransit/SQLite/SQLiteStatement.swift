import CSwitchyardSQLite

/// A compiled SQLite statement. Owned by the thread that owns its connection; finalized when released.
///
/// Text is bound without copying (`SQLITE_STATIC`): the bytes must stay valid until the next `step`/`reset`
/// has returned, which the importer guarantees by keeping each batch alive while it is written.
final class SQLiteStatement {
    private let connection: SQLiteConnection
    private let statement: OpaquePointer
    let sql: String

    init(connection: SQLiteConnection, sql: String) throws {
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v2(connection.handle, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            throw SQLiteError(code: code, connection: connection.handle, context: sql)
        }
        self.connection = connection
        self.statement = prepared
        self.sql = sql
    }

    deinit { sqlite3_finalize(statement) }

    var columnCount: Int32 { sqlite3_column_count(statement) }

    // MARK: Binding (1-based indexes)

    @inline(__always) func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(statement, index, value)
    }

    @inline(__always) func bind(_ value: Double, at index: Int32) {
        sqlite3_bind_double(statement, index, value)
    }

    /// Binds UTF-8 bytes that stay valid until the statement is stepped and reset.
    @inline(__always) func bindText(_ bytes: UnsafeRawPointer, count: Int, at index: Int32) {
        sqlite3_bind_text(statement, index, bytes.assumingMemoryBound(to: CChar.self), Int32(count), nil)
    }

    @inline(__always) func bindNull(at index: Int32) {
        sqlite3_bind_null(statement, index)
    }

    /// Binds a bookkeeping value (text is copied).
    func bind(_ value: SQLiteValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(statement, index)
        case .integer(let integer): code = sqlite3_bind_int64(statement, index, integer)
        case .real(let real): code = sqlite3_bind_double(statement, index, real)
        case .text(var text):
            // With its byte count, not as a C string: a NUL inside (a zip entry's name) must not cut it short.
            code = text.withUTF8 { bytes in
                sqlite3_bind_text(
                    statement, index,
                    UnsafeRawPointer(bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!)
                        .assumingMemoryBound(to: CChar.self),
                    Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
        }
        guard code == SQLITE_OK else { throw SQLiteError(code: code, connection: connection.handle, context: sql) }
    }

    // MARK: Running

    /// Runs one step: true if a row is available, false when done. Resets the statement when done.
    @discardableResult
    func step() throws -> Bool {
        let code = sqlite3_step(statement)
        if code == SQLITE_ROW { return true }
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw SQLiteError(code: code, connection: connection.handle, context: sql) }
        return false
    }

    // MARK: Reading

    func value(at column: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
        case SQLITE_NULL: .null
        default:
            if let text = sqlite3_column_text(statement, column) {
                // By its byte count (after the text pointer, as SQLite asks): a NUL inside does not end it.
                .text(
                    String(
                        decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column))),
                        as: UTF8.self))
            } else {
                .null
            }
        }
    }
}
