import ArgumentParser
import DeckCore

struct SandboxReset: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "reset", _superCommandName: "deck",
    abstract: "Delete everything in the sandbox and seed it again from scratch.",
    discussion: HelpText.discussion(exits: SandboxOperator.exits))

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    let info = try await SandboxAdmin.client(context).reset(body: .json(.init())).ok.body.json
    try SandboxAdmin.show(
      info, context: context, message: "The sandbox was reset; sessions signed in to it are no longer valid.")
  }
}
