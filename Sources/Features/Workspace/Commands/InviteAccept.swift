import ArgumentParser
import DeckCore
import DeckSupport
import FoundationEssentials
import WorkspaceAPI
import WorkspaceRules

struct InviteAccept: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "accept", _superCommandName: "deck",
    abstract: "Accept an invite as the signed-in user (POST /api/invites/accept).",
    discussion: HelpText.discussion(
      """
      You must be signed in with the invited email (case and surrounding spaces do not matter).
      Accepting makes you a member of the workspace; then prints where the gate sends you:
      dashboard, or subscribe (member-inactive) until the owner pays.
      With --json, the response body: {success, workspaceId, redirect}. Accepting an invite this
      deck already accepted for the signed-in email changes nothing and exits 0 (the backend
      answers it as a used invite): "already a member", and with --json {workspaceId,
      workspaceName, acceptedAt, changed: false}.
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
    let accepted = try AcceptedInvites(context: context)
    // The workspace's name is in validate's answer only (accept's has its id); a failed
    // validate leaves the outcome to accept, which says why.
    let invited = try? await service.validateInvite(token: token)
    let answer: Components.Schemas.InviteAcceptResponse
    do {
      answer = try await service.client().acceptInvite(body: .json(.init(token: token))).ok.body.json
    } catch {
      if let earlier = alreadyAccepted(error, token: token, service: service, accepted: accepted) {
        return try Self.showAlreadyMember(earlier, context: context)
      }
      throw await explain(error, token: token, service: service)
    }
    let name = invited?.workspaceName.flatMap { $0.isEmpty ? nil : $0 }
    if let email = service.signedInEmail() {
      // Only for a second acceptance's message: not being able to write it changes nothing.
      try? accepted.record(
        .init(
          tokenDigest: AcceptedInvites.digest(token), email: EmailRules.normalize(email),
          workspaceId: answer.workspaceId, workspaceName: name, acceptedAt: Date()))
    }
    // A name that ends a sentence itself ("Acme Inc.") gets no second period.
    let joined = "Joined workspace \(name ?? answer.workspaceId)"
    try context.output.emit(answer, message: joined.hasSuffix(".") ? joined : joined + ".")
    // The data is the response alone; a person is also shown where the gate sends them now.
    guard context.output.isHuman else { return }
    let redirect = try await service.redirect()
    try RouteView.show(redirect: redirect.redirect.rawValue, path: redirect.path, context: context)
  }

  /// The earlier acceptance by the signed-in email, when the backend answers that the invite
  /// has already been used and this deck accepted it for that email.
  func alreadyAccepted(
    _ error: any Error, token: String, service: WorkspaceService, accepted: AcceptedInvites
  ) -> AcceptedInvites.Entry? {
    let failure = ErrorPresenter.deckError(for: error)
    guard case .rejected(status: 400) = failure.kind, failure.message == Self.usedMessage,
      let email = service.signedInEmail()
    else { return nil }
    // A file that cannot be read leaves the backend's answer as it is.
    return (try? accepted.entry(token: token, email: email)) ?? nil
  }

  /// The backend's answer to a used invite (workspace-onboarding.md, section 3).
  static let usedMessage = "This invite has already been used"

  /// What a second acceptance by the member prints: as `kiosk pair` of the same store, a
  /// message on stderr in every format, and the data with `"changed": false`.
  static func showAlreadyMember(_ earlier: AcceptedInvites.Entry, context: DeckContext) throws {
    let workspace = earlier.workspaceName ?? earlier.workspaceId
    context.output.info(
      "You are already a member of workspace \(workspace): \(earlier.email) accepted this invite on \(earlier.acceptedAt.formatted(.iso8601)); nothing changed."
    )
    let view = AlreadyMember(
      workspaceId: earlier.workspaceId, workspaceName: earlier.workspaceName, acceptedAt: earlier.acceptedAt)
    try context.output.emit(view) {}
  }

  /// `--json` of a second acceptance.
  struct AlreadyMember: Encodable {
    var workspaceId: String
    var workspaceName: String?
    var acceptedAt: Date
    var changed = false
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
