import ArgumentParser
import DeckCore

/// `deck contract`: does an environment still speak deck's contracts? (`deck doctor` says
/// whether deck can talk to it at all.) And `deck api`, one raw request to a service the
/// contracts name.
public enum ContractModule: DeckModule {
  public static let name = "contract"
  public static var commands: [any ParsableCommand.Type] { [ContractCommand.self, ApiCommand.self] }
}

struct ContractCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "contract",
    abstract: "Check that an environment still answers as deck's OpenAPI contracts say (read-only).",
    discussion: HelpText.discussion(
      """
      deck's clients and the sandbox are generated from the same OpenAPI documents, so they \
      cannot drift apart; a real backend can. `contract check` sends the contracts' read-only \
      operations (GET and HEAD, nothing else, ever) to an environment and checks every answer: \
      documented status, content type, required headers and the body against its schema.
      """, exits: ContractCheckCommand.exits),
    subcommands: [ContractCheckCommand.self, ContractFixturesCommand.self, ContractListCommand.self])
}
