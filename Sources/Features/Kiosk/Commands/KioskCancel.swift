import ArgumentParser
import DeckCore
import KioskRules

struct KioskCancel: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "cancel", _superCommandName: "deck", abstract: "Cancel on the rating screen: back to idle.",
    discussion: HelpText.discussion(
      """
      Sends nothing: the session stays PENDING on the backend, but this kiosk does not pick it up
      again; the next purchase at the store comes up as usual.
      """,
      exits: KioskModule.commandExits))

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    let kiosk = try KioskController(context: context)
    try await kiosk.catchUp()
    let session = kiosk.state.currentSession
    try kiosk.act { state throws(KioskRuleError) in try state.cancel() }
    try kiosk.save()
    try await kiosk.emitStatus(acted: session) { _ in
      context.output.info("Cancelled session \(session?.publicId ?? ""); the kiosk is back on idle.")
    }
  }
}
