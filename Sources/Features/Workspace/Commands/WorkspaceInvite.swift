import ArgumentParser
import DeckCore
import DeckSupport
import WorkspaceRules

struct WorkspaceInvite: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "invite", abstract: "Validate and accept workspace invites (join links).",
    discussion: HelpText.discussion(
      """
      Both take a join link (…/join?token=…, as the invite email has it) or the bare token.
      """,
      exits: [
        .failure("invalid invite"), .usage("not a token or join link"), .rejected("used or expired"), .unavailable(),
        .unauthorized(),
      ]),
    subcommands: [InviteValidate.self, InviteAccept.self])
}

enum InviteArgument {
  /// The token of a join link or a bare token; a usage error (exit 64) otherwise.
  static func token(_ text: String) throws -> String {
    guard let token = InviteLink.token(from: text) else {
      throw DeckError.usage(
        "\"\(text)\" is neither an invite token nor a join link with ?token=.",
        hint: "Copy the link from the invite email, e.g. https://flyrpro.app/join?token=…")
    }
    return token
  }
}
