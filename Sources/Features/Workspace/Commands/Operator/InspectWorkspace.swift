import ArgumentParser
import DeckCore
import DeckSupport

struct InspectWorkspace: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "workspace", _superCommandName: "deck",
    abstract: "Show a user's primary workspace as the sandbox stores it.",
    discussion: HelpText.discussion(
      """
      The primary workspace is the user's first membership by created_at. Shows id, name, industry,
      brokerage_id, brokerage_name, subscription_status, trial_ends_at, onboarding_completed_at, the
      members with their roles and the invites. With --json, the same with snake_case keys (unset
      values are null).
      """,
      exits: SandboxOperator.exits + [
        .failure("no such user, or no workspace"), .usage("not a sandbox (nothing was sent)"),
      ]))

  @OptionGroup var global: GlobalOptions

  @Argument(help: "The user's email.")
  var email: String

  func run(_ context: DeckContext) async throws {
    let workspace = try await WorkspaceAdmin.client(context).inspectWorkspace(query: .init(email: email)).ok.body.json
    try WorkspaceAdmin.show(workspace, context: context)
  }
}
