import DeckConfig
import DeckNetworking
import DeckSupport
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

/// Issue 44, finding 15: an origin is scheme, host and port.
@Suite("Token origins")
struct TokenOriginTests {
  typealias Next = @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)

  @Test func theOriginHasTheSchemeAndThePort() {
    #expect(AuthMiddleware.origin(scheme: "https", host: "LocalHost", port: nil) == "https://localhost:443")
    #expect(AuthMiddleware.origin(scheme: "http", host: "localhost", port: 80) == "http://localhost:80")
    #expect(AuthMiddleware.origin(scheme: "http", host: "::1", port: 8787) == "http://[::1]:8787")
    #expect(AuthMiddleware.origin(scheme: "http", host: "[::1]", port: 8787) == "http://[::1]:8787")
    #expect(AuthMiddleware.origin(scheme: "ftp", host: "x", port: nil) == nil)
    #expect(ParsedURL("HTTPS://Flyrpro.App/v1")?.origin == "https://flyrpro.app:443")
  }

  @Test func aTokenForHTTPSLocalhostDoesNotGoToPlainHTTP() async throws {
    let seen = Mutex<[String?]>([])
    let notes = Mutex<[String]>([])
    let next: Next = { request, _, _ in
      seen.withLock { $0.append(request.headerFields[.authorization]) }
      return (HTTPResponse(status: .ok), nil)
    }
    let stored = try #require(AuthMiddleware.origin(scheme: "https", host: "localhost", port: nil))
    let now = try #require(AuthMiddleware.origin(scheme: "http", host: "localhost", port: 80))
    let policy = TokenPolicy(allowed: [stored], withheld: [now: "sign in again"])
    let middleware = AuthMiddleware(policy: policy, note: { note in notes.withLock { $0.append(note) } }) { "t" }
    let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/x")
    for base in ["http://localhost", "http://localhost:80", "https://localhost"] {
      _ = try await middleware.intercept(
        request, body: nil, baseURL: try #require(URL(string: base)), operationID: "x", next: next)
    }
    #expect(seen.withLock { $0 } == [nil, nil, "Bearer t"])
    #expect(
      notes.withLock { $0 } == Array(repeating: "! token withheld from http://localhost:80: sign in again", count: 2))
  }

  @Test func keysStoredWithoutASchemeStandForWhatTheyCanMeanSafely() {
    // `localhost` was https://localhost or http://localhost:80: only the first is kept.
    #expect(AuthMiddleware.origins(ofStoredKey: "localhost") == ["https://localhost:443"])
    // `host:port` named one port: one server answers there, whichever scheme.
    #expect(
      AuthMiddleware.origins(ofStoredKey: "127.0.0.1:8787") == ["http://127.0.0.1:8787", "https://127.0.0.1:8787"])
    #expect(AuthMiddleware.origins(ofStoredKey: "[::1]") == ["https://[::1]:443"])
    #expect(AuthMiddleware.origins(ofStoredKey: "http://a.example:80") == ["http://a.example:80"])
  }
}
