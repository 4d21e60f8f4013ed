import ArgumentParser
import DeckCore
import DeckSupport
import WorkspaceAPI

struct InviteAccept: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "accept", _superCommandName: "deck",
    abstract: "Accept an invite as the signed-in user (POST /api/invites/accept).",
    discussion: HelpText.discussion(
      """
      You must be signed in with the invited email (case and surrounding spaces do not matter).
      Accepting makes you a member of the workspace; then prints where the gate sends you:
      dashboard, or subscribe (member-inactive) until the owner pays.
      With --json, the response body: {success, workspaceId, redirect}.
      """,
      exits: [
        .failure("invalid invite"), .usage("not a token or join link"), .rejected("used or expired"), .unavailable(),
        .unauthorized("not signed in, or signed in with another email"),
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The join link (…/join?token=…) or the invite token.", valueName: "token-or-link"))
  var invite: String

  func run(_ context: DeckContext) async throws {
    let token = try InviteArgument.token(invite)
    let service = WorkspaceService(context: context)
    let accepted: Components.Schemas.InviteAcceptResponse
    do {
      accepted = try await service.client().acceptInvite(body: .json(.init(token: token))).ok.body.json
    } catch {
      throw await explain(error, token: token, service: service)
    }
    try context.output.emit(accepted, message: "Joined workspace \(accepted.workspaceId).")
    // The data is the response alone; a person is also shown where the gate sends them now.
    guard context.output.isHuman else { return }
    let redirect = try await service.redirect()
    try RouteView.show(redirect: redirect.redirect.rawValue, path: redirect.path, context: context)
  }

  /// A 403 names the invited email and says to sign in with it.
  func explain(_ error: any Error, token: String, service: WorkspaceService) async -> any Error {
    let deckError = ErrorPresenter.deckError(for: error)
    guard case .unauthorized(status: 403) = deckError.kind else { return error }
    guard let invited = try? await service.validateInvite(token: token).email else {
      return DeckError(
        .unauthorized(status: 403), "\(deckError.message). Sign in with the email this invite was sent to.")
    }
    return DeckError(
      .unauthorized(status: 403),
      "This invite was sent to a different email address: sign in with \(invited) to accept it.",
      hint: "deck auth login --email \(invited) --password-stdin (or deck auth signup --email \(invited))")
  }
}
