import Foundation
import SandboxApp
import TestSupport
import Testing

@testable import SandboxKit

/// What `deck sandbox serve --database postgres://…` says when it cannot use the database: the
/// server's reason, at once, and never the password. (On the test cluster: scripts/pg-cluster.)
@Suite struct PostgresConnectTests {
  static func failure(_ url: String) async -> String? {
    do {
      let database = try await SandboxDatabase.open(DatabaseLocation.parse(url), features: SandboxRegistry.features)
      await database.close()
      return nil
    } catch {
      return String(describing: error)
    }
  }

  static func string(_ url: URLComponents) throws -> String {
    try #require(url.string)
  }

  static var cluster: URLComponents {
    get throws { try #require(URLComponents(string: TestDatabase.cluster)) }
  }

  @Test func aWrongPasswordIsNamedAndNotShown() async throws {
    var url = try Self.cluster
    url.password = "not-the-password-42"
    let message = try #require(await Self.failure(try Self.string(url)))
    #expect(message.contains("password authentication failed"), "\(message)")
    #expect(!message.contains("not-the-password-42"), "\(message)")
    #expect(message.contains("password from the URL"), "\(message)")
  }

  @Test func requiringTLSFromAServerWithoutItSaysHowToFixIt() async throws {
    var url = try Self.cluster
    url.queryItems = [URLQueryItem(name: "sslmode", value: "require")]
    let message = try #require(await Self.failure(try Self.string(url)))
    #expect(message.contains("does not offer TLS"), "\(message)")
    #expect(message.contains("sslmode=disable"), "\(message)")
    #expect(!message.contains(try Self.cluster.password ?? "?"), "\(message)")
  }

  @Test func anUnknownDatabaseIsNamed() async throws {
    var url = try Self.cluster
    url.path = "/no_such_database"
    let message = try #require(await Self.failure(try Self.string(url)))
    #expect(message.contains(#"database "no_such_database" does not exist"#), "\(message)")
  }
}
