import ArgumentParser
import DeckCore
import KioskRules

struct KioskDecline: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "decline", _superCommandName: "deck",
    abstract: "The customer declines the review: thank you, back to idle.",
    discussion: HelpText.discussion(
      """
      Calls POST /api/v1/kiosk/{storeId}/sessions/{sessionId}/decline. When the call fails the
      kiosk stays on consent, so you can answer again.
      """,
      exits: KioskModule.commandExits))

  @OptionGroup var global: GlobalOptions

  func run(_ context: DeckContext) async throws {
    let kiosk = try KioskController(context: context)
    try await kiosk.catchUp()
    let request = try kiosk.act { state throws(KioskRuleError) in try state.decline() }
    try await kiosk.perform(request)
    let session = kiosk.state.currentSession
    kiosk.state.thankYouElapsed()
    try kiosk.save()
    try await kiosk.emitStatus(acted: session) { _ in
      context.output.info(
        "Thank you! We appreciate your feedback. Session \(session?.publicId ?? "") is \(session?.status.rawValue ?? "DECLINED"); the kiosk is back on idle."
      )
    }
  }
}
