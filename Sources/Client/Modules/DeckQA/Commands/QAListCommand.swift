import ArgumentParser
import DeckCore

/// `deck qa list`: the scenarios a run would take.
struct QAListCommand: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", _superCommandName: "deck",
    abstract: "List QA scenarios: id, module, tags, steps and title.",
    discussion: HelpText.discussion(exits: [.usage("a bad scenario file or option")]))

  @OptionGroup var global: GlobalOptions
  @OptionGroup var selection: ScenarioSelection

  struct Row: Encodable {
    var id: String
    var module: String
    var title: String
    var tags: [String]
    var covers: [String]
    var steps: Int
    var file: String
    var line: Int
  }

  func run(_ context: DeckContext) async throws {
    let rows = try selection.scenarios().map {
      Row(
        id: $0.id, module: $0.module, title: $0.title, tags: $0.tags.sorted().map(\.rawValue), covers: $0.covers,
        steps: $0.steps.count, file: $0.file, line: $0.line)
    }
    try context.output.emit(rows) {
      context.output.table(
        ["ID", "MODULE", "TAGS", "STEPS", "TITLE"],
        rows.map { [$0.id, $0.module, $0.tags.joined(separator: ","), String($0.steps), $0.title] })
      context.output.info("\(rows.count) scenario\(rows.count == 1 ? "" : "s")")
    }
  }
}
