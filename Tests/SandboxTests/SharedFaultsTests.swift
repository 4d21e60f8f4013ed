import Foundation
import SandboxApp
import Synchronization
import TestSupport
import Testing

@testable import SandboxKit

/// The operator's fault rules and delay are the database's: every `deck-sandbox` serving one
/// database applies the same ones, and a rule's `times` counts its firings on all of them. Two
/// servers on one database stand for instances behind a load balancer (on SQLite: two on one
/// file; with DECK_TEST_DATABASE=postgres: two on one PostgreSQL database).
@Suite(.serialized, .timeLimit(.minutes(2))) struct SharedFaultsTests {
  /// One of the servers, with OperatorTests' curl.
  struct Instance {
    let sandbox: RunningSandbox
    var base: String { sandbox.baseURL.absoluteString }

    func admin(_ method: String, _ path: String, body: String? = nil) async throws -> OperatorTests.Reply {
      try await OperatorTests.curl(
        ["-X", method, "-H", "Authorization: Bearer \(sandbox.adminToken)", "-H", "Content-Type: application/json"]
          + (body.map { ["--data-binary", $0] } ?? []) + [base + "/__sandbox/v1" + path])
    }

    func search() async throws -> OperatorTests.Reply {
      try await OperatorTests.curl([base + "/api/fixture/items?q=alpha"])
    }

    /// Runs `write` (through the other instance), then waits until this instance has heard of a
    /// commit: at once on SQLite, when the commit's notification arrives on PostgreSQL (until
    /// then, answers this instance keeps may be from before it).
    func hearing<T>(_ write: () async throws -> T) async throws -> T {
      let before = sandbox.responseCache.stamp()
      let result = try await write()
      let deadline = ContinuousClock.now + .seconds(10)
      while sandbox.responseCache.stamp() == before || sandbox.responseCache.stamp() == nil {
        guard ContinuousClock.now < deadline else {
          Issue.record("no commit heard within 10 s")
          break
        }
        try await Task.sleep(for: .milliseconds(2))
      }
      return result
    }

    func faults(all: Bool = false) async throws -> [[String: Any]] {
      let reply = try await admin("GET", "/faults" + (all ? "?all=true" : ""))
      return try #require(try JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [[String: Any]])
    }
  }

  static func fault(_ reply: OperatorTests.Reply) -> String? {
    reply.headers.lowercased().components(separatedBy: "\r\n")
      .first { $0.hasPrefix("x-sandbox-fault: ") }?.dropFirst("x-sandbox-fault: ".count).description
  }

  static func delay(_ reply: OperatorTests.Reply) -> String? {
    reply.headers.lowercased().components(separatedBy: "\r\n")
      .first { $0.hasPrefix("x-sandbox-delay: ") }?.dropFirst("x-sandbox-delay: ".count).description
  }

  /// Runs `body` with two servers on one database.
  static func withTwoServers(_ body: (Instance, Instance) async throws -> Void) async throws {
    let directory = try ScratchDirectory()
    defer { directory.cleanUp() }
    let path = directory.path("sandbox.sqlite")
    // Deck's features and the fixture's, whose `GET /api/fixture/items` the tests call.
    let features = SandboxRegistry.features + [FixtureServer.self]
    let first = try await SandboxServer.start(SandboxOptions(databasePath: path, features: features))
    let second: RunningSandbox
    do {
      second = try await SandboxServer.start(SandboxOptions(databasePath: path, features: features))
    } catch {
      await first.stop()
      throw error
    }
    do {
      try await body(Instance(sandbox: first), Instance(sandbox: second))
    } catch {
      await first.stop()
      await second.stop()
      throw error
    }
    await first.stop()
    await second.stop()
  }

  @Test func aRuleAddedOnOneInstanceFiresItsTimesAcrossBoth() async throws {
    try await Self.withTwoServers { a, b in
      #expect(a.sandbox.baseURL != b.sandbox.baseURL)
      let added = try await b.hearing {
        try await a.admin(
          "POST", "/faults", body: #"{"path":"/api/fixture/items","action":"status","status":503,"times":3}"#)
      }
      #expect(added.status == 201)
      let id = try #require(added.json?["id"] as? Int)
      #expect(try await b.faults().first?["remaining"] as? Int == 3, "B lists A's rule")

      // It fires on B, then on A, then on B: three times in all, then never again.
      var replies: [OperatorTests.Reply] = []
      for instance in [b, a, b, a, b, a] { replies.append(try await instance.search()) }
      #expect(replies.map(\.status) == [503, 503, 503, 200, 200, 200])
      #expect(replies.prefix(3).allSatisfy { Self.fault($0) == "rule \(id)" })
      #expect(replies.dropFirst(3).allSatisfy { Self.fault($0) == nil })
      for instance in [a, b] {
        #expect(try await instance.faults().isEmpty, "used up on both")
        let kept = try await instance.faults(all: true)
        #expect(kept.count == 1)
        #expect(kept.first?["fired"] as? Int == 3)
        #expect(kept.first?["remaining"] as? Int == 0)
      }

      // Requests at the same time on both still fire it exactly `times` times.
      let again = try await a.hearing {
        try await b.admin(
          "POST", "/faults", body: #"{"path":"/api/fixture/items","action":"status","status":503,"times":3}"#)
      }
      #expect(again.json?["id"] as? Int == id + 1, "ids continue across instances")
      let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
        for index in 0..<12 {
          let instance = index.isMultiple(of: 2) ? a : b
          group.addTask { try await instance.search().status }
        }
        return try await group.reduce(into: [Int]()) { $0.append($1) }
      }
      #expect(statuses.filter { $0 == 503 }.count == 3, "\(statuses)")
      #expect(statuses.filter { $0 == 200 }.count == 9, "\(statuses)")
      let fired = try await a.faults(all: true).first { $0["id"] as? Int == id + 1 }
      #expect(fired?["fired"] as? Int == 3)
    }
  }

  @Test func theDelayAndClearingAreShared() async throws {
    try await Self.withTwoServers { a, b in
      // A delay set through A holds B's answers back.
      #expect(try await b.hearing { try await a.admin("PUT", "/delay", body: #"{"milliseconds":300}"#) }.status == 200)
      #expect(try await b.admin("GET", "/delay").json?["milliseconds"] as? Int == 300)
      let clock = ContinuousClock()
      var delayed: OperatorTests.Reply?
      let took = try await clock.measure { delayed = try await b.search() }
      #expect(delayed?.status == 200)
      #expect(delayed.flatMap(Self.delay) == "300ms")
      #expect(took >= .milliseconds(300))

      // A rule without a limit fires on A until it is cleared through B.
      let added = try await a.admin("POST", "/faults", body: #"{"path":"/api/fixture/**","action":"malformed"}"#)
      let id = try #require(added.json?["id"] as? Int)
      #expect(Self.fault(try await a.search()) == "rule \(id)")
      #expect(Self.fault(try await a.search()) == "rule \(id)")
      let cleared = try await b.admin("POST", "/faults/clear", body: #"{"id":\#(id)}"#)
      #expect(cleared.json?["cleared"] as? Int == 1)
      #expect(try await b.admin("POST", "/faults/clear", body: #"{"id":\#(id)}"#).status == 404)
      #expect(try await a.hearing { try await b.admin("PUT", "/delay", body: #"{"milliseconds":0}"#) }.status == 200)
      let plain = try await a.search()
      #expect(plain.status == 200)
      #expect(Self.fault(plain) == nil)
      #expect(Self.delay(plain) == nil)
      #expect(try await a.faults(all: true).isEmpty)
      #expect(try await a.admin("GET", "/delay").json?["milliseconds"] as? Int == 0)

      // A reset through B clears A's rules and delay too; ids go on from where they were.
      _ = try await a.admin("POST", "/faults", body: #"{"path":"/api/fixture/**","action":"latency","latencyMs":1}"#)
      #expect(try await b.hearing { try await a.admin("PUT", "/delay", body: #"{"milliseconds":250}"#) }.status == 200)
      let both = try await b.search()
      #expect(Self.fault(both) == "rule \(id + 1)")
      #expect(Self.delay(both) == "250ms")
      #expect(try await a.hearing { try await b.admin("POST", "/reset", body: "{}") }.status == 200)
      let afterReset = try await a.search()
      #expect(afterReset.status == 200)
      #expect(Self.fault(afterReset) == nil)
      #expect(Self.delay(afterReset) == nil)
      #expect(try await a.faults(all: true).isEmpty)
      let next = try await a.admin("POST", "/faults", body: #"{"path":"/nothing","action":"reset"}"#)
      #expect(next.json?["id"] as? Int == id + 2)
    }
  }

  @Test func theRuleSetRoundTripsThroughJSON() throws {
    var rules = FaultRuleSet()
    _ = rules.add(
      FaultRule(
        id: 0, method: "GET", path: "/api/**", action: .enumValue, status: 503, field: "id", value: "x",
        retryAfter: 5, latencyMilliseconds: 10, remaining: 1, probability: 0.3))
    _ = rules.add(
      FaultRule(
        id: 0, method: nil, path: "/x", action: .dropField, status: 418, retryAfter: nil, latencyMilliseconds: 0,
        remaining: nil, probability: 1))
    #expect(rules.fire(method: "GET", path: "/api/a", random: { 0.1 })?.remaining == 0)
    let decoded = try JSONDecoder().decode(FaultRuleSet.self, from: JSONEncoder().encode(rules))
    #expect(decoded == rules)
    #expect(decoded.allWithUsedUp.map(\.id) == [1, 2])
    #expect(decoded.all.map(\.id) == [2])
  }
}
