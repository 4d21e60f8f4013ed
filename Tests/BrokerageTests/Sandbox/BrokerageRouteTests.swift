import Foundation
import SandboxApp
import TestSupport
import Testing

@testable import SandboxKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The typeahead route over HTTP against an embedded server: its answer and its errors.
@Suite struct BrokerageRouteTests {
  func get(_ base: URL, _ path: String) async throws -> (status: Int, json: Any?) {
    let url = try #require(URL(string: base.absoluteString + path))
    let (data, response) = try await URLSession.shared.data(for: URLRequest(url: url))
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    return (status, data.isEmpty ? nil : try? JSONSerialization.jsonObject(with: data))
  }

  @Test func theSearchAnswersAndNamesItsErrors() async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let sandbox = try await SandboxServer.start(.init(databasePath: directory.path("sandbox.sqlite")))
    let base = sandbox.baseURL
    let search = try await get(base, "/api/brokerages/search?q=%20Compass%20&limit=2")
    #expect(search.status == 200)
    #expect((search.json as? [[String: String]])?.map { $0["name"] } == ["Compass", "Compass Real Estate"])
    for (query, message) in [
      ("q=%20%20", "q is required"), ("", "q is required"), ("q=a&limit=0", "limit must be between 1 and 50"),
      ("q=a&limit=51", "limit must be between 1 and 50"), ("q=a&limit=ten", "limit must be between 1 and 50"),
    ] {
      let reply = try await get(base, "/api/brokerages/search?" + query)
      #expect(reply.status == 400, "\(query)")
      #expect((reply.json as? [String: String]) == ["error": message], "\(query)")
    }
    await sandbox.stop()
  }

  /// A schemathesis case: a NUL in the query is a query that matches nothing, not a 500.
  @Test func aQueryWithANulIsAnEmptyResultNotA500() async throws {
    let server = try await EmbeddedSandbox.start(features: SandboxRegistry.features)
    defer { Task { await server.stop() } }
    let reply = try await EmbeddedSandbox.curl([server.base + "/api/brokerages/search?q=n%00abc"])
    #expect(reply.status == 200)
    #expect((try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [Any])?.isEmpty == true)
  }
}
