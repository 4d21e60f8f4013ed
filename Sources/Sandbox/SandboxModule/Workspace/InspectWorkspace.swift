import ArgumentParser
import DeckCore
import DeckSupport

struct InspectWorkspace: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "workspace", abstract: "Show a user's primary workspace as the sandbox stores it.")

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    throw DeckError.failure("`deck sandbox inspect workspace` is not built yet.")
  }
}
