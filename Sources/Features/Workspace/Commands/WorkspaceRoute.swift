import ArgumentParser
import DeckCore
import DeckSupport
import WorkspaceRules

struct WorkspaceRoute: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "route", _superCommandName: "deck",
    abstract: "Show where the post-auth gate sends you (GET /api/access/redirect).",
    discussion: HelpText.discussion(
      """
      Prints one route: login, join, onboarding, subscribe, subscribe (member-inactive) or
      dashboard, and its path. Not being signed in is the route login. --invite passes an invite
      token (or join link) as the web app's gate gets it, which routes to join.
      With --json, the response body: {redirect, path}.
      """,
      exits: [.usage(), .unavailable()]))

  @OptionGroup var global: GlobalOptions

  @Option(help: ArgumentHelp("An invite token or join link the user arrived with.", valueName: "token-or-link"))
  var invite: String?

  func run(_ context: DeckContext) async throws {
    var token: String?
    if let invite {
      guard let parsed = InviteLink.token(from: invite) else {
        throw DeckError.usage("\"\(invite)\" is neither an invite token nor a join link with ?token=.")
      }
      token = parsed
    }
    let redirect = try await WorkspaceService(context: context).redirect(inviteToken: token)
    try RouteView.show(redirect: redirect.redirect.rawValue, path: redirect.path, context: context)
  }
}
