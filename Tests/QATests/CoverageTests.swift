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
}
