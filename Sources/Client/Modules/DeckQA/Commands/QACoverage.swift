import DeckConfig
import DeckSupport
import FoundationEssentials

/// What `deck qa coverage` joins: the spec rows (the shipped `rows.yaml`, or a user's of the
/// same module in its place, and then the user's scenarios alone cover it), the scenarios
/// covering them (the shipped ones and the user's files), and, with `--results`, a run's JSON
/// report.
struct CoverageSources {
  var specs: [SpecRows]
  var scenarios: [Scenario]
  /// Modules of the user's scenarios that no `rows.yaml` lists rows for.
  var unlisted: [String]

  /// The sources `arguments` name: shipped modules by name, and scenario files, `rows.yaml`
  /// files and directories of them. Without arguments, every shipped module; with some, only
  /// the modules named and those of the user's files.
  static func gather(_ arguments: [String]) throws -> CoverageSources {
    var specs = try ScenarioCatalog.shippedRows()
    var scenarios = try ScenarioCatalog.shipped()
    let known = Set(specs.map(\.module))
    var chosen: [String] = []
    for argument in arguments {
      var isDirectory = false
      let exists = FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory)
      if !exists, known.contains(argument.lowercased()) {
        chosen.append(argument.lowercased())
        continue
      }
      guard exists else {
        throw DeckError.usage(
          "No module, scenario file or directory \"\(TerminalText.sanitize(argument))\".",
          hint: "Modules: \(known.sorted().joined(separator: ", ")); or name your scenario files or their directory.")
      }
      let files = isDirectory ? ScenarioCatalog.yamlFiles(under: argument) : [argument]
      if files.isEmpty {
        throw DeckError.usage(
          "The directory \(TerminalText.sanitize(argument)) holds no scenario file (*.yaml).",
          hint: "Export the shipped ones to start from with: deck qa export \(ShellWords.quote(argument))")
      }
      for file in files {
        if ScenarioCatalog.isRowsFile(file) {
          let rows = try ScenarioParser.rows(try ScenarioCatalog.text(of: file), file: file)
          // The user's rows are the module's checklist now: the shipped scenarios cover the
          // shipped rows, not these.
          specs.removeAll { $0.module == rows.module }
          scenarios.removeAll { $0.shipped && $0.module == rows.module }
          specs.append(rows)
          chosen.append(rows.module)
        } else {
          let mine = try ScenarioCatalog.userScenarios(file)
          scenarios += mine
          chosen += mine.map(\.module)
        }
      }
    }
    if !arguments.isEmpty {
      let wanted = Set(chosen)
      specs = specs.filter { wanted.contains($0.module) }
    }
    let listed = Set(specs.map(\.module))
    let unlisted = chosen.reduce(into: [String]()) { if !listed.contains($1) && !$0.contains($1) { $0.append($1) } }
    return CoverageSources(specs: specs, scenarios: scenarios, unlisted: unlisted)
  }
}

/// A run's results (`qa run --report json`), by scenario id.
struct CoverageResults {
  var file: String
  var statuses: [String: [String]]

  struct Report: Decodable {
    struct Entry: Decodable {
      var id: String
      var status: String
    }
    var scenarios: [Entry]
  }

  static func read(_ path: String) throws -> CoverageResults {
    let data = try InputFile.read(
      path, what: "the results", hint: "Write them with: deck qa run --report json --out FILE")
    guard let report = try? JSONDecoder().decode(Report.self, from: data) else {
      throw DeckError.usage(
        "\(TerminalText.sanitize(path)) is not a JSON report of deck qa run (no scenarios with an id and a status).",
        hint: "Write one with: deck qa run --report json --out \(ShellWords.quote(path))")
    }
    var statuses: [String: [String]] = [:]
    for entry in report.scenarios { statuses[entry.id, default: []].append(entry.status) }
    return CoverageResults(file: path, statuses: statuses)
  }

  /// What came of the scenarios `ids` in the run (a data row's runs, `ID.rowN`, count as
  /// `ID`'s): failed when one failed or could not run, passed when one passed and none failed,
  /// else not run (skipped, or not in the report).
  func result(_ ids: [String]) -> String {
    var seen: [String] = []
    for id in ids {
      seen += statuses[id] ?? []
      for (other, values) in statuses where Self.isDataRow(other, of: id) { seen += values }
    }
    if seen.contains("failed") || seen.contains("error") { return "failed" }
    return seen.contains("passed") ? "passed" : "not run"
  }

  static func isDataRow(_ id: String, of base: String) -> Bool {
    guard id.hasPrefix(base + ".row") else { return false }
    let number = id.dropFirst(base.count + 4)
    return !number.isEmpty && number.allSatisfy(\.isNumber)
  }
}

/// `qa coverage --env`: which scenarios run in one environment and which do not, and why, by
/// ``RunBlocker`` (the rule `qa run` skips by).
struct EnvironmentCoverage {
  var name: String
  var definition: EnvironmentDefinition
  var allowWrites: Bool

  /// A row's covering scenarios in this environment: those that run, and what keeps the others
  /// from running (each blocker once, in ``RunBlocker``'s order).
  func split(_ scenarios: [Scenario]) -> (runnable: [String], blockedBy: [RunBlocker]) {
    var runnable: [String] = []
    var blockers = Set<RunBlocker>()
    for scenario in scenarios {
      if let blocker = RunBlocker.of(scenario, in: definition, allowWrites: allowWrites) {
        blockers.insert(blocker)
      } else if !runnable.contains(scenario.id) {
        runnable.append(scenario.id)
      }
    }
    return (runnable, RunBlocker.allCases.filter(blockers.contains))
  }

  /// The counts of one module, or of all (`module` nil): "in staging: 20 of 51 covered rows
  /// runnable, by 19 of 71 scenarios; not: 52 need the sandbox".
  func summary(_ rows: [QACoverageCommand.Row], scenarios: [Scenario]) -> String {
    let covered = rows.filter { $0.status == "covered" }
    let runnable = covered.filter { $0.runnable == true }.count
    var ids: [String] = []
    var blocked: [RunBlocker: Int] = [:]
    for scenario in scenarios where !ids.contains(scenario.id) {
      ids.append(scenario.id)
      if let blocker = RunBlocker.of(scenario, in: definition, allowWrites: allowWrites) {
        blocked[blocker, default: 0] += 1
      }
    }
    let running = ids.count - blocked.values.reduce(0, +)
    var line =
      "in \(name): \(runnable) of \(covered.count) covered rows runnable, by \(running) of \(ids.count) scenario\(ids.count == 1 ? "" : "s")"
    let reasons = RunBlocker.allCases.compactMap { blocker in blocked[blocker].map { "\($0) \(blocker.summary)" } }
    if !reasons.isEmpty { line += "; not runnable: \(reasons.joined(separator: ", "))" }
    return line
  }
}

extension RunBlocker {
  /// After a count of scenarios in ``EnvironmentCoverage/summary(_:scenarios:)``.
  var summary: String {
    switch self {
    case .sandbox: "need the sandbox's operator endpoints (tagged sandbox)"
    case .writes: "write, refused in production without --allow-writes (tagged writes)"
    }
  }
}
