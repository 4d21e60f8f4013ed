import Foundation
import TestSupport
import Testing

@testable import SandboxKit

/// Shape fault rules: the drift `deck contract check` must find, made on purpose.
extension OperatorTests {
  /// The drift `deck contract check` must find, made on purpose. Each change acts on
  /// the first property of its name only, and leaves the rest of the answer as it was.
  @Test func shapeFaultsChangeOnePropertyOfTheRealAnswer() async throws {
    let server = try await Self.start()
    defer { Task { await server.stop() } }
    let search = server.base + "/api/fixture/items?q=alpha&limit=3"
    let real = try #require(try await Self.curl([search]).jsonArray)
    #expect(real.count == 3)

    _ = try await server.addFault(#"{"path":"/api/fixture/items","action":"drop-field","field":"name","times":1}"#)
    let dropped = try await Self.curl([search])
    #expect(dropped.status == 200)
    #expect(dropped.headers.lowercased().contains("x-sandbox-fault: rule"))
    let withoutName = try #require(dropped.jsonArray)
    #expect(withoutName.count == 3)
    #expect(withoutName[0]["name"] == nil && withoutName[0]["id"] as? String == real[0]["id"] as? String)
    #expect(withoutName[1]["name"] as? String == real[1]["name"] as? String, "only the first one changes")

    _ = try await server.addFault(
      #"{"path":"/api/fixture/items","action":"retype-field","field":"name","times":1}"#)
    let retyped = try #require(try await Self.curl([search]).jsonArray)
    #expect(retyped[0]["name"] as? Int == 42)

    _ = try await server.addFault(
      #"{"path":"/api/fixture/items","action":"enum-value","field":"id","value":"not-a-uuid","times":1}"#)
    let valued = try #require(try await Self.curl([search]).jsonArray)
    #expect(valued[0]["id"] as? String == "not-a-uuid")

    // No such property: the answer is unchanged, unmarked, and the rule has not fired (issue 45:
    // it counted as fired, and a `--times 1` rule was used up by an answer it left alone).
    let nope = try await server.addFault(
      #"{"path":"/api/fixture/items","action":"drop-field","field":"nope","times":1}"#)
    let nopeID = try #require(nope.json?["id"] as? Int)
    let unchangedReply = try await Self.curl([search])
    let unchanged = try #require(unchangedReply.jsonArray)
    #expect(unchanged.map { $0["name"] as? String } == real.map { $0["name"] as? String })
    #expect(!unchangedReply.headers.lowercased().contains("x-sandbox-fault"))
    let inForce = try #require(try await server.admin("GET", "/__sandbox/v1/faults").jsonArray)
    let nopeRule = try #require(inForce.first { $0["id"] as? Int == nopeID })
    #expect(nopeRule["fired"] as? Int == 0 && nopeRule["remaining"] as? Int == 1, "\(nopeRule)")
    // The contract's lengths hold for every action; a shape change without a field changes nothing.
    let long = String(repeating: "x", count: 201)
    #expect(try await server.addFault(#"{"path":"/a","action":"reset","value":"\#(long)"}"#).status == 400)
    #expect(try await server.addFault(#"{"path":"/a","action":"drop-field","field":""}"#).status == 400)
    #expect(try await server.addFault(#"{"path":"/a","action":"enum-value","field":"a","value":null}"#).status == 400)
    _ = try await server.admin("POST", "/__sandbox/v1/faults/clear", body: "{}")
    _ = try await server.addFault(#"{"path":"/api/fixture/items","action":"drop-field","times":1}"#)
    let fieldless = try #require(try await Self.curl([search]).jsonArray)
    #expect(fieldless.map { $0["name"] as? String } == real.map { $0["name"] as? String })
  }

  @Test func shapeChangesAreBreadthFirstAndLeaveOtherDocumentsAlone() {
    let rule = FaultRule(
      id: 1, method: nil, path: "/x", action: .dropField, status: 503, field: "id", retryAfter: nil,
      latencyMilliseconds: 0, remaining: nil, probability: 1)
    let body = Data(#"{"inner":{"id":2},"id":1,"list":[{"id":3}]}"#.utf8)
    let changed = try? JSONSerialization.jsonObject(with: ResponseShape.change(body, rule: rule)) as? [String: Any]
    #expect(changed?["id"] == nil)
    #expect((changed?["inner"] as? [String: Any])?["id"] as? Int == 2)
    #expect(((changed?["list"] as? [Any])?.first as? [String: Any])?["id"] as? Int == 3)
    let notJSON = Data("<html>".utf8)
    #expect(ResponseShape.change(notJSON, rule: rule) == notJSON)
  }

  /// Issue 31: a response a rule or the delay shaped says so in a header (operator answers
  /// never carry them), and a used-up rule is kept, with how often it fired, for `all=true`.
  @Test func shapedResponsesAreMarkedAndUsedUpRulesKept() async throws {
    let server = try await Self.start()
    defer { Task { await server.stop() } }
    let search = server.base + "/api/fixture/items?q=alpha"
    _ = try await server.addFault(#"{"path":"/api/fixture/**","action":"status","status":503,"times":1}"#)
    let failed = try await Self.curl([search])
    #expect(failed.status == 503)
    #expect(failed.headers.lowercased().contains("x-sandbox-fault: rule 1\r\n"), "\(failed.headers)")
    let real = try await Self.curl([search])
    #expect(real.status == 200)
    #expect(!real.headers.lowercased().contains("x-sandbox"), "\(real.headers)")
    // Used up: gone from the rules in force, kept with all=true.
    #expect(try await Self.rules(server).isEmpty)
    let all = try await server.admin("GET", "/__sandbox/v1/faults?all=true")
    let kept = try #require(try JSONSerialization.jsonObject(with: Data(all.body.utf8)) as? [[String: Any]])
    #expect(kept.count == 1)
    #expect(kept.first?["id"] as? Int == 1)
    #expect(kept.first?["remaining"] as? Int == 0)
    #expect(kept.first?["fired"] as? Int == 1)
    #expect(try await server.admin("GET", "/__sandbox/v1/faults?all=false").body == "[]")

    // A latency rule marks the real response; so do a truncated and a malformed one.
    _ = try await server.addFault(#"{"path":"/api/fixture/items","action":"latency","latencyMs":10,"times":1}"#)
    let late = try await Self.curl([search])
    #expect(late.status == 200)
    #expect(late.headers.lowercased().contains("x-sandbox-fault: rule 2\r\n"), "\(late.headers)")
    _ = try await server.addFault(#"{"path":"/api/fixture/items","action":"malformed","times":1}"#)
    #expect(try await Self.curl([search]).headers.lowercased().contains("x-sandbox-fault: rule 3\r\n"))

    // The delay marks every API response it held back, and no operator answer.
    #expect(try await server.admin("PUT", "/__sandbox/v1/delay", body: #"{"milliseconds":30}"#).status == 200)
    let delayed = try await Self.curl([search])
    #expect(delayed.status == 200)
    #expect(delayed.headers.lowercased().contains("x-sandbox-delay: 30ms\r\n"), "\(delayed.headers)")
    let info = try await server.admin("GET", "/__sandbox/v1/info")
    #expect(info.status == 200)
    #expect(!info.headers.lowercased().contains("x-sandbox"), "\(info.headers)")

    // One rule in force: clear all counts it, and removes the used-up ones without counting them.
    _ = try await server.addFault(#"{"path":"/nothing","action":"reset"}"#)
    #expect(try await server.admin("POST", "/__sandbox/v1/faults/clear", body: "{}").json?["cleared"] as? Int == 1)
    #expect(try await server.admin("GET", "/__sandbox/v1/faults?all=true").body == "[]")
  }
}
