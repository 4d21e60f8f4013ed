import Foundation
import TestSupport
import Testing

/// Issue 27: `deck qa run` against a served sandbox. Broken scenarios fail at the right step,
/// a shipped scenario fails when a fault breaks what it checks, the tags keep production and
/// non-sandbox environments safe, and reports hold no secret.
@Suite("deck qa", .endToEndTimeLimit)
struct QAEndToEndTests {
  static func served() throws -> (SandboxProcess, DeckCLI) {
    let server = try SandboxProcess()
    return (server, try DeckCLI(server: server))
  }

  static func write(_ deck: DeckCLI, _ name: String, _ text: String) throws -> String {
    let path = deck.home + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func report(_ result: DeckCLI.Result) throws -> [String: [String: Any]] {
    let object = try #require(try json(result.stdout) as? [String: Any], "\(result.stdout)\n\(result.stderr)")
    let scenarios = object["scenarios"] as? [[String: Any]] ?? []
    return Dictionary(uniqueKeysWithValues: scenarios.map { ($0["id"] as? String ?? "", $0) })
  }

  static func steps(_ scenario: [String: Any]?) -> [[String: Any]] {
    scenario?["steps"] as? [[String: Any]] ?? []
  }

  static let broken = """
    module: brokerage
    scenarios:
      - id: passes
        title: A search that works
        tags: [readonly]
        steps:
          - run: brokerage search keller --json
            expect:
              jq: ['length > 0', {expr: '.[0].name | test("keller"; "i")', equals: true}]
            capture: {first: '.[0].id'}
          - run: deck brokerage search "${first}" --json
      - id: wrong-exit
        title: Expects the wrong exit code
        tags: [readonly]
        steps:
          - run: brokerage search keller --json
          - run: brokerage search keller --json
            expect: {exit: 3}
          - run: brokerage search compass --json
          - run: brokerage search compass --json
            always: true
            expect: {stdout: Compass}
      - id: false-jq
        title: A jq expectation that is false
        tags: [readonly]
        steps:
          - run: brokerage search keller --json
            expect:
              jq: ['length > 0', {expr: '.[0].name', equals: Nobody Realty}]
      - id: missing-capture
        title: A capture that finds nothing
        tags: [readonly]
        steps:
          - run: brokerage search keller --json
            capture: {id: '.[0].nothing'}
          - run: brokerage search ${id} --json
      - id: cannot-run
        title: A step that names a variable nobody set
        tags: [readonly]
        steps:
          - run: brokerage search ${nobody} --json
    """

  /// Each broken scenario is a failure (or, when a step could not run, an error) at the step
  /// that broke; later steps are skipped, `always` steps run; exit 1.
  @Test func brokenScenariosFailAtTheirStep() throws {
    let (server, deck) = try Self.served()
    let file = try Self.write(deck, "broken.yaml", Self.broken)
    let result = try deck.run(["qa", "run", file, "--jobs", "3", "--report", "json"])
    #expect(result.status == 1, "\(result.stderr)")
    let report = try Self.report(result)
    #expect(report["passes"]?["status"] as? String == "passed", "\(report["passes"] ?? [:])")

    let wrongExit = report["wrong-exit"]
    #expect(wrongExit?["status"] as? String == "failed")
    #expect(Self.steps(wrongExit).map { $0["status"] as? String } == ["passed", "failed", "skipped", "passed"])
    #expect(Self.steps(wrongExit)[1]["message"] as? String == "exit code 0, expected 3")
    #expect(Self.steps(wrongExit)[1]["line"] as? Int == 17)

    let falseJQ = Self.steps(report["false-jq"])
    #expect(report["false-jq"]?["status"] as? String == "failed")
    #expect((falseJQ.first?["message"] as? String)?.hasPrefix("jq .[0].name gave Keller") == true, "\(falseJQ)")
    #expect(falseJQ.first?["expected"] as? String == "\"Nobody Realty\"")

    let missing = Self.steps(report["missing-capture"])
    #expect(report["missing-capture"]?["status"] as? String == "failed")
    #expect((missing.first?["message"] as? String)?.contains("capture id: jq .[0].nothing gave null") == true)
    #expect(missing.map { $0["status"] as? String } == ["failed", "skipped"])

    #expect(report["cannot-run"]?["status"] as? String == "error")
    #expect((Self.steps(report["cannot-run"]).first?["message"] as? String)?.contains("$nobody is not defined") == true)
    #expect((report["wrong-exit"]?["rerun"] as? String)?.hasSuffix("--env local --id wrong-exit") == true)
    _ = server
  }

  /// `qa list` and `qa coverage` through the real binary, as a script reads them (--json).
  @Test func listAndCoverageAnswerInJSON() throws {
    let deck = try DeckCLI()
    let list = try deck.run(["qa", "list", "kiosk", "--tag", "readonly", "--json"])
    #expect(list.status == 0, "\(list.stderr)")
    let scenarios = try #require(try json(list.stdout) as? [[String: Any]])
    #expect(!scenarios.isEmpty)
    #expect(scenarios.allSatisfy { $0["module"] as? String == "kiosk" })
    #expect(scenarios.allSatisfy { ($0["tags"] as? [String])?.contains("readonly") == true })
    let coverage = try deck.run(["qa", "coverage", "prefs", "--json"])
    #expect(coverage.status == 0, "\(coverage.stderr)")
    let rows = try #require(try json(coverage.stdout) as? [[String: Any]])
    #expect(rows.allSatisfy { $0["module"] as? String == "prefs" })
    #expect(rows.allSatisfy { ["covered", "not-applicable"].contains($0["status"] as? String) })
    #expect(rows.filter { $0["status"] as? String == "not-applicable" }.allSatisfy { $0["reason"] is String })
    #expect(coverage.stderr.contains("100% of the applicable rows"))
    // Each row says where its behaviour lives (issue 49).
    #expect(rows.allSatisfy { ["backend", "client", "both"].contains($0["kind"] as? String) }, "\(rows)")
    let unknown = try deck.run(["qa", "coverage", "nosuch"])
    #expect(unknown.status == 64)
  }

  /// --fail-fast starts nothing after the first failure; what did not run is skipped, saying why.
  @Test func failFastStopsStartingScenarios() throws {
    let (server, deck) = try Self.served()
    let file = try Self.write(deck, "broken.yaml", Self.broken)
    let result = try deck.run(["qa", "run", file, "--id", "wrong-exit", "--id", "false-jq", "--fail-fast", "--json"])
    #expect(result.status == 1)
    let report = try Self.report(result)
    #expect(report["wrong-exit"]?["status"] as? String == "failed")
    #expect(report["false-jq"]?["status"] as? String == "skipped")
    #expect(report["false-jq"]?["reason"] as? String == "not run: --fail-fast stopped the run")
    _ = server
  }

  /// The JUnit report of a real run validates against the schema; TAP (the default without a
  /// terminal) parses with prove.
  @Test func reportsLoadInTheirConsumers() throws {
    let (server, deck) = try Self.served()
    let file = try Self.write(deck, "broken.yaml", Self.broken)
    let out = deck.home + "/report.xml"
    let junit = try deck.run(["qa", "run", file, "--report", "junit", "--out", out])
    #expect(junit.status == 1)
    #expect(junit.stdout.isEmpty)
    let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("QATests/junit.xsd").path
    let lint = try DeckCLI.execute(
      "/usr/bin/xmllint", ["--noout", "--schema", schema, out], stdin: nil, environment: deck.environment, in: deck.home
    )
    #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
    let xml = try String(contentsOfFile: out, encoding: .utf8)
    #expect(xml.components(separatedBy: "<testcase ").count - 1 == 5)
    #expect(xml.contains(#"classname="brokerage""#))
    #expect(xml.components(separatedBy: "<failure ").count - 1 == 3)
    #expect(xml.components(separatedBy: "<error ").count - 1 == 1)

    // --jq works on the report as on every command's JSON.
    let filtered = try deck.run(["qa", "run", file, "--jq", "[.counts.failed, .counts.errors]"])
    #expect(filtered.status == 1)
    #expect(filtered.stdout == "[3,1]\n", "\(filtered.stdout)")

    let tap = try deck.run(["qa", "run", file])
    #expect(tap.status == 1)
    #expect(tap.stdout.hasPrefix("TAP version 13\n1..5\n"))
    let tapFile = try Self.write(deck, "report.tap", tap.stdout)
    let prove = try DeckCLI.execute(
      "/usr/bin/prove", ["--exec", "cat", tapFile], stdin: nil, environment: deck.environment, in: deck.home)
    #expect(!prove.all.contains("Parse errors"), "\(prove.all)")
    #expect(prove.all.contains("Failed 4/5 subtests"), "\(prove.all)")
    _ = server
  }

  /// A shipped scenario checks real behaviour: with the search answering 404 it fails, at the
  /// search step, and passes again once the fault is gone.
  @Test func aFaultBreaksTheShippedScenarioThatChecksIt() throws {
    let (server, deck) = try Self.served()
    let passing = try deck.run(["qa", "run", "brokerage", "--id", "brokerage-10.2", "--report", "json"])
    #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
    let fault = try deck.run(["sandbox", "fault", "add", "/api/brokerages/search", "--status", "404"])
    #expect(fault.status == 0, "\(fault.stderr)")
    let broken = try deck.run(["qa", "run", "brokerage", "--id", "brokerage-10.2", "--report", "json"])
    #expect(broken.status == 1, "\(broken.stdout)\(broken.stderr)")
    let scenario = try Self.report(broken)["brokerage-10.2"]
    #expect(scenario?["status"] as? String == "failed")
    let failed = Self.steps(scenario).first { $0["status"] as? String == "failed" }
    #expect((failed?["command"] as? String)?.hasPrefix("brokerage search") == true, "\(failed ?? [:])")
    _ = server
  }

  static let tagged = """
    module: brokerage
    scenarios:
      - id: reads
        tags: [readonly]
        steps: [{run: brokerage search keller --json}]
      - id: writes
        tags: [writes]
        generate: {who: email}
        steps:
          - run: auth signup --email ${who} --password-stdin
            stdin: "Corr3ct-Horse-Battery-9\\n"
      - id: operates
        tags: [readonly, sandbox]
        steps: [{run: sandbox fault list --json}]
    """

  /// `writes` is refused against production without --allow-writes; `sandbox` is skipped
  /// where the environment is no sandbox; both are reported as skipped, with the reason.
  @Test func tagsKeepProductionSafe() throws {
    let (server, deck) = try Self.served()
    let file = try Self.write(deck, "tagged.yaml", Self.tagged)
    let added = try deck.run(["env", "add", "prodlike", "--sandbox", server.url])
    #expect(added.status == 0, "\(added.stderr)")
    let marked = try deck.run(["env", "set", "prodlike", "production=true", "sandbox=false"])
    #expect(marked.status == 0, "\(marked.stderr)")
    let shown = try deck.run(["env", "show", "prodlike", "--json"])
    #expect(shown.stdout.contains("production"), "\(shown.stdout)")

    let refused = try deck.run(["qa", "run", file, "--env", "prodlike", "--report", "json"])
    #expect(refused.status == 0, "\(refused.stdout)\(refused.stderr)")
    #expect(refused.stderr.contains("prodlike is production"))
    var report = try Self.report(refused)
    #expect(report["reads"]?["status"] as? String == "passed")
    #expect(report["writes"]?["status"] as? String == "skipped")
    #expect((report["writes"]?["reason"] as? String)?.contains("--allow-writes") == true)
    #expect(report["operates"]?["status"] as? String == "skipped")
    #expect((report["operates"]?["reason"] as? String)?.contains("not a sandbox") == true)

    let allowed = try deck.run(["qa", "run", file, "--env", "prodlike", "--allow-writes", "--report", "json"])
    report = try Self.report(allowed)
    #expect(report["writes"]?["status"] as? String == "passed", "\(allowed.stdout)\(allowed.stderr)")
    // The built-in production environment carries the mark.
    let production = try deck.run(["env", "show", "production", "--json"])
    #expect(production.stdout.contains("\"production\":true"), "\(production.stdout)")
    _ = server
  }

  @Test func anUnreachableEnvironmentIs69BeforeAnythingRuns() throws {
    let (server, deck) = try Self.served()
    let file = try Self.write(deck, "tagged.yaml", Self.tagged)
    var closed: [String: String] = [:]
    for variable in deck.environment.keys where variable.hasPrefix("DECK_") && variable.hasSuffix("_URL") {
      closed[variable] = "http://127.0.0.1:9"
    }
    let result = try deck.run(["qa", "run", file], environment: closed)
    #expect(result.status == 69, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("Could not reach environment \"local\""))
    #expect(result.stderr.contains("No scenario ran"))
    #expect(result.stdout.isEmpty)
    _ = server
  }

  @Test func aBadFileIs64WithFileLineAndField() throws {
    let (server, deck) = try Self.served()
    let file = try Self.write(
      deck, "bad.yaml",
      "module: brokerage\nscenarios:\n  - id: x\n    tags: [readonly]\n    steps:\n      - run: a\n        expect: {exit: many}\n"
    )
    let result = try deck.run(["qa", "run", file])
    #expect(result.status == 64)
    #expect(
      result.stderr.contains("bad.yaml:7: scenarios[0].steps[0].expect.exit: expected an exit code"), "\(result.stderr)"
    )
    let unknown = try deck.run(["qa", "run", "nosuchmodule"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("No scenario module, file or directory \"nosuchmodule\""))
    _ = server
  }

  /// Tokens and secret variables never reach a report, even from the command whose job is to
  /// print the token.
  @Test func reportsHoldNoSecret() throws {
    let (server, deck) = try Self.served()
    let file = try Self.write(
      deck, "secret.yaml",
      """
      module: brokerage
      scenarios:
        - id: leaks
          tags: [writes]
          generate: {who: email}
          vars: {password: Sekrit-Horse-Battery-77}
          steps:
            - run: auth signup --email ${who} --password-stdin
              stdin: "${password}\\n"
            - run: auth token
              expect: {stdout: not-the-token}
        - id: leaks-line
          tags: [readonly]
          vars: {apiToken: Tok3n-Value-123}
          from-env: {account: QA_ACCOUNT_SECRET}
          steps:
            - run: brokerage search ${apiToken} ${account} --json
              expect: {exit: 9}
      """)
    let unset = try deck.run(["qa", "run", file, "--id", "leaks-line", "--json"])
    #expect(unset.status == 1)
    #expect(unset.stdout.contains("from-env: QA_ACCOUNT_SECRET is not set"), "\(unset.stdout)")
    for format in ["json", "junit", "tap"] {
      let result = try deck.run(
        ["qa", "run", file, "--report", format], environment: ["QA_ACCOUNT_SECRET": "Acc0unt-Secret-55"])
      #expect(!result.all.contains("Acc0unt-Secret"), "\(format)")
      #expect(result.status == 1)
      #expect(!result.all.contains("Sekrit-Horse"), "\(format)")
      #expect(!result.all.contains("Tok3n-Value"), "\(format)")
      #expect(!result.all.contains("eyJ"), "\(format): \(result.all)")
      #expect(result.stdout.contains("[REDACTED]"), "\(format)")
    }
    _ = server
  }

  /// Ctrl-C stops the running step (its process group), still runs the cleanup steps, writes
  /// the report and exits 130; nothing is left running and the run's directory is gone.
  @Test func interruptingStopsTheStepsAndStillCleansUp() throws {
    let (server, deck) = try Self.served()
    let file = try Self.write(
      deck, "slow.yaml",
      """
      module: brokerage
      scenarios:
        - id: slow
          tags: [readonly, sandbox, exclusive]
          steps:
            - run: sandbox fault add /api/brokerages/search --latency 20000 --times 1
            - run: brokerage search keller --json --timeout 61.25
            - run: sandbox fault clear
              always: true
      """)
    let child = try DeckCLI.start(
      DeckCLI.binary, ["qa", "run", file, "--report", "json"], stdin: nil, environment: deck.environment, in: deck.home)
    Thread.sleep(forTimeInterval: 3)
    kill(child.processIdentifier, SIGINT)
    let result = try child.finish(timeout: 30)
    #expect(result.status == 130, "\(result.stdout)\(result.stderr)")
    #expect(result.stderr.contains("Interrupted"))
    let steps = Self.steps(try Self.report(result)["slow"])
    #expect(["error", "skipped"].contains(steps[1]["status"] as? String), "\(steps)")
    #expect(steps[2]["status"] as? String == "passed", "the cleanup step did not run: \(steps)")
    let faults = try deck.run(["sandbox", "fault", "list", "--json"])
    #expect(faults.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(faults.stdout)")
    let left = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    let running = left.filter { pid in
      guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
      return String(decoding: data, as: UTF8.self).contains("61.25")
    }
    #expect(running.isEmpty, "steps still running: \(running)")
    _ = server
  }

  /// On a terminal: a line per scenario, the summary, and each failure with its step, the
  /// expected and actual values and the command that reruns it.
  @Test func aTerminalShowsProgressAndHowToRerun() throws {
    let (server, deck) = try Self.served()
    let file = try Self.write(deck, "broken.yaml", Self.broken)
    let terminal = try PseudoTerminal(
      arguments: ["qa", "run", file, "--id", "passes", "--id", "false-jq"], environment: deck.environment)
    _ = try terminal.expect("1 passed, 1 failed")
    let rest = try terminal.expect("rerun: deck qa run")
    #expect(rest.contains("FAILED") && rest.contains("false-jq  A jq expectation that is false"), "\(rest)")
    #expect(rest.contains("step 1 (line 27): brokerage search keller --json"))
    #expect(rest.contains("expected: \"Nobody Realty\""))
    #expect(try terminal.waitForExit() == 1)
    _ = server
  }
}
