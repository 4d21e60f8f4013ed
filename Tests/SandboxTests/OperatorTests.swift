import Foundation
import SandboxApp
import TestSupport
import Testing

@testable import SandboxKit

/// The operator endpoints' guard, the body limit, 405s, link addresses and fault rules, over
/// real HTTP (curl, which can send any Host or Origin) against an embedded server.
@Suite(.serialized, .timeLimit(.minutes(2))) struct OperatorTests {
  typealias Reply = EmbeddedSandbox.Reply
  typealias Server = EmbeddedSandbox

  static func curl(_ arguments: [String]) async throws -> Reply { try await EmbeddedSandbox.curl(arguments) }

  /// A server with every feature deck registers and the fixture feature (``FixtureServer``,
  /// whose `GET /api/fixture/items` the tests of the fault rules and the request log call).
  static func start(publicURL: String? = nil) async throws -> Server {
    try await EmbeddedSandbox.start(publicURL: publicURL, features: SandboxRegistry.features + [FixtureServer.self])
  }

  static func rules(_ server: Server) async throws -> [[String: Any]] {
    let body = try await server.admin("GET", "/__sandbox/v1/faults").body
    return try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [[String: Any]])
  }

  @Test func operatorEndpointsNeedTheAdminToken() async throws {
    let server = try await Self.start()
    defer { Task { await server.stop() } }
    // A bare POST, as a web page could send it, resets nothing.
    let bare = try await Self.curl(["-X", "POST", server.base + "/__sandbox/v1/reset"])
    #expect(bare.status == 401)
    #expect(bare.headers.lowercased().contains("www-authenticate: bearer"))
    #expect(try await Self.curl([server.base + "/__sandbox/v1/info"]).status == 401)
    let wrong = try await Self.curl([
      "-H", "Authorization: Bearer nope", server.base + "/__sandbox/v1/workspace/outbox",
    ])
    #expect(wrong.status == 401)
    #expect(try await Self.curl(server.auth + [server.base + "/__sandbox/v1/info"]).status == 200)
    // With the token but no JSON content type: 415.
    let plain = try await Self.curl(["-X", "POST"] + server.auth + [server.base + "/__sandbox/v1/reset"])
    #expect(plain.status == 415)
    let form = try await Self.curl(
      ["-X", "POST", "-H", "Content-Type: text/plain", "--data", "{}"] + server.auth
        + [server.base + "/__sandbox/v1/reset"])
    #expect(form.status == 415)
    // A page elsewhere (Origin) or a rebinding DNS name (Host): 403.
    let origin = try await server.admin(
      "POST", "/__sandbox/v1/reset", body: "{}", extra: ["-H", "Origin: http://evil.example"])
    #expect(origin.status == 403)
    let host = try await server.admin(
      "POST", "/__sandbox/v1/reset", body: "{}", extra: ["-H", "Host: evil.example:80"])
    #expect(host.status == 403)
    let prefix = try await server.admin(
      "POST", "/__sandbox/v1/reset", body: "{}", extra: ["-H", "Host: 127.attacker.example"])
    #expect(prefix.status == 403)
    // All of it right: the reset happens, and keeps the admin token.
    let reset = try await server.admin(
      "POST", "/__sandbox/v1/reset", body: "{}", extra: ["-H", "Origin: http://127.0.0.1"])
    #expect(reset.status == 200)
    #expect(try await Self.curl(server.auth + [server.base + "/__sandbox/v1/info"]).status == 200)
    // The token is per database, and stable across restarts.
    let path = server.directory.path("sandbox.sqlite")
    let again = try await SandboxServer.start(.init(databasePath: path))
    #expect(again.adminToken == server.sandbox.adminToken)
    #expect(server.sandbox.adminToken.count == 64)
    await again.stop()
    let other = try await Self.start()
    #expect(other.sandbox.adminToken != server.sandbox.adminToken)
    await other.stop()
  }

  @Test func bodiesOverOneMegabyteAreRefused() async throws {
    let server = try await Self.start()
    defer { Task { await server.stop() } }
    let file = server.directory.path("big.json")
    let big = "{\"email\":\"" + String(repeating: "a", count: 2 << 20) + "\"}"
    try big.write(toFile: file, atomically: true, encoding: .utf8)
    let declared = try await Self.curl(
      ["-H", "Content-Type: application/json", "--data-binary", "@" + file, server.base + "/auth/v1/signup"])
    #expect(declared.status == 413)
    let streamed = try await Self.curl(
      [
        "-H", "Content-Type: application/json", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + file,
        server.base + "/auth/v1/signup",
      ])
    #expect(streamed.status == 413)
    #expect(streamed.json?["error"] as? String == BodyLimitMiddleware.message)
    // Operator endpoints too, and the server still answers afterwards.
    let admin = try await server.admin("POST", "/__sandbox/v1/seed", body: "@" + file)
    #expect(admin.status == 413)
    let small = try await Self.curl([server.base + "/api/fixture/items?q=alpha"])
    #expect(small.status == 200)
  }

  @Test func undeclaredMethodsGet405() async throws {
    let server = try await Self.start()
    defer { Task { await server.stop() } }
    let patch = try await Self.curl(["-X", "PATCH"] + server.auth + [server.base + "/__sandbox/v1/info"])
    #expect(patch.status == 405)
    #expect(Self.allow(patch.headers) == "GET")
    let next = try await Self.curl(["-X", "DELETE", server.base + "/api/v1/kiosk/store_demo/next"])
    #expect(next.status == 405)
    #expect(try await Self.curl([server.base + "/api/nothing-here"]).status == 404)
  }

  /// `/storage/v1/object/move` (POST) also fits `/storage/v1/object/{bucket}` (DELETE); the
  /// router takes the literal one, so Allow names POST alone (schemathesis's ST205 caught Allow
  /// naming both).
  @Test func allowNamesTheMethodsOfTheTemplateTheRouterTakes() async throws {
    let server = try await Self.start()
    defer { Task { await server.stop() } }
    for path in ["/storage/v1/object/move", "/storage/v1/object/copy"] {
      let get = try await Self.curl([server.base + path])
      #expect(get.status == 405, "GET \(path)")
      #expect(Self.allow(get.headers) == "POST", "GET \(path)")
    }
    let bucket = try await Self.curl(["-X", "PUT", server.base + "/storage/v1/object/profile-photos"])
    #expect(bucket.status == 405)
    #expect(Self.allow(bucket.headers) == "DELETE")
  }

  static func allow(_ headers: String) -> String? {
    headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("allow:") }
      .map { $0.dropFirst("allow:".count).trimmingCharacters(in: .whitespaces) }
  }

  @Test func linksUseTheConfiguredAddressNotTheHostHeader() async throws {
    let server = try await Self.start(publicURL: "http://sandbox.example.test:9999/")
    defer { Task { await server.stop() } }
    let login = try await Self.curl(
      [
        "-H", "Content-Type: application/json", "--data", #"{"email":"owner@sandbox.test","password":"sandbox"}"#,
        server.base + "/auth/v1/token?grant_type=password",
      ])
    let token = try #require(login.json?["access_token"] as? String)
    let bearer = ["-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json"]
    let onboard = try await Self.curl(
      bearer + [
        "-H", "Host: evil.example", "--data", #"{"useCase":"team","inviteEmails":["a@example.com"]}"#,
        server.base + "/api/onboarding/complete",
      ])
    #expect(onboard.status == 200)
    let checkout = try await Self.curl(
      bearer + [
        "-H", "Host: evil.example", "--data", #"{"plan":"annual","currency":"USD"}"#,
        server.base + "/api/billing/stripe/checkout",
      ])
    let url = try #require(checkout.json?["url"] as? String)
    #expect(url.hasPrefix("http://sandbox.example.test:9999/__sandbox/checkout/"))
    let outbox = try await server.admin("GET", "/__sandbox/v1/workspace/outbox?to=a@example.com")
    let emails = try #require(try JSONSerialization.jsonObject(with: Data(outbox.body.utf8)) as? [[String: Any]])
    let link = try #require(emails.first?["join_url"] as? String)
    #expect(link.hasPrefix("http://sandbox.example.test:9999/join?token="))
    #expect(!outbox.body.contains("evil.example"))
  }

  @Test func linksDefaultToTheListeningAddress() async throws {
    let server = try await Self.start()
    defer { Task { await server.stop() } }
    let state = try await SandboxState.open(.init(databasePath: server.directory.path("x.sqlite"), port: 0))
    state.didStartListening(port: 4321)
    #expect(state.linkBase == "http://127.0.0.1:4321")
    let wildcard = try await SandboxState.open(.init(databasePath: server.directory.path("y.sqlite"), host: "0.0.0.0"))
    wildcard.didStartListening(port: 80)
    #expect(wildcard.linkBase == "http://127.0.0.1:80")
  }

  @Test func faultRulesActAndOperatorRoutesKeepWorking() async throws {
    let server = try await Self.start()
    defer { Task { await server.stop() } }
    let search = server.base + "/api/fixture/items?q=alpha"
    // Everything fails with 503 and Retry-After, twice; operator routes are untouched.
    let added = try await server.addFault(#"{"path":"/**","action":"status","status":503,"retryAfter":7,"times":2}"#)
    #expect(added.status == 201)
    #expect(added.json?["id"] as? Int == 1)
    let first = try await Self.curl([search])
    #expect(first.status == 503)
    #expect(first.headers.lowercased().contains("retry-after: 7"))
    #expect(try await server.admin("GET", "/__sandbox/v1/info").status == 200)
    #expect(try await Self.curl([search]).status == 503)
    #expect(try await Self.curl([search]).status == 200, "the rule fired its two times and is gone")
    #expect(try await Self.rules(server).isEmpty)

    // Method and pattern: only GETs of the kiosk's next.
    _ = try await server.addFault(#"{"method":"GET","path":"/api/v1/kiosk/*/next","action":"status","status":502}"#)
    #expect(try await Self.curl([server.base + "/api/v1/kiosk/store_demo/next"]).status == 502)
    #expect(try await Self.curl(["-X", "POST", server.base + "/api/v1/kiosk/store_demo/next"]).status == 405)
    #expect(try await Self.curl([search]).status == 200)
    #expect(try await server.admin("POST", "/__sandbox/v1/faults/clear", body: "{}").json?["cleared"] as? Int == 1)

    // Reset: curl sees the connection reset or closed with no answer.
    _ = try await server.addFault(#"{"path":"/api/fixture/items","action":"reset","times":1}"#)
    let reset = try await Self.curl([search])
    #expect(reset.status == 0)
    #expect(reset.curlExit == 56 || reset.curlExit == 52)
    // Truncate: the head promises more than arrives (curl: 18, partial file).
    _ = try await server.addFault(#"{"path":"/api/fixture/items","action":"truncate","times":1}"#)
    let truncated = try await Self.curl([search])
    #expect(truncated.curlExit == 18)
    // Malformed: 200 and a body that is not JSON.
    _ = try await server.addFault(#"{"path":"/api/fixture/items","action":"malformed","times":1}"#)
    let malformed = try await Self.curl([search])
    #expect(malformed.status == 200)
    #expect(malformed.json == nil)
    // Latency: the real answer, late.
    _ = try await server.addFault(#"{"path":"/api/fixture/items","action":"latency","latencyMs":400,"times":1}"#)
    let started = Date()
    let late = try await Self.curl([search])
    #expect(late.status == 200)
    #expect(Date().timeIntervalSince(started) >= 0.4)

    // Bad rules are refused with the reason.
    #expect(try await server.addFault(#"{"path":"api","action":"reset"}"#).status == 400)
    #expect(try await server.addFault(#"{"path":"/a","action":"status","status":99}"#).status == 400)
    #expect(try await server.addFault(#"{"path":"/a","action":"status","probability":0}"#).status == 400)
    #expect(try await server.addFault(#"{"path":"/a","action":"explode"}"#).status == 400)
    #expect(try await server.addFault(#"{"path":"/a","action":"reset","extra":1}"#).status == 400)
    #expect(try await server.admin("POST", "/__sandbox/v1/faults/clear", body: #"{"id":99}"#).status == 404)
  }

  @Test func faultPatternsAndProbability() throws {
    #expect(FaultPattern.matches(pattern: "/**", path: "/api/v1/kiosk/s/next"))
    #expect(FaultPattern.matches(pattern: "/api/v1/kiosk/**", path: "/api/v1/kiosk/store_demo/next"))
    #expect(FaultPattern.matches(pattern: "/api/v1/kiosk/*/next", path: "/api/v1/kiosk/store_demo/next"))
    #expect(!FaultPattern.matches(pattern: "/api/v1/kiosk/*/next", path: "/api/v1/kiosk/a/b/next"))
    #expect(FaultPattern.matches(pattern: "/api/**/done", path: "/api/v1/review/sess_1/done"))
    #expect(FaultPattern.matches(pattern: "/api/v1/review/sess_*/done", path: "/api/v1/review/sess_1/done"))
    #expect(!FaultPattern.matches(pattern: "/api/v1/review/sess_*/done", path: "/api/v1/review/x_1/done"))
    #expect(!FaultPattern.matches(pattern: "/api", path: "/api/x"))
    #expect(FaultPattern.matches(pattern: "/a/**", path: "/a"))
    // Empty segments count for nothing, on either side (issue 25).
    #expect(FaultPattern.matches(pattern: "/events/", path: "/events"))
    #expect(FaultPattern.matches(pattern: "/events", path: "//events/"))
    #expect(FaultPattern.matches(pattern: "/api/*/next", path: "/api//s//next"))

    var rules = FaultRuleSet()
    let rule = FaultRule(
      id: 0, method: nil, path: "/**", action: .status, status: 503, retryAfter: nil, latencyMilliseconds: 0,
      remaining: nil, probability: 0.5)
    _ = rules.add(rule)
    #expect(rules.fire(method: "GET", path: "/x", random: { 0.7 }) == nil)
    #expect(rules.fire(method: "GET", path: "/x", random: { 0.2 })?.fired == 1)
    #expect(rules.clear() == 1)
    for _ in 0..<FaultRuleSet.maximumRules { #expect(rules.add(rule) != nil) }
    #expect(rules.add(rule) == nil)

    // Used-up rules do not count against the limit; the last 100 of them are kept.
    _ = rules.clear()
    var once = rule
    once.remaining = 1
    once.probability = 1
    for _ in 0..<(FaultRuleSet.maximumRules + 5) {
      #expect(rules.add(once) != nil)
      #expect(rules.fire(method: "GET", path: "/x")?.remaining == 0)
    }
    #expect(rules.all.isEmpty)
    let usedUp = rules.allWithUsedUp
    #expect(usedUp.count == FaultRuleSet.maximumRules)
    #expect(usedUp.allSatisfy { $0.remaining == 0 && $0.fired == 1 })
    #expect(usedUp.map(\.id) == usedUp.map(\.id).sorted())
    let last = try #require(usedUp.last?.id)
    #expect(rules.clear(id: last) == 1, "a used-up rule is cleared by its id")
    #expect(rules.allWithUsedUp.count == FaultRuleSet.maximumRules - 1)
  }
}
