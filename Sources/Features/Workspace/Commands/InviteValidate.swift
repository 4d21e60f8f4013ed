import ArgumentParser
import DeckCore
import WorkspaceRules

struct InviteValidate: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate", _superCommandName: "deck",
    abstract: "Check an invite without signing in (GET /api/invites/validate).",
    discussion: HelpText.discussion(
      """
      Shows the workspace, the invited email and the role. Used and expired invites are refused
      with the server's message. With --json, the response body: {valid, workspaceName, email, role}.
      """,
      exits: [
        .failure("invalid invite"), .usage("not a token or join link"), .rejected("used or expired"), .unavailable(),
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The join link (…/join?token=…) or the invite token.", valueName: "token-or-link"))
  var invite: String

  func run(_ context: DeckContext) async throws {
    let token = try InviteArgument.token(invite)
    let result = try await WorkspaceService(context: context).validateInvite(token: token)
    try context.output.emit(result) {
      context.output.fields([
        ("workspace", result.workspaceName ?? "-"),
        ("email", result.email),
        ("role", result.role.rawValue),
        ("valid", result.valid ? "yes" : "no"),
      ])
      context.output.info(
        Self.nextStep(invited: result.email, signedIn: WorkspaceService(context: context).signedInEmail()))
    }
  }

  /// What to do next: accept when signed in with the invited email, else sign in with it.
  static func nextStep(invited: String, signedIn: String?) -> String {
    guard let signedIn else {
      return "Sign in as \(invited) (deck auth login or deck auth signup), then: deck workspace invite accept LINK"
    }
    guard EmailRules.matches(signedIn, invited) else {
      return
        "You are signed in as \(signedIn), not \(invited): sign in as \(invited) (deck auth login or deck auth signup), then: deck workspace invite accept LINK"
    }
    return "You are signed in as \(signedIn): accept it with: deck workspace invite accept LINK"
  }
}
