import DeckSupport
import Foundation
import TestSupport
import Testing

@testable import SandboxKit

/// A QA run's scope (`Deck-QA-Run`): the fault rules and delay a scenario sets act on its own
/// requests only, `fault list|clear` and `delay` in it see its own, rules added outside a run
/// stay global, and `/info` lists the runs in progress. Over real HTTP against an embedded server.
@Suite(.serialized, .timeLimit(.minutes(2))) struct QARunScopeTests {
  typealias Server = OperatorTests.Server

  static func scope(_ value: String) -> [String] { ["-H", "\(QARunScope.header): \(value)"] }

  static func search(_ server: Server, scope: String? = nil) async throws -> OperatorTests.Reply {
    try await OperatorTests.curl(
      (scope.map(Self.scope) ?? []) + [server.base + "/api/fixture/items?q=alpha"])
  }

  static func faults(_ server: Server, scope: String? = nil, all: Bool = false) async throws -> [[String: Any]] {
    let reply = try await server.admin(
      "GET", "/__sandbox/v1/faults" + (all ? "?all=true" : ""), extra: scope.map(Self.scope) ?? [])
    return try #require(reply.jsonArray)
  }

  @Test func aRunsRulesActOnItsOwnRequestsAndGlobalOnesOnEvery() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    let mine = try await server.admin(
      "POST", "/__sandbox/v1/faults", body: #"{"path":"/api/fixture/items","action":"status","status":503}"#,
      extra: Self.scope("run1/fixture-9.4"))
    #expect(mine.status == 201)
    #expect(mine.json?["scope"] as? String == "run1/fixture-9.4")
    // Outside the run, and in another scenario of the same run: the real answer.
    #expect(try await Self.search(server).status == 200)
    #expect(try await Self.search(server, scope: "run1/other").status == 200)
    #expect(try await Self.search(server, scope: "run2/fixture-9.4").status == 200)
    let hit = try await Self.search(server, scope: "run1/fixture-9.4")
    #expect(hit.status == 503)
    #expect(SharedFaultsTests.fault(hit) == "rule \(mine.json?["id"] as? Int ?? -1)")
    // A rule added by hand (no header) acts on every request, a run's too.
    let global = try await server.addFault(#"{"path":"/api/fixture/items","action":"status","status":418}"#)
    #expect(global.status == 201)
    #expect(global.json?["scope"] == nil)
    #expect(try await Self.search(server).status == 418)
    #expect(try await Self.search(server, scope: "run1/other").status == 418)
    // The run's own rule came first.
    #expect(try await Self.search(server, scope: "run1/fixture-9.4").status == 503)
  }

  @Test func listAndClearInARunSeeItsOwnRulesOnly() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    let body = #"{"path":"/api/x","action":"status","status":503}"#
    let own = try #require(
      try await server.admin("POST", "/__sandbox/v1/faults", body: body, extra: Self.scope("r/a")).json?["id"] as? Int)
    let other = try #require(
      try await server.admin("POST", "/__sandbox/v1/faults", body: body, extra: Self.scope("r/b")).json?["id"] as? Int)
    let global = try #require(try await server.addFault(body).json?["id"] as? Int)
    #expect(try await Self.faults(server, scope: "r/a").compactMap { $0["id"] as? Int } == [own])
    let everything = try await Self.faults(server)
    #expect(everything.compactMap { $0["id"] as? Int } == [own, other, global])
    #expect(everything.map { $0["scope"] as? String } == ["r/a", "r/b", nil])
    // Another scope's rule is not found from here, and clearing all clears only its own.
    let foreign = try await server.admin(
      "POST", "/__sandbox/v1/faults/clear", body: #"{"id":\#(other)}"#, extra: Self.scope("r/a"))
    #expect(foreign.status == 404)
    let cleared = try await server.admin("POST", "/__sandbox/v1/faults/clear", body: "{}", extra: Self.scope("r/a"))
    #expect(cleared.json?["cleared"] as? Int == 1)
    #expect(try await Self.faults(server).compactMap { $0["id"] as? Int } == [other, global])
    // Outside a run, clearing all clears the global rules: a run's rules stay its own.
    let byHand = try await server.admin("POST", "/__sandbox/v1/faults/clear", body: "{}")
    #expect(byHand.json?["cleared"] as? Int == 1)
    #expect(try await Self.faults(server).compactMap { $0["id"] as? Int } == [other])
    // One rule of any scope can still be named from outside.
    let named = try await server.admin("POST", "/__sandbox/v1/faults/clear", body: #"{"id":\#(other)}"#)
    #expect(named.json?["cleared"] as? Int == 1)
    #expect(try await Self.faults(server).isEmpty)
  }

  @Test func aRunsDelayDelaysItsOwnRequests() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    let set = try await server.admin(
      "PUT", "/__sandbox/v1/delay", body: #"{"milliseconds":150}"#, extra: Self.scope("r/slow"))
    #expect(set.status == 200)
    #expect(SharedFaultsTests.delay(try await Self.search(server, scope: "r/slow")) == "150ms")
    #expect(SharedFaultsTests.delay(try await Self.search(server, scope: "r/fast")) == nil)
    #expect(SharedFaultsTests.delay(try await Self.search(server)) == nil)
    let asked = try await server.admin("GET", "/__sandbox/v1/delay", extra: Self.scope("r/slow"))
    #expect(asked.json?["milliseconds"] as? Int == 150)
    #expect(try await server.admin("GET", "/__sandbox/v1/delay").json?["milliseconds"] as? Int == 0)
    // A global delay reaches every request but the run that set its own; 0 in the run gives
    // it the global one again.
    _ = try await server.admin("PUT", "/__sandbox/v1/delay", body: #"{"milliseconds":50}"#)
    #expect(SharedFaultsTests.delay(try await Self.search(server, scope: "r/fast")) == "50ms")
    #expect(SharedFaultsTests.delay(try await Self.search(server, scope: "r/slow")) == "150ms")
    _ = try await server.admin(
      "PUT", "/__sandbox/v1/delay", body: #"{"milliseconds":0}"#, extra: Self.scope("r/slow"))
    #expect(SharedFaultsTests.delay(try await Self.search(server, scope: "r/slow")) == "50ms")
  }

  @Test func infoListsTheRunsInProgress() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    let before = try await server.admin("GET", "/__sandbox/v1/info")
    #expect((before.json?["runs"] as? [Any])?.isEmpty == true)
    _ = try await Self.search(server, scope: "k3j4/one")
    _ = try await Self.search(server, scope: "k3j4/two")
    _ = try await Self.search(server, scope: "k3j4/two")
    let runs = try #require(try await server.admin("GET", "/__sandbox/v1/info").json?["runs"] as? [[String: Any]])
    #expect(runs.count == 1)
    #expect(runs.first?["id"] as? String == "k3j4")
    #expect(runs.first?["scenarios"] as? Int == 2)
    #expect(runs.first?["requests"] as? Int == 3)
  }

  @Test func aHeaderThatIsNotAScopeIsRefused() async throws {
    let server = try await OperatorTests.start()
    defer { Task { await server.stop() } }
    for bad in ["a/b/c", "/x", "run/", "sp ace", String(repeating: "r", count: 201)] {
      let reply = try await Self.search(server, scope: bad)
      #expect(reply.status == 400, "\(bad)")
      #expect(reply.body.contains(QARunScope.header))
    }
  }

  @Test func runsAreInProgressForAMinuteAfterTheirLastRequest() {
    let runs = QARuns()
    let start = Date(timeIntervalSince1970: 1_000_000)
    runs.saw("a/one", now: start)
    runs.saw("b/one", now: start.addingTimeInterval(30))
    #expect(runs.inProgress(now: start.addingTimeInterval(59)).map(\.id) == ["a", "b"])
    #expect(runs.inProgress(now: start.addingTimeInterval(61)).map(\.id) == ["b"])
    #expect(runs.inProgress(now: start.addingTimeInterval(200)).isEmpty)
  }

  @Test func rulesMatchTheirScopeAndGlobalRulesMatchEveryScope() {
    var rules = FaultRuleSet()
    let rule = FaultRule(
      id: 0, method: nil, path: "/api/**", action: .status, status: 503, retryAfter: nil, latencyMilliseconds: 0,
      remaining: nil, probability: 1)
    var scoped = rule
    scoped.scope = "r/a"
    let own = rules.add(scoped)
    let global = rules.add(rule)
    #expect(rules.choose(method: "GET", path: "/api/x", scope: "r/a")?.id == own?.id)
    #expect(rules.choose(method: "GET", path: "/api/x", scope: "r/b")?.id == global?.id)
    #expect(rules.choose(method: "GET", path: "/api/x")?.id == global?.id)
    #expect(rules.clear(scope: "r/b") == 0)
    #expect(rules.clear(id: own?.id, scope: "r/b") == 0)
    #expect(rules.clear(scope: "r/a") == 1)
    #expect(rules.all.map(\.id) == [global?.id].compactMap { $0 })
  }

  @Test func scopesAreCheckedAndMadeFromAnyScenarioID() {
    #expect(QARunScope.isValid("lq3x9a1b2/fixture-9.4"))
    #expect(QARunScope.isValid("run"))
    for bad in ["", "a/b/c", "/a", "a/", "a b", "a/é"] { #expect(!QARunScope.isValid(bad), "\(bad)") }
    #expect(QARunScope.scope(run: "r1", scenario: "kiosk happy/é") == "r1/kiosk_happy___")
    let long = QARunScope.scope(run: "r1", scenario: String(repeating: "x", count: 500))
    #expect(long.utf8.count == QARunScope.maximumLength && QARunScope.isValid(long))
    #expect(QARunScope.run(of: "r1/s") == "r1")
  }
}
