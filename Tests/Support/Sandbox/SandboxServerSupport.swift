import Foundation
import SandboxApp

@testable import BrokerageServer
@testable import SandboxKit

/// A fresh directory under the system temporary directory, removed by `cleanUp()`.
package struct ScratchDirectory {
  package let url: URL

  package init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("deck-sandbox-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  package func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// Runs `body` with a migrated but empty database (a file in a temporary directory, or a new
/// database on the PostgreSQL test cluster: ``TestDatabase``), then closes the database and
/// removes the directory (also when `body` throws).
package func withEmptyDatabase<T>(_ body: (SandboxDatabase) async throws -> T) async throws -> T {
  let directory = try ScratchDirectory()
  defer { directory.cleanUp() }
  let location = try DatabaseLocation.parse(TestDatabase.location(for: directory.path("sandbox.sqlite")))
  let database = try await SandboxDatabase.open(location, features: SandboxRegistry.features)
  do {
    let result = try await body(database)
    await database.close()
    return result
  } catch {
    await database.close()
    throw error
  }
}

/// Inserts brokerages with the given names.
package func insertBrokerages(_ names: [String], into database: SandboxDatabase) async throws {
  _ = try await database.write { db in try await BrokerageWriter(db).insert(names: names) }
}

/// Validates and runs a search, returning the names.
package func searchNames(_ database: SandboxDatabase, _ query: String, limit: Int? = nil) async throws -> [String] {
  let (normalized, limit) = try BrokerageSearch.validate(query: query, limit: limit)
  return try await database.read { db in
    try await BrokerageSearch.search(db, query: normalized, limit: limit)
  }.map(\.name)
}

extension SandboxOptions {
  /// Options for a test server with `features` (every feature deck registers, unless a test
  /// gives others), on the test engine (``TestDatabase``: the file itself, or a PostgreSQL
  /// database of its own).
  package init(
    databasePath: String, host: String = "127.0.0.1", port: Int = 0, accessTokenTTL: Int = 3600,
    publicURL: String? = nil, features: [any SandboxFeature.Type] = SandboxRegistry.features
  ) {
    self.init(
      databasePath: TestDatabase.location(for: databasePath), host: host, port: port, accessTokenTTL: accessTokenTTL,
      publicURL: publicURL, features: features, eventLoopGroup: nil)
  }
}

extension SandboxServer {
  /// The anon key of the test database at `databasePath`.
  package static func anonKey(databasePath: String) async throws -> String {
    try await anonKey(SandboxOptions(databasePath: databasePath))
  }
}
