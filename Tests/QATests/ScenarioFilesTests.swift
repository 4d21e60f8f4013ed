import DeckSupport
import Foundation
import Testing

@testable import DeckQA

/// Scenarios a team keeps: the shipped files by the names `qa show` and `qa export` use,
/// directories of scenario files, and variables in jq checked before anything runs.
@Suite struct ScenarioFilesTests {
  static func directory() throws -> String {
    let path = NSTemporaryDirectory() + "deck-qa-files-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static func write(_ text: String, to path: String) throws {
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  }

  static func file(module: String, ids: [String], extra: String = "") -> String {
    "module: \(module)\nscenarios:\n"
      + ids.map { "  - id: \($0)\n    tags: [readonly]\n    steps:\n      - run: brokerage search x --json\n\(extra)" }
      .joined()
  }

  /// A shipped scenario is named as an installed deck can show it, never by a source path.
  @Test func shippedScenariosAreNamedAsQAShowShowsThem() throws {
    let scenarios = try ScenarioCatalog.shipped()
    for scenario in scenarios {
      #expect(scenario.shipped)
      #expect(!scenario.file.contains("Sources") && scenario.file.hasPrefix(scenario.module + "/"), "\(scenario.file)")
      #expect(scenario.place == "\(scenario.file):\(scenario.line) (deck qa show \(scenario.id))")
    }
    let edge = try #require(scenarios.first { $0.id == "prefs-5.edge.3" })
    #expect(QAReport.rerun(edge, environment: "sandbox") == "deck qa run prefs --env sandbox --id prefs-5.edge.3")
    var mine = edge
    mine.shipped = false
    mine.file = "qa/prefs/school.yaml"
    #expect(mine.place == "qa/prefs/school.yaml:\(edge.line)")
    #expect(QAReport.rerun(mine, environment: "sandbox").hasPrefix("deck qa run qa/prefs/school.yaml --env sandbox"))
  }

  /// `qa show ID` prints a file of the scenario alone that reads back as the same scenario;
  /// a module file prints as it is; a module prints all its files; anything else is a usage error.
  @Test func showPrintsAScenarioAsAFileOfItsOwn() throws {
    for scenario in try ScenarioCatalog.shipped() {
      let shown = try QAShowCommand.shown(scenario.id)
      #expect(shown.count == 1)
      let again = try #require(try ScenarioParser.scenarios(shown[0].yaml, file: "shown.yaml").first)
      var expected = scenario
      expected.file = "shown.yaml"
      expected.shipped = false
      expected.line = again.line
      // The steps' lines moved with the excerpt; all else is the same.
      #expect(again.steps.map(\.run) == scenario.steps.map(\.run), "\(scenario.id)")
      #expect(again.steps.map(\.line) == scenario.steps.map { $0.line - scenario.line + again.line }, "\(scenario.id)")
      expected.steps = again.steps
      #expect(again == expected, "\(scenario.id)")
      #expect(try ScenarioParser.scenarios(shown[0].yaml, file: "shown.yaml").count == 1, "\(scenario.id)")
    }
    let files = try ScenarioCatalog.files()
    let school = try #require(files.first { $0.path == "prefs/school.yaml" })
    #expect(try QAShowCommand.shown("prefs/school.yaml").map(\.yaml) == [school.yaml])
    #expect(try QAShowCommand.shown("prefs/school").map(\.yaml) == [school.yaml])
    let module = try QAShowCommand.shown("prefs")
    #expect(module.map(\.name).sorted() == files.filter { $0.path.hasPrefix("prefs/") }.map(\.path).sorted())
    #expect(module.last?.name == "prefs/rows.yaml")
    #expect(throws: DeckError.self) { try QAShowCommand.shown("prefs-99") }
  }

  /// `qa run DIR` takes every scenario file under it, subdirectories too, in name order;
  /// rows.yaml and hidden files are not scenario files; files and modules mix.
  @Test func runTakesDirectoriesOfScenarioFiles() throws {
    let root = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try Self.write(Self.file(module: "brokerage", ids: ["b-2"]), to: root + "/b.yaml")
    try Self.write(Self.file(module: "brokerage", ids: ["a-1", "a-2"]), to: root + "/a.yml")
    try Self.write(Self.file(module: "kiosk", ids: ["k-1"]), to: root + "/kiosk/deep/k.yaml")
    try Self.write("module: kiosk\nspec: k.md\nrows: []\n", to: root + "/kiosk/rows.yaml")
    try Self.write("not: a scenario\n", to: root + "/.hidden.yaml")
    try Self.write("# notes\n", to: root + "/notes.txt")
    let chosen = try ScenarioCatalog.select([root], tags: [], ids: [])
    #expect(chosen.map(\.id) == ["a-1", "a-2", "b-2", "k-1"])
    #expect(chosen.last?.file == root + "/kiosk/deep/k.yaml")
    let mixed = try ScenarioCatalog.select([root + "/kiosk", "mbti"], tags: [], ids: [])
    #expect(mixed.first?.id == "k-1" && mixed.dropFirst().allSatisfy { $0.module == "mbti" && $0.shipped })
    let empty = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: empty) }
    #expect(throws: DeckError.self) { try ScenarioCatalog.select([empty], tags: [], ids: []) }
  }

  /// `${NAME}` in a jq expectation or capture must be set by then: by deck, the scenario, or a
  /// capture of an earlier step; otherwise the file is refused before anything runs, naming
  /// the file, the line and the field.
  @Test func anUndefinedVariableInJQIsRefusedWhenTheFileLoads() throws {
    let defined = """
      module: brokerage
      scenarios:
        - id: fine
          tags: [readonly]
          vars: {name: Keller}
          steps:
            - run: brokerage search x --json
              expect:
                jq: ['.[0].name == "${name}"', {expr: '.[0].id', equals: '${SCENARIO}'}]
              capture: {first: '.[0].id', second: '.[] | select(.id == "${first}") | .id'}
            - run: brokerage show ${first} --json
              expect: {jq: ['.id == "${second}"']}
      """
    try JQCheckRunner.validate(try ScenarioParser.scenarios(defined, file: "fine.yaml"))

    let cases: [(text: String, message: String)] = [
      (
        """
        module: brokerage
        scenarios:
          - id: typo
            tags: [readonly]
            vars: {name: Keller}
            steps:
              - run: brokerage search x --json
                expect:
                  jq: ['.[0].name == "${nmae}"']
        """, "typo.yaml:9: scenarios[0].steps[0].expect.jq[0]: ${nmae} is not defined"
      ),
      (
        """
        module: brokerage
        scenarios:
          - id: later
            tags: [readonly]
            steps:
              - run: brokerage search x --json
                expect:
                  jq: [{expr: '.[0].id', equals: '"${first}"'}]
                capture: {first: '.[0].id'}
        """, "typo.yaml:8: scenarios[0].steps[0].expect.jq[0].expr: ${first} is not defined"
      ),
      (
        """
        module: brokerage
        scenarios:
          - id: capture
            tags: [readonly]
            steps:
              - run: brokerage search x --json
                capture: {first: '.[] | select(.name == "${wanted}") | .id'}
        """, "typo.yaml:7: scenarios[0].steps[0].capture.first: ${wanted} is not defined"
      ),
    ]
    for (text, message) in cases {
      let scenarios = try ScenarioParser.scenarios(text, file: "typo.yaml")
      let error = try #require(throws: DeckError.self) { try JQCheckRunner.validate(scenarios) }
      #expect(error.message == message)
      #expect(error.exitCode == ExitCode.usage)
    }
  }
}
