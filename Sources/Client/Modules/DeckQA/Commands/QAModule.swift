import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials

/// `deck qa`: the specs' QA checklists as scenarios of deck lines, run against any environment.
public enum QAModule: DeckModule {
  public static let name = "qa"
  public static var commands: [any ParsableCommand.Type] { [QACommand.self] }
}

struct QACommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "qa",
    abstract: "Run the specs' QA checklists as scenarios against an environment (JUnit, TAP, JSON, HTML).",
    discussion: HelpText.discussion(
      """
      A scenario is a YAML list of deck lines, each with what it must do: its exit code, text \
      in its output, jq expressions on its JSON. deck ships scenarios for every row of each \
      feature spec's checklist that a terminal can exercise (`deck qa list`, `deck qa coverage`); you \
      can write your own (docs/QA.md) and run them the same way: `deck qa show` prints a shipped \
      scenario, `deck qa export DIR` writes them all to start from.
      """, exits: QARunCommand.exits),
    subcommands: [
      QARunCommand.self, QAListCommand.self, QACoverageCommand.self, QAShowCommand.self, QAExportCommand.self,
    ])
}

/// The scenarios' selection options, shared by `run` and `list`.
struct ScenarioSelection: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "Modules (\(ScenarioCatalog.shippedModules.joined(separator: ", "))), scenario files or directories of them; all shipped scenarios when none.",
      valueName: "module-or-file"),
    completion: ScenarioSourceCompletion.completion)
  var sources: [String] = []

  @Option(
    name: .customLong("tag"),
    help: ArgumentHelp(
      "Only scenarios with this tag (readonly, writes, sandbox, exclusive; repeatable).", valueName: "tag"),
    completion: .list(Scenario.Tag.allCases.map(\.rawValue)))
  var tags: [String] = []

  @Option(
    name: .customLong("id"),
    help: ArgumentHelp(
      "Only scenarios whose id matches (shell pattern, e.g. 'prefs-6.*'; repeatable).", valueName: "pattern"))
  var ids: [String] = []

  func scenarios(data: ScenarioData? = nil) throws -> [Scenario] {
    let tags = try self.tags.map { text in
      guard let tag = Scenario.Tag(rawValue: text) else {
        throw DeckError.usage(
          "Unknown tag \"\(TerminalText.sanitize(text))\".",
          hint: "Tags: \(Scenario.Tag.allCases.map(\.rawValue).joined(separator: ", ")).")
      }
      return tag
    }
    return try ScenarioCatalog.select(sources, tags: tags, ids: ids, data: data)
  }
}

/// Completion of `qa run|list`'s arguments: the shipped modules, then scenario files (and
/// folders) under what is typed.
enum ScenarioSourceCompletion {
  static let completion = CompletionKind.custom { _, _, prefix in candidates(prefix: prefix) }

  static func candidates(prefix: String) -> [String] {
    var result = ScenarioCatalog.shippedModules.sorted().filter { $0.hasPrefix(prefix) }
    let directory = prefix.lastIndex(of: "/").map { String(prefix[...$0]) } ?? ""
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
    for name in names.sorted() where !name.hasPrefix(".") {
      let path = directory + name
      guard path.hasPrefix(prefix) else { continue }
      var isDirectory = false
      _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      if isDirectory {
        result.append(path + "/")
      } else if name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
        result.append(path)
      }
    }
    return result
  }
}
