import Foundation
import PostgresKit
package import SQLKit
import Synchronization

/// A statement written once for both engines: `?` marks each bound value, as SQLite spells it;
/// on PostgreSQL the serializer numbers them (`$1`, `$2`, …). A `?` inside a quoted literal
/// or identifier is text, not a bind.
package struct SQLStatement: SQLExpression {
  package let sql: String
  package let binds: [any Encodable & Sendable]

  package init(_ sql: String, _ binds: [any Encodable & Sendable] = []) {
    self.sql = sql
    self.binds = binds
  }

  package func serialize(to serializer: inout SQLSerializer) {
    var pending = binds.makeIterator()
    var literal = ""
    var quote: Character?
    for character in sql {
      if let open = quote {
        if character == open { quote = nil }
        literal.append(character)
      } else if character == "'" || character == "\"" {
        quote = character
        literal.append(character)
      } else if character == "?", let value = pending.next() {
        serializer.write(literal)
        literal = ""
        serializer.write(bind: value)
      } else {
        literal.append(character)
      }
    }
    serializer.write(literal)
  }
}

extension SQLDatabase {
  /// Runs a statement that returns no rows.
  package func execute(_ sql: String, _ binds: [any Encodable & Sendable] = []) async throws {
    try await run(sql, binds) { _ in }
  }

  /// Every row of a statement.
  package func fetchAll(_ sql: String, _ binds: [any Encodable & Sendable] = []) async throws -> [any SQLRow] {
    let rows = RowCollector()
    try await run(sql, binds) { rows.append($0) }
    return rows.rows
  }

  /// Runs a statement; PostgreSQL's errors come back as ``SQLFailure`` (PostgresNIO's own
  /// description hides the server's message).
  private func run(
    _ sql: String, _ binds: [any Encodable & Sendable], _ onRow: @escaping @Sendable (any SQLRow) -> Void
  ) async throws {
    // PostgreSQL's text cannot hold NUL; SQLite's can. Refused on both, so that the sandbox
    // answers the same on either (a 400: ``SQLFailure/isBadText``).
    if binds.contains(where: { ($0 as? String)?.utf8.contains(0) == true }) {
      throw SQLFailure(code: SQLFailure.nulInText, message: "text may not hold the NUL character (\\u0000)", sql: sql)
    }
    do {
      try await execute(sql: SQLStatement(sql, binds), onRow)
    } catch let error as PSQLError {
      throw SQLFailure(error, sql: sql)
    }
  }

  /// Every row of a statement, each as a `T` (``SQLRow/decode(_:)``).
  package func fetchAll<T: Decodable>(
    _ type: T.Type, _ sql: String, _ binds: [any Encodable & Sendable] = []
  ) async throws -> [T] {
    try await fetchAll(sql, binds).map { try $0.decode(type) }
  }

  /// The first row of a statement as a `T` (``SQLRow/decode(_:)``), if any.
  package func fetchOne<T: Decodable>(
    _ type: T.Type, _ sql: String, _ binds: [any Encodable & Sendable] = []
  ) async throws -> T? {
    try await fetchOne(sql, binds)?.decode(type)
  }

  /// The first row of a statement, if any.
  package func fetchOne(_ sql: String, _ binds: [any Encodable & Sendable] = []) async throws -> (any SQLRow)? {
    try await fetchAll(sql, binds).first
  }

  /// The first column of the first row, or nil when there is no row or the value is NULL.
  package func fetchValue<T: Decodable>(
    _ type: T.Type, _ sql: String, _ binds: [any Encodable & Sendable] = []
  ) async throws -> T? {
    guard let row = try await fetchOne(sql, binds), let column = row.allColumns.first else { return nil }
    return try row.decode(column: column, as: T?.self)
  }

  /// The first column of every row.
  package func fetchColumn<T: Decodable>(
    _ type: T.Type, _ sql: String, _ binds: [any Encodable & Sendable] = []
  ) async throws -> [T] {
    try await fetchAll(sql, binds).map { row in
      guard let column = row.allColumns.first else { throw SQLStatementError.noColumns }
      return try row.decode(column: column, as: T.self)
    }
  }

  /// Runs each statement of a script (statements end with `;`; `--` comments are dropped).
  package func executeScript(_ script: String) async throws {
    for statement in SQLScript.statements(of: script) { try await execute(statement) }
  }

  /// Whether this connection speaks PostgreSQL (else SQLite).
  package var isPostgreSQL: Bool { dialect.name == "postgresql" }
}

