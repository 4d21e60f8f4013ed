import DeckSupport
import Foundation
import Testing

@testable import DeckQA

/// The scenario format (docs/QA.md): what it reads, and errors that name file, line and field.
@Suite struct ScenarioParserTests {
  static let valid = """
    module: brokerage
    scenarios:
      - id: brokerage-10.3
        title: A typo still finds it
        covers: [brokerage-9.2]
        tags: [readonly, sandbox]
        generate: {owner: email, key: uuid}
        vars:
          password: Pa55-${owner}
        from-env: {account: QA_ACCOUNT}
        steps:
          - run: brokerage search "kellr wiliams" --json
            timeout: 5
            expect:
              exit: 0
              stdout: Keller
              stderr: {not-contains: error}
              jq:
                - 'length > 0'
                - {expr: '.[0].name', equals: Keller Williams}
                - {expr: 'length', equals: 3}
            capture:
              first: '.[0].id'
          - run: sandbox fault clear
            always: true
            stdin: "x\\n"
    """

  @Test func aValidFileReadsAsWritten() throws {
    let scenarios = try ScenarioParser.scenarios(Self.valid, file: "a.yaml")
    let scenario = try #require(scenarios.first)
    #expect(scenario.id == "brokerage-10.3")
    #expect(scenario.module == "brokerage")
    #expect(scenario.rows == ["brokerage-10.3", "brokerage-9.2"])
    #expect(scenario.tags == [.readonly, .sandbox])
    #expect(scenario.generate.map(\.name) == ["owner", "key"])
    #expect(scenario.line == 3)
    let first = scenario.steps[0]
    #expect(first.timeout == 5)
    #expect(first.expect.stdout == [.contains("Keller")])
    #expect(first.expect.stderr == [.notContains("error")])
    #expect(first.expect.jq.map(\.equals) == [nil, "\"Keller Williams\"", "3"])
    #expect(
      first.captures == [
        Step.Capture(name: "first", expression: ".[0].id", line: 23, field: "scenarios[0].steps[0].capture.first")
      ])
    #expect(scenario.steps[1].always)
    #expect(scenario.steps[1].stdin == "x\n")
    #expect(scenario.steps[1].line == 24)
  }

  /// Each mistake is a usage error (64) that names the file, the line and the field.
  @Test(arguments: [
    ("scenarios: []", "a.yaml: module: missing"),
    ("module: m\nscenarios:\n  - id: x\n    tags: [readonly]\n", "a.yaml:3: scenarios[0].steps: missing"),
    ("module: m\nscenarios:\n  - id: x\n    steps: [{run: a}]\n", "scenarios[0].tags: missing readonly or writes"),
    (
      "module: m\nscenarios:\n  - id: x\n    tags: [readonly]\n    steps:\n      - run: a\n        expect: {exit: two}\n",
      "a.yaml:7: scenarios[0].steps[0].expect.exit: expected an exit code"
    ),
    (
      "module: m\nscenarios:\n  - id: x\n    tags: [readonly]\n    steps:\n      - run: a\n        expct: {}\n",
      "a.yaml:7: scenarios[0].steps[0]: unknown key \"expct\""
    ),
    ("module: m\nscenarios:\n  - id: x\n    tags: [fast]\n    steps: [{run: a}]\n", "unknown tag \"fast\""),
    (
      "module: m\nscenarios:\n  - id: x\n    tags: [writes]\n    generate: {ENV: email}\n    steps: [{run: a}]\n",
      "\"ENV\" is set by deck"
    ),
    (
      "module: m\nscenarios:\n  - {id: x, tags: [writes], steps: [{run: a}]}\n  - {id: x, tags: [writes], steps: [{run: b}]}\n",
      "\"x\" is used twice"
    ),
    ("module: m\nscenarios: [\n", "a.yaml:"),
  ])
  func mistakesNameFileLineAndField(text: String, message: String) {
    do {
      _ = try ScenarioParser.scenarios(text, file: "a.yaml")
      Issue.record("no error for \(text)")
    } catch let error as DeckError {
      #expect(error.exitCode == 64)
      #expect(error.message.contains(message), "\(error.message)")
    } catch {
      Issue.record("\(error)")
    }
  }

  /// jq expressions are checked before anything runs (one compile per file; each alone only
  /// to name the wrong one), with `${NAME}` standing for a value.
  @Test func aBadJQExpressionIsNamedBeforeAnythingRuns() throws {
    let text = """
      module: m
      scenarios:
        - id: x
          tags: [readonly]
          vars: {who: Ada, n: "1"}
          steps:
            - run: a
              expect:
                jq: ['.a == "${who}"', '.b == ${n}']
              capture: {id: '.id'}
            - run: b
              expect: {jq: ['.a |']}
      """
    let scenarios = try ScenarioParser.scenarios(text, file: "a.yaml")
    do {
      try JQCheckRunner.validate(scenarios)
      Issue.record("a bad jq expression passed")
    } catch let error as DeckError {
      #expect(error.exitCode == 64)
      #expect(
        error.message.hasPrefix("a.yaml:12: scenarios[0].steps[1].expect.jq[0]: not a valid jq expression"),
        "\(error.message)")
    }
    let good = try ScenarioParser.scenarios(text.replacingOccurrences(of: "'.a |'", with: "'.a'"), file: "a.yaml")
    try JQCheckRunner.validate(good)
  }

  @Test func rowsReadWithTheirReasons() throws {
    let rows = try ScenarioParser.rows(
      """
      module: prefs
      spec: preferences.md
      rows:
        - {id: prefs-6.1, text: Saves}
        - {id: prefs-6.2, text: VoiceOver, not-applicable: no screen reader}
      """, file: "rows.yaml")
    #expect(rows.rows.map(\.id) == ["prefs-6.1", "prefs-6.2"])
    #expect(rows.rows[1].notApplicable == "no screen reader")
    #expect(rows.rows[0].kind == nil)
  }

  /// A row says where its behaviour lives: backend, client or both, and nothing else.
  @Test func aRowsKindIsBackendClientOrBoth() throws {
    let rows = try ScenarioParser.rows(
      "module: w\nspec: w.md\nrows:\n  - {id: w-1, kind: backend, text: A}\n  - {id: w-2, kind: both, text: B}\n",
      file: "rows.yaml")
    #expect(rows.rows.map(\.kind) == [.backend, .both])
    #expect {
      try ScenarioParser.rows("module: w\nspec: w.md\nrows:\n  - {id: w-1, kind: server, text: A}\n", file: "rows.yaml")
    } throws: { error in
      (error as? DeckError)?.message.contains("rows[0].kind: \"server\" is not a kind: backend, client, both") == true
    }
  }

  @Test func idPatternsMatchAsTheShellDoes() {
    #expect(Glob.matches("prefs-6.*", "prefs-6.happy.3"))
    #expect(Glob.matches("*.3", "prefs-6.happy.3"))
    #expect(Glob.matches("kiosk-?.1", "kiosk-4.1"))
    #expect(!Glob.matches("prefs-6.*", "prefs-5.1"))
    #expect(!Glob.matches("kiosk-?.1", "kiosk-10.1"))
  }

  @Test func variablesAreReplacedAndGeneratedFresh() {
    let scenario = try! ScenarioParser.scenarios(Self.valid, file: "a.yaml")[0]
    var count = 0
    let values = ScenarioVariables.initial(
      for: scenario, environment: "local", processEnvironment: ["QA_ACCOUNT": "qa@example.com"]
    ) {
      count += 1
      return "t\(count)"
    }
    #expect(values["owner"] == "qa-t1@example.test")
    #expect(values["password"] == "Pa55-qa-t1@example.test")
    #expect(values["ENV"] == "local")
    #expect(values["account"] == "qa@example.com")
    #expect(values["SCENARIO"] == "brokerage-10.3")
    #expect(values["key"]?.count == 36)
    #expect(ScenarioVariables.substitute("a ${x} ${nope} $x") { $0 == "x" ? "1" : nil } == "a 1 ${nope} $x")
    #expect(ScenarioVariables.uniqueToken() != ScenarioVariables.uniqueToken())
  }
}
