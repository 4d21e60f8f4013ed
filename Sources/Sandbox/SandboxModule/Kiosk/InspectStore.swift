import ArgumentParser
import DeckCore
import DeckSupport

struct InspectStore: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "store", abstract: "Show a store as the sandbox stores it.")

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    throw DeckError.failure("`deck sandbox inspect store` is not built yet.")
  }
}
