import Foundation
import SQLKit
import SQLKitBenchmark
import TestSupport
import XCTest

@testable import SandboxKit

/// sql-kit's own benchmark (`SQLBenchmarker`: schema, inserts, Codable models, enums, upserts,
/// unions, JSON paths), run against the sandbox's SQLite driver and its engines, as sql-kit's
/// adapters run it. The benchmark asserts with XCTest, so this is an XCTestCase (a Swift
/// Testing test would not see its failures).
final class SQLKitBenchmarkTests: XCTestCase {
  /// The driver itself: one connection to a new file.
  func testTheSQLiteDriverPassesSQLKitsBenchmark() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let connection = try SQLiteConnection.open(path: directory.path("benchmark.sqlite"))
    defer { connection.close() }
    try await SQLBenchmarker(on: connection.sql()).runAllTests()
  }

  /// The sandbox's database on the engine the tests run on (`DECK_TEST_DATABASE=postgres`:
  /// PostgreSQL), through its writing connection.
  func testTheSandboxDatabasePassesSQLKitsBenchmark() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let location = try DatabaseLocation.parse(TestDatabase.location(for: directory.path("engine.sqlite")))
    let database = try await SandboxDatabase.open(location, features: [])
    do {
      try await database.writeWithoutTransaction { db in try await SQLBenchmarker(on: db).runAllTests() }
    } catch {
      await database.close()
      throw error
    }
    await database.close()
  }
}
