import ArgumentParser
import DeckCore
import DeckSupport

struct InspectSession: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "session", _superCommandName: "deck", abstract: "Show a review session as the sandbox stores it.",
    discussion: HelpText.discussion(
      """
      Shows publicId, status, starRating, generatedReviewText and the order. Exit code 1 when
      the session does not exist.
      """, exits: SandboxOperator.exits + [.failure("no such session")]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The session's public id, e.g. sess_xyz789.", valueName: "public-id"))
  var publicId: String

  func run(_ context: DeckContext) async throws {
    let detail = try await SandboxKioskAdmin.client(context).inspectSession(path: .init(publicId: publicId)).ok.body
      .json
    try SandboxKioskAdmin.show(detail, context: context)
  }
}
