import ArgumentParser
import DeckCore
import DeckSupport

/// `deck qa coverage`: each spec row, the scenarios that cover it, or why it does not apply.
struct QACoverageCommand: DeckCommand, NamingFiles {
  static let files = FileArguments(reads: ["--results"])

  static let configuration = CommandConfiguration(
    commandName: "coverage", _superCommandName: "deck",
    abstract: "Show each row of the specs' QA checklists: the scenarios covering it, or why a terminal cannot.",
    discussion: HelpText.discussion(
      """
      Rows come from each module's rows.yaml (docs/QA.md); a scenario covers the row named by \
      its id and those in its covers list. KIND says where the row's behaviour lives: backend \
      (a scenario reaches it without deck's client in between, with deck api), client (a \
      scenario drives deck as a user does) or both. Your own scenario files (or directories of them) \
      count beside the shipped ones, and a rows.yaml among them takes the place of its \
      module's; with arguments, only the modules named and those of your files are shown. \
      --results joins a run's JSON report (deck qa run --report json --out FILE): each row \
      passed, failed or was not run. On a terminal the table fits its width.

      --env E says which rows can be checked in that environment, by the rule deck qa run \
      skips by: RUNNABLE is yes when a scenario covering the row runs there, else what keeps \
      its scenarios out: sandbox (tagged sandbox: they need the sandbox's operator endpoints, \
      and E is not a sandbox) or writes (tagged writes, and E is production; --allow-writes \
      counts them as deck qa run --allow-writes runs them). In JSON each row then has \
      runnable (true or false; absent for a row no scenario covers), runnableScenarios and \
      blockedBy ("sandbox", "writes"). Without --env, the environment is not looked at.

      Examples:
        deck qa coverage prefs
        deck qa coverage qa/ --results qa.json
        deck qa coverage --env staging
      """,
      exits: [
        .failure(
          "a row is neither covered nor marked not applicable, a scenario names a row the spec does not have, or (with --results) a row's scenario failed"
        ),
        .usage("a bad module name, scenario file or report"),
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: ArgumentHelp(
      "Modules, scenario files or directories of them (all shipped modules when none).", valueName: "module-or-file"),
    completion: ScenarioSourceCompletion.completion)
  var sources: [String] = []

  @Option(
    help: ArgumentHelp(
      "Join this JSON report of deck qa run: which rows passed, failed or were not run.", valueName: "file"),
    completion: .file(extensions: ["json"]))
  var results: String?

  @Flag(
    help:
      "With --env: count scenarios tagged writes as runnable in production, as deck qa run --allow-writes runs them.")
  var allowWrites = false

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
    /// With --results: passed, failed or not run.
    var result: String?
    /// With --env: whether a scenario covering the row runs there; nil when none covers it.
    var runnable: Bool?
    /// With --env: the covering scenarios that run there.
    var runnableScenarios: [String]?
    /// With --env: what keeps the other covering scenarios out (``RunBlocker``: sandbox, writes).
    var blockedBy: [String]?
  }

  func run(_ context: DeckContext) async throws {
    let sources = try CoverageSources.gather(self.sources)
    let results = try self.results.map(CoverageResults.read)
    if allowWrites && global.env == nil {
      throw DeckError.usage(
        "--allow-writes goes with --env.", hint: "e.g. deck qa coverage --env production --allow-writes")
    }
    // Only an --env given here: without it, today's report, whatever the session's environment.
    let here = try global.env.map { _ in
      let environment = try context.environment()
      return EnvironmentCoverage(
        name: environment.name, definition: environment.definition, allowWrites: allowWrites)
    }
    var rows: [Row] = []
    var unknown: [String] = []
    for spec in sources.specs {
      let mine = sources.scenarios.filter { $0.module == spec.module }
      for row in spec.rows {
        let covering = mine.filter { $0.rows.contains(row.id) }
        let by = covering.map(\.id).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let status = !by.isEmpty ? "covered" : row.notApplicable != nil ? "not-applicable" : "uncovered"
        var entry = Row(
          module: spec.module, row: row.id, text: row.text, status: status, kind: row.kind?.rawValue,
          scenarios: by,
          reason: by.isEmpty ? row.notApplicable : nil, result: by.isEmpty ? nil : results?.result(by))
        if let here {
          let split = here.split(covering)
          entry.runnable = by.isEmpty ? nil : !split.runnable.isEmpty
          entry.runnableScenarios = split.runnable
          entry.blockedBy = split.blockedBy.map(\.rawValue)
        }
        rows.append(entry)
      }
      let listed = Set(spec.rows.map(\.id))
      for scenario in mine {
        for row in scenario.rows where !listed.contains(row) { unknown.append("\(scenario.id) names \(row)") }
      }
    }
    let output = context.output
    try output.emit(rows) { table(rows, output: output, withResults: results != nil, environment: here != nil) }
    for spec in sources.specs {
      let mine = rows.filter { $0.module == spec.module }
      let covered = mine.filter { $0.status == "covered" }.count
      let notApplicable = mine.filter { $0.status == "not-applicable" }.count
      let applicable = mine.count - notApplicable
      let percent = applicable == 0 ? 100 : covered * 100 / applicable
      var line =
        "\(spec.module) (\(spec.spec)): \(mine.count) rows, \(covered) covered, \(notApplicable) not applicable, \(applicable - covered) uncovered: \(percent)% of the applicable rows"
      if results != nil {
        let count = { (result: String) in mine.filter { $0.result == result }.count }
        line += "; in the run \(count("passed")) passed, \(count("failed")) failed, \(count("not run")) not run"
      }
      if let here {
        line += "; " + here.summary(mine, scenarios: sources.scenarios.filter { $0.module == spec.module })
      }
      output.info(line)
    }
    if let here, sources.specs.count > 1 {
      let modules = Set(sources.specs.map(\.module))
      output.info(
        "All modules, " + here.summary(rows, scenarios: sources.scenarios.filter { modules.contains($0.module) }))
    }
    for module in sources.unlisted {
      output.info("\(module): no rows.yaml lists its rows, so its scenarios cover none (docs/QA.md, Spec rows).")
    }
    let uncovered = rows.filter { $0.status == "uncovered" }
    let failed = rows.filter { $0.result == "failed" }
    if !uncovered.isEmpty || !unknown.isEmpty || !failed.isEmpty {
      var parts: [String] = []
      if !uncovered.isEmpty { parts.append("uncovered: \(uncovered.map(\.row).joined(separator: ", "))") }
      if !unknown.isEmpty { parts.append("rows the specs' lists do not have: \(unknown.joined(separator: "; "))") }
      if !failed.isEmpty {
        parts.append("failed in \(self.results ?? "the run"): \(failed.map(\.row).joined(separator: ", "))")
      }
      throw DeckError.failure(
        "Coverage is incomplete: \(parts.joined(separator: "; ")).",
        hint: failed.isEmpty || !uncovered.isEmpty || !unknown.isEmpty
          ? "Add a scenario for each uncovered row, or mark it not-applicable with the reason in rows.yaml."
          : "See the failures in the run's report, or rerun them with deck qa run.")
    }
  }

  /// The rows for a person: on a terminal, wrapped to its width (``CoverageLayout``).
  func table(_ rows: [Row], output: Output, withResults: Bool, environment: Bool) {
    // Under 100 columns the kind (and, with --env, RUNNABLE) leads the row's text instead of
    // taking a column of its own, so that the scenarios keep room for their ids.
    let kindColumn = (output.columns ?? .max) >= Self.kindColumnWidth
    var headers = ["ROW", "STATUS"]
    if kindColumn { headers.append("KIND") }
    if withResults { headers.append("RESULT") }
    if environment && kindColumn { headers.append("RUNNABLE") }
    headers += ["SCENARIOS / REASON", "TEXT"]
    let cells = rows.map { row -> [String] in
      var cells = [row.row, row.status == "uncovered" ? "UNCOVERED" : row.status]
      if kindColumn { cells.append(row.kind ?? "-") }
      if withResults { cells.append(row.result ?? "-") }
      if environment && kindColumn { cells.append(Self.runnableCell(row)) }
      let lead = [row.kind, environment ? "runnable: " + Self.runnableCell(row) : nil].compactMap { $0 }
      let text = kindColumn || lead.isEmpty ? row.text : "(\(lead.joined(separator: ", "))) \(row.text)"
      cells += [row.scenarios.isEmpty ? (row.reason ?? "-") : row.scenarios.joined(separator: ", "), text]
      return cells.map { TerminalText.sanitize($0) }
    }
    let resultColumn = headers.firstIndex(of: "RESULT")
    let layout = CoverageLayout(
      headers: headers, rows: cells, wrapping: [headers.count - 2, headers.count - 1], columns: output.columns)
    let red = { (column: Int, shown: String) in
      (column == 1 && shown == "UNCOVERED") || (column == resultColumn && shown == "failed")
    }
    let lines = layout.lines { row, column, shown in
      if row < 0 { return output.style(shown, .bold) }
      return red(column, shown) ? output.style(shown, .red) : shown
    }
    // An id wider than its cell stays whole; where that overflows the terminal (40 columns),
    // the house's table takes over, which shows each row as a record.
    if let columns = output.columns, lines.contains(where: { TextLayout.displayWidth(TextLayout.plain($0)) > columns })
    {
      output.table(headers, cells, cellStyle: { _, column, text in red(column, text) ? .red : nil })
      return
    }
    output.writeOut(lines.map { $0 + "\n" }.joined())
  }

  /// RUNNABLE's cell: yes, what keeps the row's scenarios out (no: sandbox), or - for a row no
  /// scenario covers.
  static func runnableCell(_ row: Row) -> String {
    guard let runnable = row.runnable else { return "-" }
    return runnable ? "yes" : "no: " + (row.blockedBy ?? []).joined(separator: ", ")
  }

  /// The narrowest terminal that shows KIND as a column.
  static let kindColumnWidth = 100
}
