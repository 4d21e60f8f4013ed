import Foundation
import Logging
import NIOCore
import PrefsRules
import SQLKit
import SandboxApp
import Synchronization
import TestSupport
import Testing

@testable import PrefsServer
@testable import SandboxKit

/// A database that counts the statements sent through it.
private final class CountingDatabase: SQLDatabase {
  let base: any SQLDatabase
  let statements = Mutex(0)

  init(_ base: any SQLDatabase) { self.base = base }

  var logger: Logger { base.logger }
  var eventLoop: any EventLoop { base.eventLoop }
  var version: (any SQLDatabaseReportedVersion)? { base.version }
  var dialect: any SQLDialect { base.dialect }

  func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<
    Void
  > {
    statements.withLock { $0 += 1 }
    return base.execute(sql: query, onRow)
  }

  func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
    statements.withLock { $0 += 1 }
    try await base.execute(sql: query, onRow)
  }
}

/// A history record of many changes is one statement, on both engines: a round trip per change
/// made a 200-change `prefs import` take seconds on PostgreSQL, past the QA step's timeout under
/// load (`prefs-5.edge.4` in `scripts/stress-qa`).
@Suite("Preference history: one statement per record")
struct PrefsHistoryStatementTests {
  @Test func twoHundredChangesAreOneInsertAndKeepTheirOrder() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let location = try DatabaseLocation.parse(TestDatabase.location(for: directory.path("history.sqlite")))
    let database = try await SandboxDatabase.open(location, features: SandboxRegistry.features)
    let changes = (0..<200).map { FieldChange(field: "field\($0)", old: $0 == 0 ? nil : "\($0 - 1)", new: "\($0)") }
    let outcome: Result<(rows: [HistoryRow], statements: Int, stored: [HistoryRow]), any Error>
    do {
      let result = try await database.write { db in
        try await db.execute(
          "INSERT INTO users (id, email, password_hash, created_at) VALUES (?, ?, ?, ?)",
          ["u1", "history@x.test", "-", "2026-11-29T00:00:00Z"])
        let counting = CountingDatabase(db)
        let rows = try await PrefsStore.record(
          counting, userID: "u1", by: "history@x.test", category: .player, changes: changes)
        let stored = try await PrefsStore.history(db, userID: "u1", category: .player, limit: 1000)
        return (rows, counting.statements.withLock { $0 }, stored)
      }
      outcome = .success(result)
    } catch {
      outcome = .failure(error)
    }
    await database.close()
    let (rows, statements, stored) = try outcome.get()
    #expect(statements == 1)
    #expect(rows.map(\.field) == changes.map(\.field))
    #expect(rows.map(\.new) == changes.map(\.new))
    #expect(rows.map(\.id) == rows.map(\.id).sorted() && Set(rows.map(\.id)).count == 200)
    // The history reads newest first: the same entries, with the ids the record returned.
    #expect(stored.reversed().map(\.id) == rows.map(\.id))
    #expect(stored.reversed().map(\.field) == changes.map(\.field))
  }
}
