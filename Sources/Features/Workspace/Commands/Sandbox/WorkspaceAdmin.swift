import DeckCore
import DeckSupport
import Foundation
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
    let workspace: Components.Schemas.Workspace

    enum Keys: String, CodingKey {
      case id, name, owner_id, owner_email, industry, brokerage_id, brokerage_name, subscription_status
      case trial_ends_at, onboarding_completed_at, max_seats, referral_code_used, created_at, members, invites
    }

    enum MemberKeys: String, CodingKey {
      case user_id, email, role, first_name, last_name, weekly_door_goal, created_at
    }
    enum InviteKeys: String, CodingKey {
      case id, workspace_id, email, role, status, invited_by, expires_at, created_at, accepted_at
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      try container.encode(workspace.id, forKey: .id)
      try container.encode(workspace.name, forKey: .name)
      try container.encode(workspace.owner_id, forKey: .owner_id)
      try container.encode(workspace.owner_email, forKey: .owner_email)
      try container.encode(workspace.industry, forKey: .industry)
      try container.encode(workspace.brokerage_id, forKey: .brokerage_id)
      try container.encode(workspace.brokerage_name, forKey: .brokerage_name)
      try container.encode(workspace.subscription_status.rawValue, forKey: .subscription_status)
      try container.encode(workspace.trial_ends_at, forKey: .trial_ends_at)
      try container.encode(workspace.onboarding_completed_at, forKey: .onboarding_completed_at)
      try container.encode(workspace.max_seats, forKey: .max_seats)
      try container.encode(workspace.referral_code_used, forKey: .referral_code_used)
      try container.encode(workspace.created_at, forKey: .created_at)
      var members = container.nestedUnkeyedContainer(forKey: .members)
      for member in workspace.members {
        var row = members.nestedContainer(keyedBy: MemberKeys.self)
        try row.encode(member.user_id, forKey: .user_id)
        try row.encode(member.email, forKey: .email)
        try row.encode(member.role.rawValue, forKey: .role)
        try row.encode(member.first_name, forKey: .first_name)
        try row.encode(member.last_name, forKey: .last_name)
        try row.encode(member.weekly_door_goal, forKey: .weekly_door_goal)
        try row.encode(member.created_at, forKey: .created_at)
      }
      var invites = container.nestedUnkeyedContainer(forKey: .invites)
      for invite in workspace.invites {
        var row = invites.nestedContainer(keyedBy: InviteKeys.self)
        try row.encode(invite.id, forKey: .id)
        try row.encode(invite.workspace_id, forKey: .workspace_id)
        try row.encode(invite.email, forKey: .email)
        try row.encode(invite.role.rawValue, forKey: .role)
        try row.encode(invite.status.rawValue, forKey: .status)
        try row.encode(invite.invited_by, forKey: .invited_by)
        try row.encode(invite.expires_at, forKey: .expires_at)
        try row.encode(invite.created_at, forKey: .created_at)
        try row.encode(invite.accepted_at, forKey: .accepted_at)
      }
    }
  }

  /// Prints a workspace: JSON with --json, else its fields, members and invites.
  static func show(_ workspace: Components.Schemas.Workspace, context: DeckContext) throws {
    if context.isJSON { return try context.output.json(WorkspaceView(workspace: workspace)) }
    let output = context.output
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

/// The token of an invite: a bare token or a join link (`…/join?token=…`).
enum InviteToken {
  static func parse(_ text: String) -> String? {
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !trimmed.isEmpty else { return nil }
    guard trimmed.contains("://") || trimmed.contains("?") || trimmed.hasPrefix("/") else { return trimmed }
    let value = URLComponents(string: trimmed)?.queryItems?.first { $0.name == "token" }?.value
    return value?.isEmpty == false ? value : nil
  }
}
