import ArgumentParser
import DeckCore
import DeckSupport

struct SandboxOutbox: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "outbox", abstract: "Show the invite emails the sandbox has sent, with their join links.")

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    throw DeckError.failure("`deck sandbox outbox` is not built yet.")
  }
}