/// The statements of a schema script: comments removed, split at `;`.
package enum SQLScript {
  /// A schema script written for SQLite, as PostgreSQL takes it. Migrations are written once,
  /// in SQLite's words; four rewrites make them PostgreSQL's:
  /// - `INTEGER PRIMARY KEY [AUTOINCREMENT]` (SQLite's rowid alias) becomes an identity column;
  ///   every other `INTEGER` is `BIGINT` (SQLite's integers are 64-bit), `BLOB` is `BYTEA` and
  ///   `REAL` is `DOUBLE PRECISION`.
  /// - `COLLATE NOCASE` is dropped: the stores store emails lowercased, and compare with
  ///   `lower()` where case must not matter.
  /// - Every `CREATE TABLE` gains `rowid`, an identity column, as SQLite's tables have one:
  ///   `ORDER BY rowid` (insertion order) reads the same on both engines.
  package static func postgreSQL(_ script: String) -> String {
    var text = script
    let rewrites: [(String, String)] = [
      (#"\bINTEGER\s+PRIMARY\s+KEY(\s+AUTOINCREMENT)?"#, "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
      (#"\bINTEGER\b"#, "BIGINT"),
      (#"\bBLOB\b"#, "BYTEA"),
      (#"\bREAL\b"#, "DOUBLE PRECISION"),
      (#"\s+COLLATE\s+NOCASE\b"#, ""),
      (#"\bCREATE\s+TABLE\s+(\w+)\s*\("#, "CREATE TABLE $1 (rowid BIGINT GENERATED ALWAYS AS IDENTITY, "),
    ]
    for (pattern, template) in rewrites {
      text = text.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
    }
    return text
  }

  package static func statements(of script: String) -> [String] {
    var statements: [String] = []
    var current = ""
    var quote: Character?
    var index = script.startIndex
    while index < script.endIndex {
      let character = script[index]
      let next = script.index(after: index)
      if let open = quote {
        current.append(character)
        if character == open { quote = nil }
      } else if character == "-", next < script.endIndex, script[next] == "-" {
        index = script[index...].firstIndex(of: "\n") ?? script.endIndex
        continue
      } else if character == "'" || character == "\"" {
        quote = character
        current.append(character)
      } else if character == ";" {
        statements.append(current)
        current = ""
      } else {
        current.append(character)
      }
      index = next
    }
    statements.append(current)
    return statements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
  }
}

extension SQLRow {
  /// The row as a `T` whose properties are its columns, named in camel case (`publicId` reads
  /// `public_id`): sql-kit's `SQLRowDecoder`, converting from snake case.
  package func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase).decode(type, from: self)
  }

  /// The value of one column, decoded as the type the context asks for
  /// (`let name: String = try row["name"]`). A row of several columns decodes into a struct
  /// instead (``decode(_:)``).
  package subscript<T: Decodable>(_ column: String) -> T {
    get throws { try decode(column: column, as: T.self) }
  }

  /// The value of the column at a position of the statement's result.
  package subscript<T: Decodable>(_ position: Int) -> T {
    get throws {
      guard allColumns.indices.contains(position) else { throw SQLStatementError.noColumn(position) }
      return try decode(column: allColumns[position], as: T.self)
    }
  }
}

/// A statement PostgreSQL refused: its SQLSTATE, its message and the statement (never the
/// bound values, which may be secrets).
package struct SQLFailure: Error, CustomStringConvertible {
  package let code: String
  package let message: String
  package let sql: String

  /// PostgreSQL's SQLSTATE for text it cannot store (a NUL byte).
  package static let nulInText = "22021"

  /// Whether the statement failed on text the request sent (answered 400, not 500).
  package var isBadText: Bool { code == Self.nulInText || code == "22P05" }

  init(code: String, message: String, sql: String) {
    self.code = code
    self.message = message
    self.sql = sql
  }

  init(_ error: PSQLError, sql: String) {
    self.code = error.serverInfo?[.sqlState] ?? ""
    self.message = error.serverInfo?[.message] ?? "\(error.code)"
    self.sql = sql
  }

  package var description: String { "PostgreSQL \(code): \(message) (in: \(sql))" }
}

package enum SQLStatementError: Error, CustomStringConvertible {
  case noColumns
  case noColumn(Int)

  package var description: String {
    switch self {
    case .noColumns: "the statement returned no columns"
    case .noColumn(let position): "the statement returned no column \(position)"
    }
  }
}

/// Collects the rows a driver hands over one at a time (on its own thread).
private final class RowCollector: Sendable {
  private let collected = Mutex<[any SQLRow]>([])

  func append(_ row: any SQLRow) {
    collected.withLock { $0.append(row) }
  }

  var rows: [any SQLRow] { collected.withLock { $0 } }
}

/// The rows of a multi-row `VALUES`: `row` (its placeholders) `count` times, separated by commas.
package enum SQLRows {
  package static func values(_ row: String, count: Int) -> String {
    Array(repeating: row, count: count).joined(separator: ", ")
  }
}
