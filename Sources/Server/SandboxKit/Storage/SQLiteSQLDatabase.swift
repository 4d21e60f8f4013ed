import Foundation
import Logging
import NIOCore
import NIOPosix
internal import SQLKit

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

/// SQLite's spelling: `?` binds, `"` identifiers, and what SQLKit's builders ask of a dialect
/// (sql-kit's own benchmark passes against it: `SQLKitBenchmarkTests`).
struct SQLiteSandboxDialect: SQLDialect {
  var name: String { "sqlite" }
  var identifierQuote: any SQLExpression { SQLRaw("\"") }
  var literalStringQuote: any SQLExpression { SQLRaw("'") }
  var supportsAutoIncrement: Bool { false }
  var autoIncrementClause: any SQLExpression { SQLRaw("AUTOINCREMENT") }
  func bindPlaceholder(at position: Int) -> any SQLExpression { SQLRaw("?") }
  func literalBoolean(_ value: Bool) -> any SQLExpression { SQLRaw(value ? "1" : "0") }
  var supportsReturning: Bool { true }
  /// SQLite has no `DEFAULT` among a row's values; NULL is what gives an `INTEGER PRIMARY KEY`
  /// (the rowid) its next value.
  var literalDefault: any SQLExpression { SQLRaw("NULL") }
  /// `ALTER TABLE` makes one change per statement.
  var alterTableSyntax: SQLAlterTableSyntax { .init(allowsBatch: false) }
  /// `INSERT … ON CONFLICT (…) DO UPDATE SET … = excluded.…` (SQLite 3.24 and later).
  var upsertSyntax: SQLUpsertSyntax { .standard }
  var unionFeatures: SQLUnionFeatures { [.union, .unionAll, .intersect, .except] }

  /// SQLite's integers are 64-bit, and only a column declared `INTEGER PRIMARY KEY` is the
  /// rowid (numbered by SQLite): a `bigint` is spelled `INTEGER`.
  func customDataType(for dataType: SQLDataType) -> (any SQLExpression)? {
    if case .bigint = dataType { return SQLRaw("INTEGER") }
    return nil
  }

  /// A path into a JSON column: `json_extract(column, '$."a"."b"')`. A key with a double quote
  /// has no spelling in SQLite's JSON paths: nil (SQLKit then reports it unsupported).
  func nestedSubpathExpression(in column: any SQLExpression, for path: [String]) -> (any SQLExpression)? {
    guard !path.isEmpty, !path.contains(where: { $0.contains("\"") }) else { return nil }
    let keys = path.map { "\"\($0)\"" }.joined(separator: ".")
    return SQLFunction("json_extract", args: [column, SQLLiteral.string("$.\(keys)")])
  }
}
