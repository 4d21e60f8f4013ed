import ArgumentParser
import DeckCore
import DeckSupport

struct TriggerPurchase: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "purchase", abstract: "Create a PENDING review session with its order (as the Square webhook would).")

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    throw DeckError.failure("`deck sandbox trigger purchase` is not built yet.")
  }
}
