import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials

struct BrokerageSearch: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "search", _superCommandName: "deck", abstract: "Search brokerages by name.",
    discussion: HelpText.discussion(
      """
      Ranks an exact match first, then names that start with the query, then names with a word
      that starts with it, then names that contain it. With --json, prints the response's array
      of {id, name} as is.
      """,
      exits: [.usage(), .unavailable()]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "Text to search for (trimmed; case does not matter).", completion: BrokerageNameCompletion.kind)
  var query: String

  @Option(help: "The most results to return (1-50).")
  var limit: Int = 15

  func validate() throws {
    guard !query.trimming(.whitespacesAndNewlines).isEmpty else {
      throw ValidationError("The search query is empty. Give some text, e.g.: deck brokerage search keller")
    }
    guard BrokerageService.limits.contains(limit) else {
      throw ValidationError("--limit must be between 1 and 50, got \(limit).")
    }
  }

  func run(_ context: DeckContext) async throws {
    let results = try await BrokerageService(context: context).search(query, limit: limit)
    let output = context.output
    try output.emit(results) {
      guard !results.isEmpty else {
        if output.stdoutIsTerminal {
          output.paragraph("No brokerages match \"\(query.trimming(.whitespaces))\".")
        }
        return
      }
      output.table(["NAME", "ID"], results.map { [$0.name, $0.id] })
    }
  }
}
