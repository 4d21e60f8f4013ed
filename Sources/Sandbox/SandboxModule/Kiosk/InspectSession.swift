import ArgumentParser
import DeckCore
import DeckSupport

struct InspectSession: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "session", abstract: "Show a review session as the sandbox stores it.")

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    throw DeckError.failure("`deck sandbox inspect session` is not built yet.")
  }
}
