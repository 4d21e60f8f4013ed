import DeckCore
import DeckSupport
import FoundationEssentials
import SandboxWorkspaceAPI

/// The workspace operator client (/__sandbox/v1/workspace) of the current environment's
/// sandbox. Like every sandbox command, it refuses environments that are not sandboxes.
enum WorkspaceAdmin {
  static func client(_ context: DeckContext) async throws -> SandboxWorkspaceAPI.Client {
    try await SandboxOperator.client(context, path: "/__sandbox/v1/workspace") {
      SandboxWorkspaceAPI.Client(serverURL: $0, transport: $1, middlewares: $2)
    }
  }

  /// A workspace with every key present (`null` when unset) and snake_case keys, as the
  /// spec's tables name the columns.
  struct WorkspaceView: Encodable {
    var id: String
    var name: String
    var owner_id: String
    @ExplicitNull var owner_email: String?
    @ExplicitNull var industry: String?
    @ExplicitNull var brokerage_id: String?
    @ExplicitNull var brokerage_name: String?
    var subscription_status: String
    @ExplicitNull var trial_ends_at: String?
    @ExplicitNull var onboarding_completed_at: String?
    @ExplicitNull var max_seats: Int?
    @ExplicitNull var referral_code_used: String?
    var created_at: String
    var members: [MemberView]
    var invites: [InviteView]

    init(_ workspace: Components.Schemas.Workspace) {
      id = workspace.id
      name = workspace.name
      owner_id = workspace.owner_id
      owner_email = workspace.owner_email
      industry = workspace.industry
      brokerage_id = workspace.brokerage_id
      brokerage_name = workspace.brokerage_name
      subscription_status = workspace.subscription_status.rawValue
      trial_ends_at = workspace.trial_ends_at
      onboarding_completed_at = workspace.onboarding_completed_at
      max_seats = workspace.max_seats
      referral_code_used = workspace.referral_code_used
      created_at = workspace.created_at
      members = workspace.members.map(MemberView.init)
      invites = workspace.invites.map(InviteView.init)
    }
  }

  struct MemberView: Encodable {
    var user_id: String
    var email: String
    var role: String
    @ExplicitNull var first_name: String?
    @ExplicitNull var last_name: String?
    @ExplicitNull var weekly_door_goal: Int?
    var created_at: String

    init(_ member: Components.Schemas.Member) {
      user_id = member.user_id
      email = member.email
      role = member.role.rawValue
      first_name = member.first_name
      last_name = member.last_name
      weekly_door_goal = member.weekly_door_goal
      created_at = member.created_at
    }
  }

  struct InviteView: Encodable {
    var id: String
    var workspace_id: String
    var email: String
    var role: String
    var status: String
    @ExplicitNull var invited_by: String?
    var expires_at: String
    var created_at: String
    @ExplicitNull var accepted_at: String?

    init(_ invite: Components.Schemas.Invite) {
      id = invite.id
      workspace_id = invite.workspace_id
      email = invite.email
      role = invite.role.rawValue
      status = invite.status.rawValue
      invited_by = invite.invited_by
      expires_at = invite.expires_at
      created_at = invite.created_at
      accepted_at = invite.accepted_at
    }
  }

  /// Prints a workspace: its data, or for a person its fields, members and invites (after
  /// `message`, if any, on stderr).
  static func show(_ workspace: Components.Schemas.Workspace, context: DeckContext, message: String? = nil) throws {
    let output = context.output
    try output.emit(WorkspaceView(workspace)) {
      if let message { output.info(message) }
      func value(_ text: String?) -> String { text ?? "null" }
      output.fields([
        ("id", workspace.id),
        ("name", workspace.name),
        ("owner", value(workspace.owner_email)),
        ("industry", value(workspace.industry)),
        ("brokerage_id", value(workspace.brokerage_id)),
        ("brokerage_name", value(workspace.brokerage_name)),
        ("subscription_status", workspace.subscription_status.rawValue),
        ("trial_ends_at", value(workspace.trial_ends_at)),
        ("onboarding_completed_at", value(workspace.onboarding_completed_at)),
        ("referral_code_used", value(workspace.referral_code_used)),
      ])
      output.line()
      output.table(["MEMBER", "ROLE", "SINCE"], workspace.members.map { [$0.email, $0.role.rawValue, $0.created_at] })
      if !workspace.invites.isEmpty {
        output.line()
        output.table(
          ["INVITE", "ROLE", "STATUS", "EXPIRES"],
          workspace.invites.map { [$0.email, $0.role.rawValue, $0.status.rawValue, $0.expires_at] })
      }
    }
  }
}

/// The token of an invite: a bare token or a join link (`…/join?token=…`).
enum InviteToken {
  static func parse(_ text: String) -> String? {
    let trimmed = text.trimming(.whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return nil }
    guard trimmed.contains("://") || trimmed.contains("?") || trimmed.hasPrefix("/") else { return trimmed }
    let value = URLComponents(string: trimmed)?.queryItems?.first { $0.name == "token" }?.value
    return value?.isEmpty == false ? value : nil
  }
}
