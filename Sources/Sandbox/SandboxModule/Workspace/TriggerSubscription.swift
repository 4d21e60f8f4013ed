import ArgumentParser
import DeckCore
import DeckSupport

struct TriggerSubscription: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "subscription", abstract: "Set a workspace subscription directly (as the Stripe webhook would).")

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    throw DeckError.failure("`deck sandbox trigger subscription` is not built yet.")
  }
}
