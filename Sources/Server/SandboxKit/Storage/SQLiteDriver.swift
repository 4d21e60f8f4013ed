import CSQLite3
import Foundation
import Logging
import NIOCore
import NIOPosix
internal import SQLKit

/// One connection to a SQLite file, through the system's SQLite, for SQLKit. Its statements run
/// on the calling thread, and the short ones are prepared once and kept by their text, so a
/// transaction of several statements costs no hand-off between threads: with a driver that runs
/// each statement on a thread pool, the sandbox's kiosk load spends its time waking threads, not
/// in SQLite.
///
/// Used by one task at a time (``ConnectionPool`` hands it out), which is what makes the
/// unchecked `Sendable` sound. A statement blocks its thread while it runs; only one waits for
/// another process's write lock (the busy timeout) at a time, since the database has one
/// writing connection.
final class SQLiteConnection: @unchecked Sendable {
  private let handle: OpaquePointer
  private var statements: [String: PreparedStatement] = [:]
  private var closed = false
  /// Prepared statements kept per connection; past this, all are finalized and preparing starts again.
  static let statementCacheSize = 256
  /// Longer statements are prepared for one run and finalized after it: the multi-row inserts
  /// of a seed, whose text differs with each batch's size, would fill the cache with large
  /// programs used once (bench/README.md, "Figures behind the code", has the memory they take).
  static let longestKeptStatement = 1024

  /// A prepared statement and its result's column names; `kept` when it is in the cache.
  private final class PreparedStatement {
    let raw: OpaquePointer
    let columns: SQLiteColumns
    let kept: Bool

    init(raw: OpaquePointer, columns: SQLiteColumns, kept: Bool) {
      self.raw = raw
      self.columns = columns
      self.kept = kept
    }
  }

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
    for statement in statements.values { sqlite3_finalize(statement.raw) }
    statements.removeAll()
    sqlite3_close_v2(handle)
  }

  /// How many prepared statements the connection keeps (for tests).
  var keptStatementCount: Int { statements.count }

  /// A SQLKit database that runs its statements on this connection.
  func sql() -> any SQLDatabase { SQLiteSQLDatabase(connection: self) }

  /// Runs one statement with its bound values, handing each row to `onRow`.
  func run(_ sql: String, _ binds: [any Encodable & Sendable], _ onRow: (SQLiteRow) -> Void) throws {
    guard !closed else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "the connection is closed", sql: sql) }
    let statement = try prepared(sql)
    defer {
      if statement.kept {
        sqlite3_reset(statement.raw)
        sqlite3_clear_bindings(statement.raw)
      } else {
        sqlite3_finalize(statement.raw)
      }
    }
    let expected = Int(sqlite3_bind_parameter_count(statement.raw))
    guard binds.count == expected else {
      throw SQLiteFailure(
        code: SQLITE_RANGE, message: "the statement has \(expected) parameters, given \(binds.count) values", sql: sql)
    }
    for (index, value) in binds.enumerated() {
      try bind(SQLiteValue.encode(value, sql: sql), at: Int32(index + 1), of: statement.raw, sql: sql)
    }
    while true {
      switch sqlite3_step(statement.raw) {
      case SQLITE_ROW:
        onRow(SQLiteRow(columns: statement.columns, values: values(of: statement.raw, count: statement.columns.count)))
      case SQLITE_DONE:
        return
      case let status:
        throw failure(status, sql: sql)
      }
    }
  }

  private func prepared(_ sql: String) throws -> PreparedStatement {
    if let statement = statements[sql] { return statement }
    let kept = sql.utf8.count <= Self.longestKeptStatement
    if kept, statements.count >= Self.statementCacheSize {
      for statement in statements.values { sqlite3_finalize(statement.raw) }
      statements.removeAll(keepingCapacity: true)
    }
    var raw: OpaquePointer?
    var rest = ""
    let status = sql.withCString { text in
      var tail: UnsafePointer<CChar>?
      let status = sqlite3_prepare_v3(handle, text, -1, kept ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0, &raw, &tail)
      if let tail { rest = String(cString: tail) }
      return status
    }
    guard status == SQLITE_OK else { throw failure(status, sql: sql) }
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

  private func bind(_ value: SQLiteValue, at index: Int32, of statement: OpaquePointer, sql: String) throws {
    let status: Int32
    switch value {
    case .null:
      status = sqlite3_bind_null(statement, index)
    case .integer(let integer):
      status = sqlite3_bind_int64(statement, index, integer)
    case .real(let real):
      status = sqlite3_bind_double(statement, index, real)
    case .text(let text):
      status = sqlite3_bind_text64(
        statement, index, text, UInt64(text.utf8.count), deck_sqlite_transient(), UInt8(SQLITE_UTF8))
    case .blob(let bytes):
      status = bytes.withUnsafeBytes { buffer in
        // A zero-length blob still needs a non-null pointer, or SQLite binds NULL.
        sqlite3_bind_blob64(
          statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(buffer.count),
          deck_sqlite_transient())
      }
    }
    guard status == SQLITE_OK else { throw failure(status, sql: sql) }
  }

  private func values(of statement: OpaquePointer, count: Int) -> [SQLiteValue] {
    (0..<Int32(count)).map { column in
      switch sqlite3_column_type(statement, column) {
      case SQLITE_INTEGER:
        return .integer(sqlite3_column_int64(statement, column))
      case SQLITE_FLOAT:
        return .real(sqlite3_column_double(statement, column))
      case SQLITE_TEXT:
        guard let text = sqlite3_column_text(statement, column) else { return .text("") }
        let length = Int(sqlite3_column_bytes(statement, column))
        return .text(String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
      case SQLITE_BLOB:
        let length = Int(sqlite3_column_bytes(statement, column))
        guard length > 0, let bytes = sqlite3_column_blob(statement, column) else { return .blob([]) }
        return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: length)))
      default:
        return .null
      }
    }
  }

  private func failure(_ status: Int32, sql: String) -> SQLiteFailure {
    SQLiteFailure(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
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
}

/// A value as SQLite stores it.
enum SQLiteValue: Sendable, Equatable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])

  /// A bound value: integers, reals, text, booleans (0 or 1), bytes, nil, or any type that
  /// encodes itself as one of those (a UUID, an enum with raw values).
  static func encode(_ value: any Encodable, sql: String) throws -> SQLiteValue {
    switch value {
    case let value as String: return .text(value)
    case let value as Int: return .integer(Int64(value))
    case let value as Int64: return .integer(value)
    case let value as Int32: return .integer(Int64(value))
    case let value as Bool: return .integer(value ? 1 : 0)
    case let value as Double: return .real(value)
    case let value as Data: return .blob(Array(value))
    case let value as [UInt8]: return .blob(value)
    default:
      let encoder = SQLiteValueEncoder()
      try value.encode(to: encoder)
      guard let encoded = encoder.value else {
        throw SQLiteFailure(code: SQLITE_MISMATCH, message: "cannot bind a \(type(of: value))", sql: sql)
      }
      return encoded
    }
  }
}

