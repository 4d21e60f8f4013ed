import ArgumentParser
import DeckCore
import KioskRules

struct KioskDone: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "done", _superCommandName: "deck", abstract: "End the handoff (Done): thank you, back to idle.",
    discussion: HelpText.discussion(
      """
      Calls POST /api/v1/review/{sessionId}/done (the session becomes POSTED_INTENT). As the spec
      says, the kiosk moves on even when that call fails; the command then reports the failure
      with its exit code.
      """,
      exits: KioskModule.commandExits))

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    let kiosk = try KioskController(context: context)
    if kiosk.state.currentScreen == .thankYou { kiosk.state.thankYouElapsed() }
    let request = try kiosk.act { state throws(KioskRuleError) in try state.done() }
    let failure = try await kiosk.service().run(request, on: &kiosk.state)
    let session = kiosk.state.currentSession
    kiosk.state.thankYouElapsed()
    try kiosk.save()
    if var failure {
      failure.message =
        "Could not mark session \(session?.publicId ?? "") done: \(failure.message) The kiosk moved on to thank-you and idle anyway."
      throw failure
    }
    try await kiosk.emitStatus(acted: session) { _ in
      context.output.info(
        "Thank you! Session \(session?.publicId ?? "") is \(session?.status.rawValue ?? "POSTED_INTENT"); the kiosk is back on idle."
      )
    }
  }
}
