import SQLKit
import TestSupport
import Testing

@testable import SandboxKit

/// What SQLKit's builders write through the sandbox's SQLite dialect runs on SQLite: each
/// case is one sql-kit's benchmark (`SQLKitBenchmarkTests`) found failing.
@Suite struct SQLiteDialectTests {
  /// `DEFAULT` in a row's values (SQLite has none) numbers a `bigint` primary key, which is
  /// SQLite's rowid.
  @Test func aDefaultValueNumbersABigintPrimaryKey() async throws {
    try await SQLiteDriverTests.withConnection { db, _ in
      try await db.create(table: "t").column("id", type: .bigint, .primaryKey).column("name", type: .text).run()
      try await db.insert(into: "t").columns("id", "name")
        .values(SQLLiteral.default, SQLBind("a")).values(SQLLiteral.default, SQLBind("b")).run()
      #expect(try await db.fetchColumn(Int.self, "SELECT id FROM t ORDER BY id") == [1, 2])
    }
  }

  /// A path into a JSON column reads the value there.
  @Test func jsonPathsReadNestedValues() async throws {
    try await SQLiteDriverTests.withConnection { db, _ in
      try await db.execute("CREATE TABLE m (doc TEXT)")
      try await db.execute("INSERT INTO m VALUES (?)", [#"{"a":{"b.c":[1,2]}}"#])
      let rows = try await db.select()
        .column(SQLNestedSubpathExpression(column: "doc", path: ["a", "b.c"]), as: "v").from("m").all()
      #expect(try rows.first?.decode(column: "v", as: String.self) == "[1,2]")
    }
  }

  /// An insert that meets a row of the same key updates it (`ON CONFLICT … DO UPDATE`).
  @Test func upsertsUpdateTheRowTheyMeet() async throws {
    try await SQLiteDriverTests.withConnection { db, _ in
      try await db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER)")
      try await db.execute("INSERT INTO t VALUES (1, 1)")
      try await db.insert(into: "t").columns("id", "n").values(SQLBind(1), SQLBind(5))
        .onConflict(with: ["id"]) { $0.set(excludedValueOf: "n") }.run()
      #expect(try await db.fetchValue(Int.self, "SELECT n FROM t WHERE id = 1") == 5)
    }
  }
}
