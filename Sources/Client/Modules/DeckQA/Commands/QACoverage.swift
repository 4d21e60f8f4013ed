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
