import Foundation
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

/// One value bound where SQL expects nothing (`NULL`): `Optional<String>.none` as a bind.
package let sqlNull: String? = nil

extension SQLDatabase {
  /// Runs a statement that returns no rows.
  package func execute(_ sql: String, _ binds: [any Encodable & Sendable] = []) async throws {
    try await execute(sql: SQLStatement(sql, binds)) { _ in }
  }

  /// Every row of a statement.
  package func fetchAll(_ sql: String, _ binds: [any Encodable & Sendable] = []) async throws -> [any SQLRow] {
    let rows = RowCollector()
    try await execute(sql: SQLStatement(sql, binds)) { rows.append($0) }
    return rows.rows
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
  /// The value of a column, decoded as the type the context asks for (`let name: String = try row["name"]`).
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