/// The column names of a statement's result, shared by its rows.
final class SQLiteColumns: Sendable {
  let names: [String]
  private let positions: [String: Int]

  init(names: [String]) {
    self.names = names
    var positions: [String: Int] = [:]
    for (index, name) in names.enumerated() where positions[name] == nil { positions[name] = index }
    self.positions = positions
  }

  var count: Int { names.count }
  func position(of column: String) -> Int? { positions[column] }
}

/// One row of a result.
struct SQLiteRow: SQLRow {
  let columns: SQLiteColumns
  let values: [SQLiteValue]

  var allColumns: [String] { columns.names }

  func contains(column: String) -> Bool { columns.position(of: column) != nil }

  func decodeNil(column: String) throws -> Bool { try value(column) == .null }

  func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
    try SQLiteValueDecoder(value: try value(column), codingPath: [SQLiteColumnKey(stringValue: column)]).decode(type)
  }

  private func value(_ column: String) throws -> SQLiteValue {
    guard let position = columns.position(of: column) else {
      throw DecodingError.keyNotFound(
        SQLiteColumnKey(stringValue: column),
        .init(codingPath: [], debugDescription: "no column \(column) in \(columns.names)"))
    }
    return values[position]
  }
}

struct SQLiteColumnKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// Decodes one column's value: as the type itself for SQLite's own types, else through a
/// single-value container (a UUID from text, an enum from its raw value, an optional).
struct SQLiteValueDecoder: Decoder, SingleValueDecodingContainer {
  let value: SQLiteValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    switch value {
    case .blob(let bytes):
      if type == Data.self, let data = Data(bytes) as? T { return data }
      if let bytes = bytes as? T { return bytes }
    case .integer(let integer):
      if let integer = integer as? T { return integer }
      if type == Int.self, let narrowed = Int(exactly: integer) as? T { return narrowed }
    case .real(let real):
      if let real = real as? T { return real }
    case .text(let text):
      if let text = text as? T { return text }
    case .null:
      break
    }
    return try T(from: self)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    throw mismatch(type, "a keyed container")
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw mismatch([Any].self, "an unkeyed container")
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

  func decodeNil() -> Bool { value == .null }

  func decode(_ type: Bool.Type) throws -> Bool {
    guard case .integer(let integer) = value else { throw mismatch(type) }
    return integer != 0
  }

  func decode(_ type: String.Type) throws -> String {
    guard case .text(let text) = value else { throw mismatch(type) }
    return text
  }

  func decode(_ type: Double.Type) throws -> Double {
    switch value {
    case .real(let real): return real
    case .integer(let integer): return Double(integer)
    default: throw mismatch(type)
    }
  }

  func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

  func decode(_ type: Int.Type) throws -> Int { try integer(type) }
  func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
  func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
  func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
  func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
  func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
  func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
  func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
  func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
  func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

