import ArgumentParser
import DeckCore
import DeckSupport

/// `deck qa coverage`: each spec row, the scenarios that cover it, or why it does not apply.
struct QACoverageCommand: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "coverage", _superCommandName: "deck",
    abstract: "Show each row of the specs' QA checklists: the scenarios covering it, or why a terminal cannot.",
    discussion: HelpText.discussion(
      """
      Rows come from each module's rows.yaml (docs/QA.md); a scenario covers the row named by \
      its id and those in its covers list. KIND says where the row's behaviour lives: backend \
      (a scenario reaches it without deck's client in between, with deck api), client (a \
      scenario drives deck as a user does) or both.
      """,
      exits: [
        .failure(
          "a row is neither covered nor marked not applicable, or a scenario names a row the spec does not have"),
        .usage("a bad module name"),
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("Only these modules (all when none).", valueName: "module"))
  var modules: [String] = []

  struct Row: Encodable {
    var module: String
    var row: String
    var text: String
    /// covered, not-applicable or uncovered.
    var status: String
    /// backend, client or both (rows.yaml's `kind`), nil when the row does not say.
    var kind: String?
    var scenarios: [String]
    var reason: String?
  }

  func run(_ context: DeckContext) async throws {
    let specs = try ScenarioCatalog.shippedRows()
    let scenarios = try ScenarioCatalog.shipped()
    let known = Set(specs.map(\.module))
    for module in modules where !known.contains(module.lowercased()) {
      throw DeckError.usage(
        "No module \"\(TerminalText.sanitize(module))\" has QA rows.",
        hint: "Modules: \(known.sorted().joined(separator: ", ")).")
    }
    let chosen = specs.filter { modules.isEmpty || modules.map { $0.lowercased() }.contains($0.module) }
    var rows: [Row] = []
    var unknown: [String] = []
    for spec in chosen {
      let mine = scenarios.filter { $0.module == spec.module }
      for row in spec.rows {
        let by = mine.filter { $0.rows.contains(row.id) }.map(\.id)
        let status = !by.isEmpty ? "covered" : row.notApplicable != nil ? "not-applicable" : "uncovered"
        rows.append(
          Row(
            module: spec.module, row: row.id, text: row.text, status: status, kind: row.kind?.rawValue, scenarios: by,
            reason: by.isEmpty ? row.notApplicable : nil))
      }
      let listed = Set(spec.rows.map(\.id))
      for scenario in mine {
        for row in scenario.rows where !listed.contains(row) { unknown.append("\(scenario.id) names \(row)") }
      }
    }
    let output = context.output
    try output.emit(rows) {
      output.table(
        ["ROW", "STATUS", "KIND", "SCENARIOS / REASON", "TEXT"],
        rows.map {
          [
            $0.row, $0.status == "uncovered" ? "UNCOVERED" : $0.status, Self.kindCell($0.kind),
            $0.scenarios.isEmpty ? ($0.reason ?? "-") : $0.scenarios.joined(separator: ", "), $0.text,
          ]
        }, cellStyle: { _, column, text in column == 1 && text == "UNCOVERED" ? .red : nil })
    }
    for spec in chosen {
      let mine = rows.filter { $0.module == spec.module }
      let covered = mine.filter { $0.status == "covered" }.count
      let notApplicable = mine.filter { $0.status == "not-applicable" }.count
      let applicable = mine.count - notApplicable
      let percent = applicable == 0 ? 100 : covered * 100 / applicable
      output.info(
        "\(spec.module) (\(spec.spec)): \(mine.count) rows, \(covered) covered, \(notApplicable) not applicable, \(applicable - covered) uncovered: \(percent)% of the applicable rows"
      )
    }
    let uncovered = rows.filter { $0.status == "uncovered" }
    if !uncovered.isEmpty || !unknown.isEmpty {
      var parts: [String] = []
      if !uncovered.isEmpty { parts.append("uncovered: \(uncovered.map(\.row).joined(separator: ", "))") }
      if !unknown.isEmpty { parts.append("rows the specs' lists do not have: \(unknown.joined(separator: "; "))") }
      throw DeckError.failure(
        "Coverage is incomplete: \(parts.joined(separator: "; ")).",
        hint: "Add a scenario for each uncovered row, or mark it not-applicable with the reason in rows.yaml.")
    }
  }

  /// The KIND column: where the row's behaviour lives (backend, client, both), `-` unsaid.
  static func kindCell(_ kind: String?) -> String { kind ?? "-" }
}
