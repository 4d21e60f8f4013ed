import ArgumentParser
import DeckCore
import DeckSupport
import SandboxWorkspaceAPI

struct SandboxOutbox: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "outbox", _superCommandName: "deck",
    abstract: "Show the invite emails the sandbox has sent, with their join links.",
    discussion: HelpText.discussion(
      """
      The sandbox sends no mail: it records every email here, like a mail catcher. Follow an invite
      with: deck workspace invite accept JOIN_LINK. With --json, the emails as an array of
      {id, to, subject, body, joinLink, workspaceName, sentAt}, oldest first.
      """, exits: SandboxOperator.exits))

  @OptionGroup var global: GlobalOptions

  @Option(help: "Only emails to this address (case does not matter).")
  var to: String?

  func run(_ context: DeckContext) async throws {
    let emails = try await WorkspaceAdmin.client(context).listOutbox(query: .init(to: to)).ok.body.json
    try context.output.emit(emails.map(Email.init)) {
      if emails.isEmpty { return context.output.info(to.map { "No emails to \($0)." } ?? "The outbox is empty.") }
      context.output.table(
        ["SENT", "TO", "SUBJECT", "JOIN LINK"], emails.map { [$0.sent_at, $0.to, $0.subject, $0.join_url] })
    }
  }

  /// An email as `--json` shows it: deck's keys, camelCase, named as the table names them.
  struct Email: Encodable {
    var id: Int
    var to: String
    var subject: String
    var body: String
    var joinLink: String
    var workspaceName: String?
    var sentAt: String

    init(_ email: Components.Schemas.OutboxEmail) {
      id = email.id
      to = email.to
      subject = email.subject
      body = email.body
      joinLink = email.join_url
      workspaceName = email.workspace_name
      sentAt = email.sent_at
    }
  }
}
