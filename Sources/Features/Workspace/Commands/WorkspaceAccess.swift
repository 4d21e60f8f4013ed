import ArgumentParser
import DeckCore
import DeckSupport
import WorkspaceAPI

struct WorkspaceAccess: DeckCommand {
  static let configuration = CommandConfiguration(
    commandName: "access", _superCommandName: "deck",
    abstract: "Show the access state of your primary workspace (GET /api/access/state).",
    discussion: HelpText.discussion(
      """
      The primary workspace is your first membership. Access needs an active subscription or a
      trial that has not ended; an owner also needs onboarding completed. A member or admin of an
      inactive workspace gets reason member-inactive; a user with no workspace, no_workspace.
      With --json, the response body: {role, workspaceName, hasAccess, reason?}.
      """,
      exits: [.unavailable(), .unauthorized("not signed in")]))

  @OptionGroup var global: GlobalOptions

  /// The response body, with `role` and `workspaceName` as null when unset (section 3), and
  /// `reason` only when there is one.
  struct Body: Encodable {
    @ExplicitNull var role: String?
    @ExplicitNull var workspaceName: String?
    var hasAccess: Bool
    var reason: String?

    init(_ state: Components.Schemas.AccessState) {
      role = state.role?.rawValue
      workspaceName = state.workspaceName
      hasAccess = state.hasAccess
      reason = state.reason?.rawValue
    }
  }

  func run(_ context: DeckContext) async throws {
    let state = try await WorkspaceService(context: context).accessState()
    try context.output.emit(Body(state)) {
      context.output.fields([
        ("workspace", state.workspaceName ?? "-"),
        ("role", state.role?.rawValue ?? "-"),
        ("access", state.hasAccess ? "yes" : "no"),
        ("reason", state.reason?.rawValue ?? "-"),
      ])
      if state.reason == .member_hyphen_inactive { context.output.info(MemberInactive.message) }
    }
  }
}
