import ArgumentParser
import BrokerageAPI
import BrokerageRules
import DeckConfig
import DeckCore

/// `deck brokerage`: the brokerage typeahead of onboarding (brokerage-onboarding.md).
public enum BrokerageModule: DeckModule {
  public static let name = "brokerage"
  public static let summary = "Search the canonical brokerages (the onboarding typeahead)."
  public static let services: [Service] = [.flyr]
  public static var commands: [any ParsableCommand.Type] { [BrokerageCommand.self] }
  public static var completionProviders: [any CompletionProvider.Type] { [BrokerageNameCompletion.self] }
}

struct BrokerageCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "brokerage", abstract: BrokerageModule.summary,
    discussion: HelpText.discussion(exits: [.usage(), .unavailable()]), subcommands: [BrokerageSearch.self])
}

/// Brokerage names from the search endpoint: the terminal form of the typeahead.
/// Names with spaces are completed quoted by the shells and the REPL.
public enum BrokerageNameCompletion: CompletionProvider {
  public static let id = BrokerageRules.nameCompletionID

  public static func values(prefix: String, context: DeckContext) async throws -> [String] {
    let query = BrokerageRules.sanitize(prefix)
    guard !query.isEmpty else { return [] }
    return try await BrokerageService(context: context).search(query).map(\.name)
  }

  /// The completion kind for any argument that takes a brokerage name.
  public static var kind: CompletionKind { DynamicCompletion.kind(id) }
}

extension Service {
  /// FLYR-PRO, which serves the brokerage directory (workspace declares it too, for its part).
  static let flyr = Service("flyr", summary: "brokerage", defaultURLs: ["production": "https://flyrpro.app"])
}