  /// An integer column as `T`, when it fits (never trapping on a value out of range).
  private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    guard case .integer(let integer) = value else { throw mismatch(type) }
    guard let fitted = T(exactly: integer) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath, debugDescription: "\(integer) does not fit in \(T.self)"))
    }
    return fitted
  }

  private func mismatch(_ type: Any.Type, _ what: String? = nil) -> DecodingError {
    DecodingError.typeMismatch(
      type, .init(codingPath: codingPath, debugDescription: "expected \(what ?? "\(type)"), found \(value)"))
  }
}

/// Captures the single value a bound type encodes itself as.
private final class SQLiteValueEncoder: Encoder, SingleValueEncodingContainer {
  var value: SQLiteValue?
  var codingPath: [any CodingKey] { [] }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(RefusingKeyedContainer<Key>())
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyedContainer() }
  func singleValueContainer() -> any SingleValueEncodingContainer { self }

  func encodeNil() { value = .null }
  func encode(_ value: Bool) { self.value = .integer(value ? 1 : 0) }
  func encode(_ value: String) { self.value = .text(value) }
  func encode(_ value: Double) { self.value = .real(value) }
  func encode(_ value: Float) { self.value = .real(Double(value)) }
  func encode(_ value: Int) { self.value = .integer(Int64(value)) }
  func encode(_ value: Int8) { self.value = .integer(Int64(value)) }
  func encode(_ value: Int16) { self.value = .integer(Int64(value)) }
  func encode(_ value: Int32) { self.value = .integer(Int64(value)) }
  func encode(_ value: Int64) { self.value = .integer(value) }
  func encode(_ value: UInt8) { self.value = .integer(Int64(value)) }
  func encode(_ value: UInt16) { self.value = .integer(Int64(value)) }
  func encode(_ value: UInt32) { self.value = .integer(Int64(value)) }
  func encode(_ value: UInt) throws { self.value = .integer(try Self.fitted(value)) }
  func encode(_ value: UInt64) throws { self.value = .integer(try Self.fitted(value)) }
  func encode<T: Encodable>(_ value: T) throws { self.value = try SQLiteValue.encode(value, sql: "") }

  private static func fitted<T: BinaryInteger>(_ value: T) throws -> Int64 {
    guard let fitted = Int64(exactly: value) else {
      throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "too large for SQLite"))
    }
    return fitted
  }
}

/// Bound values are single values: a type that encodes a structure is not bindable (the
/// encoder then holds no value, and binding reports it).
private struct RefusingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  var codingPath: [any CodingKey] { [] }
  mutating func encodeNil(forKey key: Key) {}
  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {}
  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> { KeyedEncodingContainer(RefusingKeyedContainer<NestedKey>()) }
  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    RefusingUnkeyedContainer()
  }
  mutating func superEncoder() -> any Encoder { SQLiteValueEncoder() }
  mutating func superEncoder(forKey key: Key) -> any Encoder { SQLiteValueEncoder() }
}

private struct RefusingUnkeyedContainer: UnkeyedEncodingContainer {
  var codingPath: [any CodingKey] { [] }
  var count: Int { 0 }
  mutating func encodeNil() {}
  mutating func encode<T: Encodable>(_ value: T) {}
  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
    NestedKey
  > { KeyedEncodingContainer(RefusingKeyedContainer<NestedKey>()) }
  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyedContainer() }
  mutating func superEncoder() -> any Encoder { SQLiteValueEncoder() }
}

/// SQLKit's view of a ``SQLiteConnection``.
struct SQLiteSQLDatabase: SQLDatabase {
  let connection: SQLiteConnection

  var logger: Logger { SQLiteSQLDatabase.silent }
  var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
  var version: (any SQLDatabaseReportedVersion)? { nil }
  var dialect: any SQLDialect { SQLiteSandboxDialect() }
  var queryLogLevel: Logger.Level? { nil }

  private static let silent: Logger = {
    var logger = Logger(label: "deck-sandbox.sqlite")
    logger.logLevel = .critical
    return logger
  }()

  func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<
    Void
  > {
    do {
      try run(query, onRow)
      return eventLoop.makeSucceededVoidFuture()
    } catch {
      return eventLoop.makeFailedFuture(error)
    }
  }

  func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
    try run(query, onRow)
  }

  func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
    try await closure(self)
  }

  private func run(_ query: any SQLExpression, _ onRow: (any SQLRow) -> Void) throws {
    let (sql, binds) = serialize(query)
    try connection.run(sql, binds) { onRow($0) }
  }
}

/// SQLite's spelling, as far as the sandbox's statements need it: `?` binds, `"` identifiers.
struct SQLiteSandboxDialect: SQLDialect {
  var name: String { "sqlite" }
  var identifierQuote: any SQLExpression { SQLRaw("\"") }
  var literalStringQuote: any SQLExpression { SQLRaw("'") }
  var supportsAutoIncrement: Bool { false }
  var autoIncrementClause: any SQLExpression { SQLRaw("AUTOINCREMENT") }
  func bindPlaceholder(at position: Int) -> any SQLExpression { SQLRaw("?") }
  func literalBoolean(_ value: Bool) -> any SQLExpression { SQLRaw(value ? "1" : "0") }
  var supportsReturning: Bool { true }
}
