import ArgumentParser
import DeckCore
import KioskRules

struct KioskRate: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "rate", _superCommandName: "deck",
    abstract: "Submit the customer's star rating (1-5) and show the generated review.",
    discussion: HelpText.discussion(
      """
      Calls POST /api/v1/kiosk/{storeId}/sessions/{sessionId}/rating; the kiosk moves to consent.
      A rating outside 1-5 is a usage error (exit 64) and nothing is sent. When the call fails
      the kiosk stays on rating, so you can rate again or cancel.
      """,
      exits: KioskModule.commandExits))

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("Stars, 1 to 5.", valueName: "stars"))
  var stars: Int

  func validate() throws {
    guard KioskRules.ratings.contains(stars) else {
      throw ValidationError("A rating is 1 to 5 stars, got \(stars). Nothing was sent.")
    }
  }

  func run(_ context: DeckContext) async throws {
    let kiosk = try KioskController(context: context)
    try await kiosk.catchUp()
    let request = try kiosk.act { state throws(KioskRuleError) in
      try state.selectRating(stars)
      return try state.submitRating()
    }
    try await kiosk.perform(request)
    try await kiosk.emitStatus(acted: kiosk.state.currentSession) { view in
      context.output.info("\(KioskRules.stars(stars)) The generated review:")
      context.output.line(view.generatedReviewText ?? "")
      context.output.info("Approve it with: deck kiosk approve, or decline with: deck kiosk decline")
    }
  }
}
