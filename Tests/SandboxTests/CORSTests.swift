import Foundation
import SandboxApp
import TestSupport
import Testing

@testable import SandboxKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// CORS as Supabase's gateway serves it (issue 48, item 8), over HTTP against an embedded
/// sandbox: preflights on every kind of route, the headers on answers (errors included), for
/// loopback origins and `--cors-origin` ones only.
@Suite struct CORSTests {
  let endpoints = GoTrueEndpointTests()

  struct Answer {
    var status: Int
    var headers: [String: String]

    func header(_ name: String) -> String? { headers[name.lowercased()] }
  }

  func call(
    _ server: GoTrueEndpointTests.Server, _ method: String, _ path: String, origin: String?,
    headers: [String: String] = [:]
  ) async throws -> Answer {
    var request = URLRequest(url: try #require(URL(string: server.sandbox.baseURL.absoluteString + path)))
    request.httpMethod = method
    if let origin { request.setValue(origin, forHTTPHeaderField: "Origin") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (_, response) = try await URLSession.shared.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    var fields: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
      if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
    }
    return Answer(status: http.statusCode, headers: fields)
  }

  func preflight(_ server: GoTrueEndpointTests.Server, _ path: String, origin: String, method: String = "POST")
    async throws -> Answer
  {
    try await call(
      server, "OPTIONS", path, origin: origin,
      headers: [
        "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": "authorization, apikey, content-type, x-client-info",
      ])
  }

  @Test(.timeLimit(.minutes(3))) func loopbackPagesArePreflightedOnEveryKindOfRoute() async throws {
    try await endpoints.withServer { server in
      let origin = "http://localhost:3000"
      for path in [
        "/auth/v1/token?grant_type=password", "/storage/v1/object/avatars/user/photo.png", "/rest/v1/profiles",
        "/__sandbox/v1/reset",
      ] {
        let answer = try await preflight(server, path, origin: origin)
        #expect(answer.status == 200, "\(path)")
        #expect(answer.header("Access-Control-Allow-Origin") == origin, "\(path)")
        #expect(answer.header("Access-Control-Allow-Methods")?.contains("POST") == true, "\(path)")
        #expect(answer.header("Access-Control-Allow-Headers") == "authorization, apikey, content-type, x-client-info")
      }
      // Answers carry the origin too, errors included, with the headers a page needs to read.
      let error = try await call(server, "GET", "/auth/v1/user", origin: "http://127.0.0.1:5173")
      #expect(error.status == 401)
      #expect(error.header("Access-Control-Allow-Origin") == "http://127.0.0.1:5173")
      #expect(error.header("Access-Control-Expose-Headers")?.contains("x-sb-error-code") == true)
      let missing = try await call(server, "GET", "/auth/v1/no-such-route", origin: origin)
      #expect(missing.status == 404)
      #expect(missing.header("Access-Control-Allow-Origin") == origin)
      // Without an Origin it is no preflight: the route's methods answer as before.
      #expect(try await call(server, "OPTIONS", "/auth/v1/user", origin: nil).status == 405)
    }
  }

  @Test(.timeLimit(.minutes(3))) func otherOriginsGetNoCORSHeadersUnlessServeNamesThem() async throws {
    let named = "https://app.example.test:8443"
    try await endpoints.withServer(configure: { $0.corsOrigins = CORSOrigins([named + "/"]) }) { server in
      let stranger = try await preflight(server, "/auth/v1/token", origin: "https://evil.example.test")
      #expect(stranger.status == 200)
      #expect(stranger.header("Access-Control-Allow-Origin") == nil)
      #expect(stranger.header("Access-Control-Allow-Methods") == nil)
      let strangerCall = try await call(server, "GET", "/auth/v1/settings", origin: "https://evil.example.test")
      #expect(strangerCall.status == 200)
      #expect(strangerCall.header("Access-Control-Allow-Origin") == nil)

      #expect(
        try await preflight(server, "/auth/v1/token", origin: named).header("Access-Control-Allow-Origin") == named)
      let settings = try await call(server, "GET", "/auth/v1/settings", origin: named)
      #expect(settings.header("Access-Control-Allow-Origin") == named)
      #expect(settings.header("Vary")?.contains("Origin") == true)
      // The operator endpoints take loopback pages only, as their guard does.
      let operatorRoute = try await preflight(server, "/__sandbox/v1/reset", origin: named)
      #expect(operatorRoute.header("Access-Control-Allow-Origin") == nil)
    }
  }

  @Test func originsAreNormalizedAndValidated() {
    let origins = CORSOrigins(["HTTPS://App.Example.Test/", "not an origin", "http://host/path"])
    #expect(origins.extra == ["https://app.example.test"])
    #expect(origins.allows("https://app.example.test", operatorRoute: false))
    #expect(!origins.allows("https://app.example.test", operatorRoute: true))
    #expect(origins.allows("http://[::1]:8080", operatorRoute: true))
    #expect(!origins.allows("null", operatorRoute: false))
    #expect(!origins.allows("http://localhost.evil.test", operatorRoute: false))
  }
}
