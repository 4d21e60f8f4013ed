import DeckConfig
import DeckCore
import DeckSupport
import Foundation
import Testing

@testable import DeckQA

/// `qa coverage`: the user's own files beside the shipped ones, a run's results joined to the
/// rows, and a table that fits the terminal.
@Suite struct CoverageTests {
  /// At 80 and 120 columns every line of the shipped rows' table fits, the text columns
  /// wrapped inside their cells; without a terminal a row is one line.
  @Test(arguments: [80, 120]) func theTableFitsTheTerminal(columns: Int) throws {
    let rows = try ScenarioCatalog.shippedRows().flatMap { spec in
      spec.rows.map {
        [$0.id, $0.notApplicable == nil ? "covered" : "not-applicable", $0.notApplicable ?? "x-1, y-2", $0.text]
      }
    }
    let headers = ["ROW", "STATUS", "SCENARIOS / REASON", "TEXT"]
    let fitted = CoverageLayout(headers: headers, rows: rows, wrapping: [2, 3], columns: columns).lines()
    for line in fitted { #expect(TextLayout.displayWidth(line) <= columns, "\(line)") }
    #expect(fitted.count > rows.count + 1)
    // Every word of every cell is still there.
    let words = Set(fitted.flatMap { $0.split(separator: " ").map(String.init) })
    for row in rows { for word in row[3].split(separator: " ") { #expect(words.contains(String(word))) } }
    let plain = CoverageLayout(headers: headers, rows: rows, wrapping: [2, 3], columns: nil).lines()
    #expect(plain.count == rows.count + 1)
    // With --env's RUNNABLE column (its widest cell) too, which from 100 columns up has a
    // column of its own, as KIND has.
    guard columns >= QACoverageCommand.kindColumnWidth else { return }
    let runnable = rows.map { [$0[0], $0[1], "no: sandbox, writes", $0[2], $0[3]] }
    let withEnvironment = CoverageLayout(
      headers: ["ROW", "STATUS", "RUNNABLE", "SCENARIOS / REASON", "TEXT"], rows: runnable, wrapping: [3, 4],
      columns: columns
    ).lines()
    for line in withEnvironment { #expect(TextLayout.displayWidth(line) <= columns, "\(line)") }
  }

  /// A run's results by scenario: failed wins, then passed; data rows count as their scenario.
  @Test func resultsJoinTheRowsScenarios() throws {
    let path = NSTemporaryDirectory() + "deck-qa-results-\(UUID().uuidString).json"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let report = """
      {"environment": "local", "seconds": 1, "counts": {},
       "scenarios": [{"id": "a", "status": "passed"}, {"id": "b", "status": "failed"},
                     {"id": "c", "status": "skipped"}, {"id": "d.row1", "status": "passed"},
                     {"id": "d.row2", "status": "error"}, {"id": "e.row1", "status": "passed"}]}
      """
    try Data(report.utf8).write(to: URL(fileURLWithPath: path))
    let results = try CoverageResults.read(path)
    #expect(results.result(["a"]) == "passed")
    #expect(results.result(["a", "b"]) == "failed")
    #expect(results.result(["c"]) == "not run")
    #expect(results.result(["nowhere"]) == "not run")
    #expect(results.result(["d"]) == "failed")
    #expect(results.result(["e"]) == "passed")
    #expect(results.result(["e.row"]) == "not run")
    try Data("{\"nothing\": 1}".utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: DeckError.self) { try CoverageResults.read(path) }
  }

  /// A user's directory: its scenarios cover shipped rows, its rows.yaml takes its module's
  /// place, and only its modules are shown.
  @Test func theUsersFilesCount() throws {
    let root = try ScenarioFilesTests.directory()
    defer { try? FileManager.default.removeItem(atPath: root) }
    try ScenarioFilesTests.write(ScenarioFilesTests.file(module: "mbti", ids: ["mine-1"]), to: root + "/mbti/mine.yaml")
    try ScenarioFilesTests.write(
      "module: checkout\nspec: checkout.md\nrows:\n  - id: checkout-1\n    text: Pays\n",
      to: root + "/checkout/rows.yaml")
    try ScenarioFilesTests.write(
      ScenarioFilesTests.file(module: "checkout", ids: ["checkout-1"]), to: root + "/checkout/pay.yaml")
    let sources = try CoverageSources.gather([root])
    #expect(Set(sources.specs.map(\.module)) == ["mbti", "checkout"])
    #expect(sources.scenarios.contains { $0.id == "checkout-1" && $0.file == root + "/checkout/pay.yaml" })
    #expect(sources.scenarios.contains { $0.id == "mine-1" && $0.module == "mbti" })
    #expect(sources.unlisted.isEmpty)
    let all = try CoverageSources.gather([])
    #expect(Set(all.specs.map(\.module)) == ["brokerage", "kiosk", "mbti", "prefs", "workspace"])
    #expect(throws: DeckError.self) { try CoverageSources.gather(["nowhere-at-all"]) }
  }

  /// `qa coverage --env` and `qa run` decide what runs where by one rule (``RunBlocker``): a
  /// sandbox-tagged scenario only in a sandbox, a writes-tagged one not in production unless
  /// --allow-writes; the sandbox comes first where both keep a scenario out.
  @Test func whatRunsWhereIsQARunsRule() throws {
    let text = """
      module: checkout
      scenarios:
        - id: reads
          tags: [readonly]
          steps: [{run: brokerage search x}]
        - id: writes
          tags: [writes]
          steps: [{run: brokerage search x}]
        - id: operates
          tags: [writes, sandbox]
          steps: [{run: sandbox status}]
      """
    let scenarios = try ScenarioParser.scenarios(text, file: "checkout.yaml")
    let served = EnvironmentDefinition(name: "served", urls: [:], isSandbox: true)
    let expected: [(String, Bool, [RunBlocker?])] = [
      ("sandbox", false, [nil, nil, nil]), ("served", false, [nil, nil, nil]),
      ("staging", false, [nil, nil, .sandbox]), ("dev", true, [nil, nil, .sandbox]),
      ("production", false, [nil, .writes, .sandbox]), ("production", true, [nil, nil, .sandbox]),
    ]
    for (name, allowWrites, blockers) in expected {
      let definition = try #require(name == "served" ? served : BuiltinEnvironments.named(name))
      let run = QARun(scenarios: scenarios, definition: definition, jobs: 1, failFast: false, allowWrites: allowWrites)
      let here = EnvironmentCoverage(name: name, definition: definition, allowWrites: allowWrites)
      for (scenario, blocker) in zip(scenarios, blockers) {
        #expect(RunBlocker.of(scenario, in: definition, allowWrites: allowWrites) == blocker, "\(name) \(scenario.id)")
        #expect(run.skipReason(scenario) == blocker?.reason(name), "\(name) \(scenario.id)")
        #expect(here.split([scenario]).runnable == (blocker == nil ? [scenario.id] : []))
        #expect(here.split([scenario]).blockedBy == (blocker.map { [$0] } ?? []))
      }
      // A row is runnable when one of its scenarios is; the others' blockers are named once each.
      let split = here.split(scenarios + scenarios)
      #expect(split.runnable == zip(scenarios, blockers).filter { $1 == nil }.map(\.0.id))
      #expect(split.blockedBy == RunBlocker.allCases.filter { blockers.contains($0) })
    }
    #expect(RunBlocker.sandbox.reason("staging") == "needs the sandbox's operator endpoints; staging is not a sandbox")
    #expect(
      RunBlocker.writes.reason("production") == "writes, and production is production: refused without --allow-writes")
  }
}
