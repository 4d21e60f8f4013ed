import Foundation
import GRDB
import SandboxApp

@testable import BrokerageSandbox
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

/// Runs `body` with a migrated but empty database in a temporary directory.
package func withEmptyDatabase<T>(_ body: (DatabasePool) throws -> T) throws -> T {
  let directory = try ScratchDirectory()
  defer { directory.cleanUp() }
  let pool = try SandboxDatabase.open(path: directory.path("sandbox.sqlite"), features: SandboxRegistry.features)
  return try body(pool)
}

/// Inserts brokerages with the given names.
package func insertBrokerages(_ names: [String], into pool: DatabasePool) throws {
  try pool.write { db in
    let writer = try BrokerageWriter(db)
    for name in names { try writer.insert(name: name) }
  }
}

/// Validates and runs a search, returning the names.
package func searchNames(_ pool: DatabasePool, _ query: String, limit: Int? = nil) throws -> [String] {
  let (normalized, limit) = try BrokerageSearch.validate(query: query, limit: limit)
  return try pool.read { db in try BrokerageSearch.search(db, query: normalized, limit: limit) }.map(\.name)
}

extension SandboxOptions {
  /// Options for a test server with every feature deck registers.
  package init(
    databasePath: String, host: String = "127.0.0.1", port: Int = 0, accessTokenTTL: Int = 3600,
    publicURL: String? = nil
  ) {
    self.init(
      databasePath: databasePath, host: host, port: port, accessTokenTTL: accessTokenTTL, publicURL: publicURL,
      features: SandboxRegistry.features)
  }
}

extension SandboxServer {
  /// The anon key of the test database at `databasePath`.
  package static func anonKey(databasePath: String) async throws -> String {
    try await anonKey(SandboxOptions(databasePath: databasePath))
  }
}
