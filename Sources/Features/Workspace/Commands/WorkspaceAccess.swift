import ArgumentParser
import DeckCore
import WorkspaceAPI

struct WorkspaceAccess: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "access", abstract: "Show the access state of your primary workspace (GET /api/access/state).",
    discussion: HelpText.discussion(
      """
      The primary workspace is your first membership. Access needs an active subscription or a
      trial that has not ended; an owner also needs onboarding completed. A member or admin of an
      inactive workspace gets reason member-inactive; a user with no workspace, no_workspace.
      With --json, the response body: {role, workspaceName, hasAccess, reason?}.
      """,
      exits: [.unavailable(), .unauthorized("not signed in")]))

  @OptionGroup var global: GlobalOptions

  /// The response body, with `role` and `workspaceName` as null when unset (section 3).
  struct Body: Encodable {
    var state: Components.Schemas.AccessState
    enum Keys: String, CodingKey { case role, workspaceName, hasAccess, reason }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(state.role?.rawValue, forKey: .role)
      try container.encode(state.workspaceName, forKey: .workspaceName)
      try container.encode(state.hasAccess, forKey: .hasAccess)
      try container.encodeIfPresent(state.reason?.rawValue, forKey: .reason)
    }
  }

  func run(_ context: DeckContext) async throws {
    let state = try await WorkspaceService(context: context).accessState()
    if context.isJSON { return try context.output.json(Body(state: state)) }
    context.output.fields([
      ("workspace", state.workspaceName ?? "-"),
      ("role", state.role?.rawValue ?? "-"),
      ("access", state.hasAccess ? "yes" : "no"),
      ("reason", state.reason?.rawValue ?? "-"),
    ])
    if state.reason == .member_hyphen_inactive { context.output.info(MemberInactive.message) }
  }
}
