import ArgumentParser
import DeckCore
import DeckSupport

struct TriggerInviteExpiry: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "invite-expiry", _superCommandName: "deck",
    abstract: "Make an invite expire now (instead of waiting its 7 days).",
    discussion: HelpText.discussion(
      """
      Moves the invite's expires_at to now; validate and accept then answer "This invite has expired".
      Takes the join link from `deck sandbox outbox` or the bare token.
      """,
      exits: SandboxOperator.exits + [
        .failure("no such invite"), .usage("bad input or not a sandbox (nothing was sent)"),
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The join link (…/join?token=…) or the invite token.")
  var invite: String

  func validate() throws {
    guard InviteToken.parse(invite) != nil else {
      throw ValidationError("\"\(invite)\" is neither an invite token nor a join link with ?token=.")
    }
  }

  func run(_ context: DeckContext) async throws {
    guard let token = InviteToken.parse(invite) else { throw DeckError.usage("No invite token given.") }
    let expired = try await WorkspaceAdmin.client(context).expireInvite(body: .json(.init(token: token))).ok.body.json
    try context.output.emit(expired, message: "The invite to \(expired.email) expired at \(expired.expires_at).")
  }
}
