import CSQLite3
import Foundation

/// A value as SQLite stores it: bound to a statement's parameter, or read from a row's column.
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

  /// Binds the value to the statement's parameter at `index` (from 1).
  func bind(at index: Int32, of statement: OpaquePointer, sql: String) throws {
    let status: Int32
    switch self {
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
    guard status == SQLITE_OK else { throw SQLiteFailure.last(on: sqlite3_db_handle(statement), sql: sql) }
  }

  /// The current row's first `count` columns.
  static func columns(of statement: OpaquePointer, count: Int) -> [SQLiteValue] {
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
}
