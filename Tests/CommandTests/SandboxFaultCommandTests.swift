import Foundation
import TestSupport
import Testing

/// Issue 31: what shows a sandbox's injected faults. `deck sandbox status`, `fault list --all`,
/// `--trace` and `deck doctor`, in-process against the embedded sandbox (the built-in modules and
/// the fixture feature, whose search is `GET /api/fixture/items`).
@Suite("Sandbox faults in-process", .serialized, .timeLimit(.minutes(2)))
struct SandboxFaultCommandTests {
  let deck: InProcessDeck

  init() async throws { deck = try await InProcessDeck(features: .fixture) }

  func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
  }

  func array(_ text: String) throws -> [[String: Any]] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "\(text)")
  }

  /// The value of one `fields` row ("key   value") of a table, by its key.
  func field(_ table: String, _ key: String) -> String? {
    table.split(separator: "\n").lazy.compactMap { line -> String? in
      guard line.hasPrefix(key + "  ") else { return nil }
      return line.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
    }.first
  }

  @Test("status shows the delay and the fault rules in force, as a table and as JSON")
  func statusShowsDelayAndRules() async throws {
    let quiet = await deck.run(["sandbox", "status"])
    #expect(quiet.status == 0, "\(quiet.stderr)")
    #expect(field(quiet.stdout, "delay") == "none", "\(quiet.stdout)")
    #expect(field(quiet.stdout, "fault rules") == "none", "\(quiet.stdout)")
    let before = try object(await deck.run(["sandbox", "status", "--json"]).stdout)
    #expect(before["delay"] as? [String: Int] == ["milliseconds": 0])
    #expect((before["faults"] as? [Any])?.isEmpty == true)
    #expect(before["sandbox"] as? Bool == true, "the info's fields stay where they were")
    #expect(before["counts"] is [String: Int])

    #expect(await deck.run(["sandbox", "delay", "40"]).status == 0)
    #expect(
      await deck.run(["sandbox", "fault", "add", "/api/**", "--method", "GET", "--status", "503", "--times", "2"])
        .status == 0)
    let table = await deck.run(["sandbox", "status"])
    #expect(table.status == 0, "\(table.stderr)")
    #expect(field(table.stdout, "delay") == "40 ms on every API response", "\(table.stdout)")
    #expect(
      field(table.stdout, "fault rule 1") == "GET /api/** → 503, 2 more times; fired 0 times; global", "\(table.stdout)"
    )
    #expect(field(table.stdout, "fault rules") == nil)
    let json = try object(await deck.run(["sandbox", "status", "--json"]).stdout)
    #expect(json["delay"] as? [String: Int] == ["milliseconds": 40])
    let rules = try #require(json["faults"] as? [[String: Any]])
    #expect(rules.count == 1)
    #expect(rules.first?["path"] as? String == "/api/**")
    #expect(rules.first?["remaining"] as? Int == 2)
    #expect(!table.stdout.contains(deck.adminToken) && !json.description.contains(deck.adminToken))
  }

  @Test("shape faults: --drop-field, --retype-field and --enum-value make rules, and deck sees the drift")
  func shapeFaults() async throws {
    let added = await deck.run(["sandbox", "fault", "add", "/api/fixture/items", "--drop-field", "name"])
    #expect(added.status == 0, "\(added.stderr)")
    #expect(added.stderr.contains("Added fault rule 1: ANY /api/fixture/items → without name."), "\(added.stderr)")
    let enumRule = await deck.run(
      ["sandbox", "fault", "add", "/api/access/state", "--enum-value", "role=unheard-of", "--json"])
    let rule = try object(enumRule.stdout)
    #expect(rule["action"] as? String == "enum-value")
    #expect(rule["field"] as? String == "role" && rule["value"] as? String == "unheard-of")
    // The client decodes the real shape only: the drifted answer is a clear error, not a crash.
    let search = await deck.run(["fixture", "search", "alpha"])
    #expect(search.status != 0)
    #expect(search.stderr.contains("searchFixtureItems"), "\(search.stderr)")

    for bad in [
      ["--enum-value", "state"], ["--drop-field", "a", "--retype-field", "b"], ["--drop-field", ""],
      ["--status", "503", "--enum-value", "a=b"],
    ] {
      let refused = await deck.run(["sandbox", "fault", "add", "/x"] + bad)
      #expect(refused.status == 64, "\(bad): \(refused.stderr)")
    }
    #expect(await deck.run(["sandbox", "fault", "clear"]).status == 0)
  }

  /// Issue 45: `--drop-field text` on /questions/ and `--enum-value state=…` on the access state
  /// (the help's examples) named properties no answer has, and were added as if they worked.
  @Test("a shape rule naming a property no answer of its operations has is refused with the ones they have")
  func shapeRulesForAbsentPropertiesAreRefused() async throws {
    let text = await deck.run(["sandbox", "fault", "add", "/questions/", "--drop-field", "text"])
    #expect(text.status == 64, "\(text.stderr)")
    #expect(
      text.stderr.contains(
        #"No answer of GET /questions/ (getQuestions) has a property "text", so the rule would never act; nothing was sent."#
      ),
      "\(text.stderr)")
    #expect(text.stderr.contains("Their properties: ") && text.stderr.contains("options, question"), "\(text.stderr)")
    let state = await deck.run(["sandbox", "fault", "add", "/api/access/state", "--enum-value", "state=suspended"])
    #expect(state.status == 64, "\(state.stderr)")
    for property in ["hasAccess", "reason", "role", "workspaceName"] {
      #expect(state.stderr.contains(property), "\(state.stderr)")
    }
    // A pattern across operations takes the properties of all of them; a method narrows it.
    let across = await deck.run(["sandbox", "fault", "add", "/api/**", "--retype-field", "hasAccess", "--json"])
    #expect(across.status == 0, "\(across.stderr)")
    let posted = await deck.run(["sandbox", "fault", "add", "/questions/", "--method", "POST", "--drop-field", "text"])
    #expect(posted.status == 0, "no contract operation: not checked. \(posted.stderr)")
    // Nothing was sent for the refused ones.
    let rules = await deck.run(["sandbox", "fault", "list", "--json"])
    let listed = try #require(try JSONSerialization.jsonObject(with: Data(rules.stdout.utf8)) as? [[String: Any]])
    #expect(listed.compactMap { $0["field"] as? String }.sorted() == ["hasAccess", "text"])
    #expect(await deck.run(["sandbox", "fault", "clear"]).status == 0)
  }

  @Test("fault list --all keeps used-up rules with how often each fired; without it they are gone")
  func listAllKeepsUsedUpRules() async throws {
    #expect(
      await deck.run(["sandbox", "fault", "add", "/api/fixture/**", "--status", "503", "--times", "1"]).status == 0)
    #expect(await deck.run(["sandbox", "fault", "add", "/nothing", "--reset"]).status == 0)
    // The one 503 is retried and the search succeeds; rule 1 is used up.
    let search = await deck.run(["fixture", "search", "alpha", "--limit", "1"])
    #expect(search.status == 0, "\(search.stderr)")
    let inForce = try array(await deck.run(["sandbox", "fault", "list", "--json"]).stdout)
    #expect(inForce.map { $0["id"] as? Int } == [2])
    let all = try array(await deck.run(["sandbox", "fault", "list", "--all", "--json"]).stdout)
    #expect(all.map { $0["id"] as? Int } == [1, 2])
    #expect(all.first?["remaining"] as? Int == 0)
    #expect(all.first?["fired"] as? Int == 1)
    let table = await deck.run(["sandbox", "fault", "list", "--all"])
    #expect(table.status == 0, "\(table.stderr)")
    #expect(table.stdout.contains("ANY /api/fixture/** → 503, used up"), "\(table.stdout)")
    #expect(!(await deck.run(["sandbox", "fault", "list"])).stdout.contains("used up"))
    // Clearing all counts the rules in force and takes the used-up ones too.
    #expect(await deck.run(["sandbox", "fault", "clear"]).stderr.contains("Cleared 1 fault rule."))
    #expect(try array(await deck.run(["sandbox", "fault", "list", "--all", "--json"]).stdout).isEmpty)
  }

  @Test("--trace marks the responses a fault rule or the delay shaped, and numbers the retries")
  func traceMarksInjectedFaults() async throws {
    #expect(
      await deck.run(["sandbox", "fault", "add", "/api/fixture/items", "--status", "503", "--times", "2"]).status == 0)
    let retried = await deck.run(["fixture", "search", "alpha", "--limit", "1", "--trace"])
    #expect(retried.status == 0, "\(retried.stderr)")
    let lines = retried.stderr.split(separator: "\n").map(String.init)
    let answers = lines.filter { $0.hasPrefix("< ") && $0.contains("/api/fixture/items") }
    #expect(answers.count == 3, "\(retried.stderr)")
    #expect(answers.first?.hasPrefix("< 503 GET ") == true)
    #expect(answers.first?.hasSuffix(" ms) [sandbox fault rule 1]") == true, "\(retried.stderr)")
    #expect(answers.last?.hasPrefix("< 200 GET ") == true)
    #expect(answers.last?.hasSuffix(" ms)") == true, "the real answer is not marked: \(retried.stderr)")
    #expect(lines.contains { $0.hasPrefix("! retry 2/3 after 503 (in ") }, "\(retried.stderr)")
    #expect(lines.contains { $0.hasPrefix("! retry 3/3 after 503 (in ") }, "\(retried.stderr)")

    #expect(await deck.run(["sandbox", "delay", "25"]).status == 0)
    let delayed = await deck.run(["fixture", "search", "alpha", "--limit", "1", "--trace"])
    #expect(delayed.status == 0, "\(delayed.stderr)")
    #expect(delayed.stderr.contains(" ms) [sandbox delay 25ms]\n"), "\(delayed.stderr)")
    // The operator calls are never delayed, so never marked; and no admin token in the trace.
    let operatorTrace = await deck.run(["sandbox", "status", "--trace"])
    #expect(!operatorTrace.stderr.contains("[sandbox"), "\(operatorTrace.stderr)")
    #expect(!operatorTrace.stderr.contains(deck.adminToken))
    // Without --trace, nothing of it.
    #expect(await deck.run(["fixture", "search", "alpha", "--limit", "1"]).stderr.isEmpty)
  }

  @Test("doctor names a sandbox's delay and fault rules with the commands that clear them")
  func doctorSeesTheDelayAndTheRules() async throws {
    #expect(await deck.run(["sandbox", "delay", "2500"]).status == 0)
    #expect(await deck.run(["sandbox", "fault", "add", "/api/v1/kiosk/*/next", "--status", "502"]).status == 0)
    let result = await deck.run(["doctor", "--json"])
    let checks = try array(result.stdout)
    let byName = Dictionary(uniqueKeysWithValues: checks.map { ($0["name"] as? String ?? "", $0) })
    let names = checks.compactMap { $0["name"] as? String }
    // Right after the services, before the account.
    let injectedIndex = try #require(names.firstIndex(of: "injected faults"))
    #expect(names[injectedIndex - 1].hasPrefix("service "), "\(names)")
    #expect(names[injectedIndex + 1] == "account", "\(names)")
    let injected = try #require(byName["injected faults"])
    #expect(injected["status"] as? String == "warning")
    #expect(
      injected["detail"] as? String
        == "every API response is delayed by 2500 ms; 1 fault rule in force (rule 1: ANY /api/v1/kiosk/*/next → 502)")
    #expect(injected["fix"] as? String == "deck sandbox delay 0 && deck sandbox fault clear")
    // The base URLs are no API route: neither delayed nor down.
    for service in checks where (service["name"] as? String)?.hasPrefix("service ") == true {
      #expect(service["status"] as? String == "ok", "\(service)")
    }
    #expect(!result.stdout.contains("deck sandbox serve"), "nothing is called down: \(result.stdout)")
    #expect(!result.stdout.contains(deck.adminToken))

    // Cleared, the same check is fine.
    #expect(await deck.run(["sandbox", "delay", "0"]).status == 0)
    #expect(await deck.run(["sandbox", "fault", "clear"]).status == 0)
    let clean = try array(await deck.run(["doctor", "--json"]).stdout)
    let after = Dictionary(uniqueKeysWithValues: clean.map { ($0["name"] as? String ?? "", $0) })
    #expect(after["injected faults"]?["status"] as? String == "ok")
    #expect(after["injected faults"]?["detail"] as? String == "none: no delay and no fault rules")
  }
}

