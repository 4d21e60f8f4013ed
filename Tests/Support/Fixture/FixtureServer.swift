import Foundation
import Hummingbird
import NIOCore
import SQLKit
import SandboxKit

/// The fixture feature's part of the sandbox: `GET /api/fixture/items`, over ``FixtureItems``
/// (the fixture's own rows, in memory), a public route, so fault rules and the delay act on it
/// as on a feature's; and a table of numbered rows, `fixture_rows`, which only synthetic data
/// (kind `fixture rows`) fills and `deck sandbox status` counts.
package enum FixtureServer: SandboxFeature {
  package static let name = "fixture"
  /// The kind of its synthetic data, and the name of its count.
  package static let rows = "fixture rows"

  package static func registerMigrations(in migrations: inout SchemaMigrations) {
    migrations.add("v1-fixture-rows", script: "CREATE TABLE fixture_rows (number INTEGER PRIMARY KEY NOT NULL);")
  }

  package static func counts(_ db: any SQLDatabase) async throws -> [String: Int] {
    [rows: try await db.fetchValue(Int.self, "SELECT count(*) FROM fixture_rows") ?? 0]
  }

  package static var syntheticData: [String: SyntheticData] { [rows: addRows] }

  /// Adds `count` rows, numbered on from the last (in statements of up to 1,000 rows).
  @Sendable static func addRows(_ db: any SQLDatabase, _ count: Int) async throws {
    var next = (try await db.fetchValue(Int.self, "SELECT count(*) FROM fixture_rows") ?? 0) + 1
    let end = next + count
    while next < end {
      let batch = next..<min(end, next + 1000)
      var insert = db.insert(into: "fixture_rows").columns("number")
      for number in batch { insert = insert.values(SQLBind(number)) }
      try await insert.run()
      next = batch.upperBound
    }
  }

  package static func registerRoutes(on routes: SandboxRoutes) throws {
    routes.router.get(RouterPath(FixtureItems.path)) { request, _ -> Response in
      let parameters = request.uri.queryParameters
      let query = (parameters.get("q") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
      guard !query.isEmpty else { return .json(.simple(.badRequest, "q is required")) }
      let limit = parameters.get("limit").map { Int($0) } ?? FixtureItems.defaultLimit
      guard let limit, FixtureItems.limits.contains(limit) else {
        return .json(.simple(.badRequest, "limit must be an integer from 1 to 50"))
      }
      let body = try JSONEncoder().encode(FixtureItems.search(query, limit: limit))
      return Response(
        status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: body)))
    }
  }
}

/// The fixture's items: a name, and a stable id from its place in the list.
package enum FixtureItems {
  package struct Item: Codable, Sendable, Equatable {
    package var id: String
    package var name: String
  }

  package static let path = "/api/fixture/items"
  package static let limits = 1...50
  static let defaultLimit = 15

  /// Five names start with "Alpha"; two names have a comma (CSV quotes them).
  package static let names = [
    "Alpha Homes", "Alpha Homes Realty", "Alpha Partners", "Alpha Realty Group", "Alpha Realty, West",
    "Beta Properties", "Beta Realty, East", "Gamma Estates",
  ]

  package static let all = names.enumerated().map { Item(id: "fixture-\($0.offset + 1)", name: $0.element) }

  /// The names that start with `prefix` (case does not matter): the query's completions.
  package static func completions(of prefix: String) -> [String] {
    names.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
  }

  /// The items whose name contains `query` (case does not matter), in the list's order.
  package static func search(_ query: String, limit: Int) -> [Item] {
    Array(all.filter { $0.name.lowercased().contains(query.lowercased()) }.prefix(limit))
  }
}
