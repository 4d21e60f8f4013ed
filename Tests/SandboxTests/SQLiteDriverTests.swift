import Foundation
import SQLKit
import TestSupport
import Testing

@testable import SandboxKit

/// The sandbox's SQLite driver (the system's SQLite, statements run on the caller's thread):
/// values go in and come out as the stores bind and read them, and nothing a file holds can
/// trap the server.
@Suite struct SQLiteDriverTests {
  /// A connection to a new database in a scratch directory.
  static func withConnection(_ body: (any SQLDatabase, SQLiteConnection) async throws -> Void) async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let connection = try SQLiteConnection.open(path: directory.path("driver.sqlite"))
    defer { connection.close() }
    try await body(connection.sql(), connection)
  }

  @Test func valuesRoundTripAsTheStoresBindThem() async throws {
    try await Self.withConnection { db, _ in
      try await db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, flag INTEGER, id TEXT, maybe TEXT)")
      let id = UUID()
      let bytes = Data([0, 1, 2, 255])
      try await db.execute(
        "INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?)",
        [Int64.max, 2.5, "héllo 'quoted' ? not a bind", bytes, true, id, String?.none])
      let row = try #require(try await db.fetchOne("SELECT * FROM t"))
      #expect(try row["i"] as Int64 == .max)
      #expect(try row["i"] as Int == .max)
      #expect(try row["r"] as Double == 2.5)
      #expect(try row["s"] as String == "héllo 'quoted' ? not a bind")
      #expect(try row["b"] as Data == bytes)
      #expect(try row["b"] as [UInt8] == [0, 1, 2, 255])
      #expect(try row["flag"] as Bool)
      #expect(try row["id"] as UUID == id)
      #expect(try row["maybe"] as String? == nil)
      #expect(try row["s"] as String? == "héllo 'quoted' ? not a bind")
      #expect(try row.decodeNil(column: "maybe"))
      #expect(try row[0] as Int64 == .max, "by position")
      #expect(row.allColumns == ["i", "r", "s", "b", "flag", "id", "maybe"])

      // An empty blob stays a blob (not NULL).
      try await db.execute("UPDATE t SET b = ?", [Data()])
      #expect(try await db.fetchValue(String.self, "SELECT typeof(b) FROM t") == "blob")
    }
  }

  /// A value that does not fit the type asked for, or is of another type, is an error, never a
  /// trap (a file another program wrote can hold anything).
  @Test func valuesThatDoNotFitAreErrorsNotTraps() async throws {
    try await Self.withConnection { db, _ in
      try await db.execute("CREATE TABLE t (big INTEGER, word TEXT, absent TEXT)")
      try await db.execute("INSERT INTO t VALUES (?, ?, NULL)", [Int64.max, "seven"])
      let row = try #require(try await db.fetchOne("SELECT * FROM t"))
      #expect(throws: DecodingError.self) { try row["big"] as Int32 }
      #expect(throws: DecodingError.self) { try row["big"] as UInt8 }
      #expect(throws: DecodingError.self) { try row["word"] as Int }
      #expect(throws: DecodingError.self) { try row["absent"] as String }
      #expect(throws: DecodingError.self) { try row["missing"] as String }
      #expect(throws: (any Error).self) { try row[9] as String }
    }
  }

  @Test func sqliteRefusalsNameTheStatementAndNotTheValues() async throws {
    try await Self.withConnection { db, _ in
      try await db.execute("CREATE TABLE t (id TEXT PRIMARY KEY)")
      try await db.execute("INSERT INTO t VALUES (?)", ["secret-value"])
      let failure = try await #require(throws: SQLiteFailure.self) {
        try await db.execute("INSERT INTO t VALUES (?)", ["secret-value"])
      }
      #expect(failure.description.contains("UNIQUE constraint failed: t.id"))
      #expect(failure.description.contains("INSERT INTO t VALUES (?)"))
      #expect(!failure.description.contains("secret-value"))
      // A statement's wrong number of values, and a second statement in one call (SQLite would
      // run the first and drop the second without a word), are refused before anything runs.
      await #expect(throws: SQLiteFailure.self) { try await db.execute("INSERT INTO t VALUES (?)", []) }
      await #expect(throws: SQLiteFailure.self) {
        try await db.execute("DELETE FROM t; DROP TABLE t")
      }
      #expect(try await db.fetchValue(Int.self, "SELECT count(*) FROM t") == 1)
    }
  }

  /// Statements are prepared once and reused; a failed or abandoned run leaves the statement
  /// ready for the next, and past the cache's size they are prepared again.
  @Test func preparedStatementsAreReusedAndReset() async throws {
    try await Self.withConnection { db, _ in
      try await db.execute("CREATE TABLE t (n INTEGER)")
      try await db.execute("BEGIN")
      for n in 0..<(SQLiteConnection.statementCacheSize + 10) {
        try await db.execute("INSERT INTO t VALUES (?)", [n])
        // A new text each time: the cache fills and starts again.
        _ = try await db.fetchValue(Int.self, "SELECT \(n) + count(*) FROM t")
      }
      try await db.execute("COMMIT")
      #expect(try await db.fetchValue(Int.self, "SELECT count(*) FROM t") == SQLiteConnection.statementCacheSize + 10)
      // Reading one row of many leaves the statement reset: the next run starts at the first row.
      #expect(try await db.fetchValue(Int.self, "SELECT n FROM t ORDER BY n") == 0)
      #expect(try await db.fetchValue(Int.self, "SELECT n FROM t ORDER BY n") == 0)
    }
  }

  /// Long statements (a seed's multi-row inserts, a different text for each batch size) run
  /// and are finalized, not kept: kept, they held 8 MB of the server's memory after a seed.
  @Test func longStatementsAreNotKept() async throws {
    try await Self.withConnection { db, connection in
      try await db.execute("CREATE TABLE t (n INTEGER)")
      let kept = connection.keptStatementCount
      for count in [300, 301, 302] {
        let rows = Array(repeating: "(?)", count: count).joined(separator: ", ")
        try await db.execute("INSERT INTO t VALUES \(rows)", Array(0..<count))
      }
      #expect(connection.keptStatementCount == kept)
      #expect(try await db.fetchValue(Int.self, "SELECT count(*) FROM t") == 903)
      // Short ones are kept, and a long one that fails leaves nothing behind.
      let long = "SELECT n FROM t WHERE n IN (" + Array(repeating: "?", count: 400).joined(separator: ", ") + ")"
      await #expect(throws: SQLiteFailure.self) { try await db.execute(long, [1]) }
      #expect(connection.keptStatementCount == kept + 1, "the count(*) only")
    }
  }

  /// `deck doctor` reads a database without creating or changing it.
  @Test func readOnlyConnectionsNeitherCreateNorWrite() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let path = directory.path("absent.sqlite")
    #expect(throws: SQLiteFailure.self) { try SQLiteConnection.open(path: path, readOnly: true) }
    #expect(!FileManager.default.fileExists(atPath: path))
    let writer = try SQLiteConnection.open(path: path)
    try await writer.sql().execute("CREATE TABLE t (n INTEGER)")
    writer.close()
    let reader = try SQLiteConnection.open(path: path, readOnly: true)
    defer { reader.close() }
    await #expect(throws: SQLiteFailure.self) { try await reader.sql().execute("INSERT INTO t VALUES (1)") }
  }
}