/// A `deck qa run` step's scope (`DECK_QA_RUN`, sent as `Deck-QA-Run`): what it adds is its
/// own, `fault list` shows every rule's scope, and `sandbox status` the runs in progress.
@Suite("QA run scope in-process", .serialized, .timeLimit(.minutes(2)))
struct QARunScopeCommandTests {
  @Test("a step's requests carry its scope, to the operator endpoints and to a feature's service")
  func aStepsRequestsCarryItsScope() async throws {
    let step = try await InProcessDeck(features: .fixture, extraEnvironment: ["DECK_QA_RUN": "run7/fixture-9.4"])
    let added = await step.run(["sandbox", "fault", "add", "/api/fixture/items", "--status", "500", "--json"])
    #expect(added.status == 0, "\(added.stderr)")
    let rule = try #require(try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: Any])
    #expect(rule["scope"] as? String == "run7/fixture-9.4", "\(added.stdout)")
    // The rule acts on the step's own requests (the fixture's service): exit 69.
    let search = await step.run(["fixture", "search", "alpha", "--json"])
    #expect(search.status == 69, "\(search.stdout)\(search.stderr)")
    let status = await step.run(["sandbox", "status", "--json"])
    let json = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
    let runs = try #require(json["runs"] as? [[String: Any]], "\(status.stdout)")
    #expect(runs.first?["id"] as? String == "run7")
    #expect((runs.first?["requests"] as? Int ?? 0) >= 3)
    let table = await step.run(["sandbox", "status"])
    #expect(table.stdout.contains("QA run run7"), "\(table.stdout)")
    let list = await step.run(["sandbox", "fault", "list"])
    #expect(list.stdout.contains("SCOPE") && list.stdout.contains("run7/fixture-9.4"), "\(list.stdout)")
  }

  @Test("a rule added outside a run is listed as global, with scope null in JSON")
  func rulesOutsideARunAreGlobal() async throws {
    let deck = try await InProcessDeck(features: .fixture)
    #expect(await deck.run(["sandbox", "fault", "add", "/api/x/**", "--status", "503"]).status == 0)
    let list = await deck.run(["sandbox", "fault", "list"])
    #expect(list.stdout.contains("global"), "\(list.stdout)")
    let json = await deck.run(["sandbox", "fault", "list", "--json"])
    let rules = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(rules.first?.keys.contains("scope") == true && rules.first?["scope"] is NSNull, "\(json.stdout)")
  }

  @Test("a DECK_QA_RUN that is not a scope is a configuration error, and nothing is sent")
  func aBadScopeIsRefused() async throws {
    let deck = try await InProcessDeck(features: .fixture, extraEnvironment: ["DECK_QA_RUN": "a b"])
    let result = await deck.run(["sandbox", "fault", "list"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("DECK_QA_RUN"))
  }
}
