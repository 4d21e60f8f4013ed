import CSQLite3

/// A connection's prepared statements, kept by their text, so that a short statement is
/// prepared once per connection. Owned by one ``SQLiteConnection`` (and so used by one task at
/// a time).
struct SQLiteStatementCache {
  /// Prepared statements kept per connection; past this, all are finalized and preparing starts again.
  static let size = 256
  /// Longer statements are prepared for one run and finalized after it: the multi-row inserts
  /// of a seed, whose text differs with each batch's size, would fill the cache with large
  /// programs used once (bench/README.md, "Figures behind the code", has the memory they take).
  static let longestKeptStatement = 1024

  /// A prepared statement and its result's column names; `kept` when it is in the cache.
  final class PreparedStatement {
    let raw: OpaquePointer
    let columns: SQLiteColumns
    let kept: Bool

    init(raw: OpaquePointer, columns: SQLiteColumns, kept: Bool) {
      self.raw = raw
      self.columns = columns
      self.kept = kept
    }

    /// Makes the statement ready for its next run (kept), or finalizes it (run once).
    func finish() {
      if kept {
        sqlite3_reset(raw)
        sqlite3_clear_bindings(raw)
      } else {
        sqlite3_finalize(raw)
      }
    }
  }

  private var statements: [String: PreparedStatement] = [:]

  /// How many prepared statements are kept.
  var count: Int { statements.count }

  /// The statement for `sql`: the kept one, or one prepared now (and kept when short).
  mutating func statement(for sql: String, on handle: OpaquePointer) throws -> PreparedStatement {
    if let statement = statements[sql] { return statement }
    let kept = sql.utf8.count <= Self.longestKeptStatement
    if kept, statements.count >= Self.size { finalizeAll() }
    var raw: OpaquePointer?
    var rest = ""
    let status = sql.withCString { text in
      var tail: UnsafePointer<CChar>?
      let status = sqlite3_prepare_v3(handle, text, -1, kept ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0, &raw, &tail)
      if let tail { rest = String(cString: tail) }
      return status
    }
    guard status == SQLITE_OK else { throw SQLiteFailure.last(on: handle, sql: sql) }
    // Only one statement per call: SQLite would run the first and drop the rest without a word.
    guard rest.allSatisfy(\.isWhitespace) else {
      sqlite3_finalize(raw)
      throw SQLiteFailure(code: SQLITE_MISUSE, message: "more than one statement in one call", sql: sql)
    }
    guard let raw else {
      // Only whitespace or a comment: nothing to run.
      throw SQLiteFailure(code: SQLITE_MISUSE, message: "no statement", sql: sql)
    }
    let count = sqlite3_column_count(raw)
    let names = (0..<count).map { String(cString: sqlite3_column_name(raw, $0)) }
    let statement = PreparedStatement(raw: raw, columns: SQLiteColumns(names: names), kept: kept)
    if kept { statements[sql] = statement }
    return statement
  }

  /// Finalizes every kept statement.
  mutating func finalizeAll() {
    for statement in statements.values { sqlite3_finalize(statement.raw) }
    statements.removeAll(keepingCapacity: true)
  }
}
