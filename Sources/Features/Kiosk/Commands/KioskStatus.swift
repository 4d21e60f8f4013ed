import ArgumentParser
import DeckCore

struct KioskStatus: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "status", _superCommandName: "deck",
    abstract: "Show the paired store, the current screen and the session.",
    discussion: HelpText.discussion(
      "Sends nothing: a handoff whose time ran out is marked done by the next command, not by this one.",
      exits: [.failure("the kiosk's state cannot be read"), .usage()]))

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    let kiosk = try KioskController(context: context)
    if kiosk.state.currentScreen == .thankYou { kiosk.state.thankYouElapsed() }
    try await kiosk.emitStatus()
  }
}
