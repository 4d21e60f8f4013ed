import CSQLite3
internal import SQLKit

/// One connection to a SQLite file, through the system's SQLite, for SQLKit. Its statements run
/// on the calling thread, and the short ones are prepared once and kept by their text
/// (``SQLiteStatementCache``), so a transaction of several statements costs no hand-off between
/// threads: with a driver that runs each statement on a thread pool, the sandbox's kiosk load
/// spends its time waking threads, not in SQLite.
///
/// Used by one task at a time (``ConnectionPool`` hands it out), which is what makes the
/// unchecked `Sendable` sound. A statement blocks its thread while it runs; only one waits for
/// another process's write lock (the busy timeout) at a time, since the database has one
/// writing connection.
final class SQLiteConnection: @unchecked Sendable {
  private let handle: OpaquePointer
  private var statements = SQLiteStatementCache()
  private var closed = false
  /// Prepared statements kept per connection (``SQLiteStatementCache/size``).
  static let statementCacheSize = SQLiteStatementCache.size

  private init(handle: OpaquePointer) {
    self.handle = handle
  }

  deinit { close() }

  /// Opens (creating it if missing, unless `readOnly`) the database at `path`.
  static func open(path: String, readOnly: Bool = false) throws -> SQLiteConnection {
    var handle: OpaquePointer?
    let flags =
      (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
    let status = sqlite3_open_v2(path, &handle, flags, nil)
    guard status == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      if let handle { sqlite3_close_v2(handle) }
      throw SQLiteFailure(code: status, message: message, sql: "")
    }
    sqlite3_extended_result_codes(handle, 1)
    return SQLiteConnection(handle: handle)
  }

  /// Finalizes every statement and closes the connection. Idempotent.
  func close() {
    guard !closed else { return }
    closed = true
    statements.finalizeAll()
    sqlite3_close_v2(handle)
  }

  /// How many prepared statements the connection keeps (for tests).
  var keptStatementCount: Int { statements.count }

  /// A SQLKit database that runs its statements on this connection.
  func sql() -> any SQLDatabase { SQLiteSQLDatabase(connection: self) }

  /// Runs one statement with its bound values, handing each row to `onRow`.
  func run(_ sql: String, _ binds: [any Encodable & Sendable], _ onRow: (SQLiteRow) -> Void) throws {
    guard !closed else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "the connection is closed", sql: sql) }
    let statement = try statements.statement(for: sql, on: handle)
    defer { statement.finish() }
    let expected = Int(sqlite3_bind_parameter_count(statement.raw))
    guard binds.count == expected else {
      throw SQLiteFailure(
        code: SQLITE_RANGE, message: "the statement has \(expected) parameters, given \(binds.count) values", sql: sql)
    }
    for (index, value) in binds.enumerated() {
      try SQLiteValue.encode(value, sql: sql).bind(at: Int32(index + 1), of: statement.raw, sql: sql)
    }
    while true {
      switch sqlite3_step(statement.raw) {
      case SQLITE_ROW:
        let values = SQLiteValue.columns(of: statement.raw, count: statement.columns.count)
        onRow(SQLiteRow(columns: statement.columns, values: values))
      case SQLITE_DONE:
        return
      default:
        throw SQLiteFailure.last(on: handle, sql: sql)
      }
    }
  }
}

/// A statement SQLite refused: its (extended) result code, its message and the statement (never
/// the bound values, which may be secrets).
package struct SQLiteFailure: Error, CustomStringConvertible {
  package let code: Int32
  package let message: String
  package let sql: String

  package var description: String {
    "SQLite error \(code): \(message)" + (sql.isEmpty ? "" : " (in: \(sql))")
  }

  /// The connection's last failure, in `sql`.
  static func last(on handle: OpaquePointer, sql: String) -> SQLiteFailure {
    SQLiteFailure(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
  }
}
