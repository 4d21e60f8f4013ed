import ArgumentParser
import DeckCore
import DeckSupport

/// `deck qa show`: the YAML of a shipped scenario, module file or module, as deck has it built in.
struct QAShowCommand: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", _superCommandName: "deck",
    abstract: "Print a shipped scenario's YAML, or a shipped module's files.",
    discussion: HelpText.discussion(
      """
      NAME is a scenario's id (prefs-5.edge.3: a file of its own, with its module, that \
      deck qa run reads), a module file (prefs/school.yaml, or prefs/school) or a module \
      (prefs: each of its files, rows.yaml last). A failure of a shipped scenario names the \
      command that shows it. deck qa export writes every file to a directory.

      Examples:
        deck qa show prefs-5.edge.3
        deck qa show prefs-5.edge.3 > my-check.yaml && deck qa run my-check.yaml
        deck qa show workspace/invites.yaml
      """,
      exits: [.usage("no shipped scenario, module file or module has that name")]))

  @OptionGroup var global: GlobalOptions

  @Argument(
    help: ArgumentHelp("A scenario's id, a module file (prefs/school.yaml) or a module.", valueName: "name"),
    completion: .custom { _, _, prefix in QAShowCommand.names().filter { $0.hasPrefix(prefix) } })
  var name: String

  struct Shown: Encodable {
    var name: String
    var yaml: String
  }

  func run(_ context: DeckContext) async throws {
    let shown = try Self.shown(name)
    let output = context.output
    try output.emit(shown) { output.writeOut(shown.map(\.yaml).joined(separator: "\n")) }
  }

  /// What `name` shows: the files (or the one scenario) it names.
  static func shown(_ name: String) throws -> [Shown] {
    let files = try ScenarioCatalog.files()
    let wanted = name.lowercased()
    if let file = files.first(where: { $0.path == wanted || $0.path == wanted + ".yaml" }) {
      return [Shown(name: file.path, yaml: file.yaml)]
    }
    let module = files.filter { $0.path.hasPrefix(wanted + "/") }
    if !module.isEmpty {
      let ordered =
        module.filter { !ScenarioCatalog.isRowsFile($0.path) } + module.filter { ScenarioCatalog.isRowsFile($0.path) }
      return ordered.map { Shown(name: $0.path, yaml: "# \($0.path)\n" + $0.yaml) }
    }
    for file in files where !ScenarioCatalog.isRowsFile(file.path) {
      let scenarios = try ScenarioParser.scenarios(file.yaml, file: file.path)
      guard let index = scenarios.firstIndex(where: { $0.id == name }) else { continue }
      let end = index + 1 < scenarios.count ? scenarios[index + 1].line : nil
      return [Shown(name: file.path, yaml: excerpt(file.yaml, of: scenarios[index], endingBefore: end))]
    }
    throw DeckError.usage(
      "No shipped scenario, module file or module is named \"\(TerminalText.sanitize(name))\".",
      hint: "See the scenarios with: deck qa list; the files with: deck qa export DIR")
  }

  /// One scenario of a file as a file of its own: a comment naming where it comes from, its
  /// module, and its lines as written (up to the next scenario's line, less the blank and
  /// comment lines before that one).
  static func excerpt(_ yaml: String, of scenario: Scenario, endingBefore end: Int?) -> String {
    let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let first = max(0, scenario.line - 1)
    var last = min(lines.count, (end ?? lines.count + 1) - 1)
    let indent = lines.indices.contains(first) ? lines[first].prefix { $0 == " " }.count : 0
    while last > first + 1 {
      let line = lines[last - 1]
      let depth = line.prefix { $0 == " " }.count
      let rest = line.dropFirst(depth)
      guard rest.isEmpty || (rest.hasPrefix("#") && depth <= indent + 2) else { break }
      last -= 1
    }
    let body = lines[first..<max(first, last)].joined(separator: "\n")
    return "# \(scenario.file):\(scenario.line) (deck qa export DIR writes the whole file)\n"
      + "module: \(scenario.module)\nscenarios:\n\(body)\n"
  }

  /// The names `show` takes, for completion: modules, module files, scenario ids.
  static func names() -> [String] {
    guard let files = try? ScenarioCatalog.files() else { return [] }
    let modules = Set(files.compactMap { $0.path.split(separator: "/").first.map(String.init) })
    let ids = files.filter { !ScenarioCatalog.isRowsFile($0.path) }.flatMap {
      ((try? ScenarioParser.scenarios($0.yaml, file: $0.path)) ?? []).map(\.id)
    }
    return modules.sorted() + files.map(\.path) + ids
  }
}
