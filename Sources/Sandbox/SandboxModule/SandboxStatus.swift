import ArgumentParser
import DeckCore

struct SandboxStatus: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "status", _superCommandName: "deck",
    abstract: "Show the current environment's sandbox: its database and what it holds.")

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    let info = try await SandboxAdmin.client(context).info().ok.body.json
    try SandboxAdmin.show(info, context: context, message: nil)
  }
}
